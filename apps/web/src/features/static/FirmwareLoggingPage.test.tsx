import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callsTo, renderPage, serve } from '../../test/pages.tsx';
import FirmwareLoggingPage from './FirmwareLoggingPage.tsx';

const log = (id: number, type: 'gateway' | 'inverter', version: string, changeLog: string) => ({
  id,
  type,
  productName: type === 'gateway' ? 'Sunfleet Gateway' : 'Hybrid 5K',
  version,
  changeLog,
  publishedAt: '2026-01-10T12:00:00.000Z',
});

const show = () => renderPage(<FirmwareLoggingPage />, { path: '/firmwareLogging', pattern: '/firmwareLogging' });

afterEach(() => vi.unstubAllGlobals());

describe('firmware release notes page', () => {
  it('shows the published notes and asks for one type when chosen', async () => {
    const calls = serve([
      [
        'GET',
        '/anonymous/firmware/changelog',
        (c) =>
          c.url.searchParams.get('type') === 'inverter'
            ? { total: 1, list: [log(1, 'inverter', '2.0.0', 'Grid code update')] }
            : { total: 2, list: [log(2, 'gateway', '3.0.0', 'Faster uploads'), log(1, 'inverter', '2.0.0', 'Grid code update')] },
      ],
    ]);
    show();
    expect((await screen.findByTestId('firmware-log-2', {}, { timeout: 5000 })).textContent).toContain('Faster uploads');
    fireEvent.click(within(screen.getByTestId('firmware-log-type')).getByText('Inverter'));
    await waitFor(() => expect(screen.queryByTestId('firmware-log-2')).toBeNull(), { timeout: 5000 });
    expect(callsTo(calls, '/anonymous/firmware/changelog').at(-1)!.url.searchParams.get('type')).toBe('inverter');
  }, 20_000);

  it('says when nothing is published, and shows an error with a retry', async () => {
    serve([['GET', '/anonymous/firmware/changelog', () => ({ total: 0, list: [] })]]);
    const { unmount } = show();
    expect(await screen.findByTestId('firmware-log-empty', {}, { timeout: 5000 })).toBeTruthy();
    unmount();
    vi.unstubAllGlobals();
    serve([['GET', '/anonymous/firmware/changelog', () => new Response('down', { status: 503 })]]);
    show();
    expect(await screen.findByRole('alert', {}, { timeout: 5000 })).toBeTruthy();
  }, 20_000);
});
