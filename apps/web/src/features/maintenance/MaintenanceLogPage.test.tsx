import { ErrorCode } from '@sunfleet/contracts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callsTo, fail, renderPage, serve } from '../../test/pages.tsx';
import MaintenanceLogPage from './MaintenanceLogPage.tsx';

const entry = (id: number, over: Record<string, unknown> = {}) => ({
  id,
  kind: 'restart',
  sn: 'GW0001',
  gatewaySn: 'GW0001',
  plantId: 7,
  plantName: 'Casa Marta',
  user: 'Ana',
  jobId: 'job-1',
  result: 'succeeded',
  detail: { batchId: 'b-1' },
  createdAt: '2026-01-10T12:00:00.000Z',
  finishedAt: '2026-01-10T12:00:05.000Z',
  ...over,
});

const show = (path = '/log/uphold') => renderPage(<MaintenanceLogPage />, { path, pattern: '/log/uphold' });

afterEach(() => vi.unstubAllGlobals());

describe('maintenance log page', () => {
  it('lists the entries and opens one with its detail and steps', async () => {
    const calls = serve([
      [
        'GET',
        '/api/v1/logger/page',
        () => ({ total: 2, list: [entry(2, { kind: 'debug', sn: 'INV9', result: 'running', finishedAt: null }), entry(1)] }),
      ],
      ['GET', '/api/v1/plants', () => ({ total: 0, list: [] })],
      [
        'GET',
        '/api/v1/logger/content',
        () => ({
          ...entry(1),
          steps: [
            { state: 'queued', at: '2026-01-10T12:00:00.000Z', detail: null },
            { state: 'succeeded', at: '2026-01-10T12:00:05.000Z', detail: null },
          ],
        }),
      ],
    ]);
    show();
    expect((await screen.findByTestId('log-result-2', {}, { timeout: 5000 })).textContent).toContain('Running');
    expect(screen.getByTestId('log-result-1').textContent).toContain('Succeeded');
    expect(screen.getByTestId('log-table').textContent).toContain('INV9');
    expect(screen.getByTestId('log-table').textContent).toContain('via GW0001');
    fireEvent.click(screen.getByTestId('log-detail-1'));
    expect((await screen.findByTestId('log-drawer-steps', {}, { timeout: 5000 })).textContent).toContain('Queued');
    expect(screen.getByTestId('log-drawer-detail').textContent).toContain('b-1');
    expect(callsTo(calls, '/api/v1/logger/content')[0]!.url.searchParams.get('id')).toBe('1');
  }, 20_000);

  it('sends the filters of the address: kind, SN and the days as instants', async () => {
    const calls = serve([
      ['GET', '/api/v1/logger/page', () => ({ total: 0, list: [] })],
      ['GET', '/api/v1/plants', () => ({ total: 0, list: [] })],
    ]);
    show('/log/uphold?kind=debug&sn=INV9&start=2026-01-02&end=2026-01-05');
    await waitFor(() => expect(callsTo(calls, '/api/v1/logger/page').length).toBeGreaterThan(0), { timeout: 5000 });
    const q = callsTo(calls, '/api/v1/logger/page').at(-1)!.url.searchParams;
    expect(q.get('kind')).toBe('debug');
    expect(q.get('sn')).toBe('INV9');
    expect(new Date(q.get('startTime')!).getTime()).toBe(new Date(2026, 0, 2).getTime());
    expect(new Date(q.get('endTime')!).getTime()).toBe(new Date(2026, 0, 6).getTime());
    expect(await screen.findByText('No maintenance actions match these filters')).toBeTruthy();
  }, 20_000);

  it('an SN nobody lets the caller see is said under the field; an invalid one is not sent', async () => {
    const calls = serve([
      [
        'GET',
        '/api/v1/logger/page',
        (c) => (c.url.searchParams.get('sn') ? fail(ErrorCode.notFound) : { total: 1, list: [entry(1)] }),
      ],
      ['GET', '/api/v1/plants', () => ({ total: 0, list: [] })],
    ]);
    show('/log/uphold?sn=NOPE1');
    expect(await screen.findByText('No device or gateway you can see has the SN NOPE1', {}, { timeout: 5000 })).toBeTruthy();
    vi.unstubAllGlobals();
    const again = serve([['GET', '/api/v1/logger/page', () => ({ total: 0, list: [] })]]);
    show('/log/uphold?sn=bad%20sn');
    expect(await screen.findByText('An SN has 1 to 32 letters, digits, - or _', {}, { timeout: 5000 })).toBeTruthy();
    expect(callsTo(again, '/api/v1/logger/page')).toHaveLength(0);
    expect(calls.length).toBeGreaterThan(0);
  }, 20_000);

  it('shows an error with a retry when the list fails', async () => {
    serve([
      ['GET', '/api/v1/logger/page', () => new Response('down', { status: 503 })],
      ['GET', '/api/v1/plants', () => ({ total: 0, list: [] })],
    ]);
    show();
    expect(await screen.findByRole('alert', {}, { timeout: 5000 })).toBeTruthy();
  }, 20_000);
});
