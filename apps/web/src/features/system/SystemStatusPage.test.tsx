import { ErrorCode } from '@sunfleet/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../api/hooks.ts';
import { renderWithApp } from '../../test/render.tsx';
import SystemStatusPage from './SystemStatusPage.tsx';
import type { SystemStatus } from './statusQueries.ts';

function status(extra: Partial<SystemStatus> = {}, received = 1000): SystemStatus {
  return {
    at: new Date(Date.UTC(2026, 4, 20, 8, 0, received / 1000)).toISOString(),
    uptimeSec: 3 * 3600 + 25 * 60,
    store: { dialect: 'postgres', pool: { max: 10, total: 4, idle: 1, waiting: 2 }, sqlite: null },
    ingest: {
      received,
      deviceFrames: 3900,
      stored: 3850,
      duplicates: 12,
      acknowledged: 960,
      refusedTotal: 7,
      refused: [
        { reason: 'malformedJson', count: 5 },
        { reason: 'unknownGateway', count: 2 },
        { reason: 'schema', count: 0 },
        { reason: 'staleTimestamp', count: 0 },
        { reason: 'someNewReason', count: 0 },
      ],
      batches: 210,
      failedBatches: 1,
      queueLength: 40,
      lastCommitMs: 8.2,
      averageCommitMs: 6.5,
      heldSpells: 0,
    },
    broker: {
      kind: 'embedded',
      connections: 12,
      delivered: 1000,
      droppedOversize: 0,
      rateLimited: 3,
      acknowledged: 990,
      retransmitted: 2,
      held: 0,
    },
    http: {
      requests: 420,
      routes: [{ method: 'GET', route: '/api/v1/plant/:id', count: 300, serverErrors: 0, averageMs: 4.25 }],
    },
    ...extra,
  };
}

function serve(answers: Array<() => Response>) {
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      calls.push(new URL(String(input), 'http://portal').pathname);
      const answer = answers[Math.min(calls.length - 1, answers.length - 1)]!;
      return answer();
    }),
  );
  return calls;
}
const ok = (data: unknown) => () => new Response(JSON.stringify({ code: ErrorCode.ok, msg: 'ok', data }), { status: 200 });

function renderPage() {
  return renderWithApp(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter initialEntries={['/management/status']}>
        <SystemStatusPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('system status page', () => {
  it('shows the figures of the status endpoint: summary, refused frames by reason, pool, routes', async () => {
    const calls = serve([ok(status())]);
    renderPage();
    expect(await screen.findByTestId('summary-connections', {}, { timeout: 5000 })).toBeTruthy();
    expect(calls).toEqual(['/api/v1/system/status']);
    expect(screen.getByTestId('summary-connections').textContent).toContain('12');
    expect(screen.getByTestId('summary-uptime').textContent).toContain('3 h 25 min');
    expect(screen.getByTestId('summary-refused').textContent).toContain('7');
    expect(screen.getByTestId('refused-malformedJson').textContent).toBe('Not JSON: 5');
    expect(screen.getByTestId('refused-unknownGateway').textContent).toBe('Unknown gateway: 2');
    // A reason this build has no text for is shown by its name.
    expect(screen.getByTestId('refused-someNewReason').textContent).toBe('someNewReason: 0');
    expect(screen.getByTestId('refused-staleTimestamp').textContent).toBe('Older than the retention window: 0');
    expect(screen.getByTestId('pool-in-use').textContent).toBe('3 of 10');
    expect(screen.getByTestId('pool-waiting').textContent).toBe('2');
    expect(screen.getByTestId('http-panel').textContent).toContain('/api/v1/plant/:id');
    expect(screen.getByTestId('ingest-acknowledged').textContent).toContain('960');
  }, 20_000);

  it('polls again and shows rates between two snapshots', async () => {
    const calls = serve([ok(status({}, 1000)), ok(status({ ingest: { ...status().ingest!, stored: 3900 } }, 6000))]);
    renderPage();
    await screen.findByTestId('summary-stored', {}, { timeout: 5000 });
    await waitFor(() => expect(calls.length).toBeGreaterThanOrEqual(2), { timeout: 8000 });
    // 50 more frames stored in the 5 s between the snapshots.
    await waitFor(() => expect(screen.getByTestId('summary-stored').textContent).toContain('10/s'));
  }, 20_000);

  it('says so when ingest runs in another process, and shows the SQLite sizes', async () => {
    serve([
      ok(
        status({
          ingest: null,
          broker: null,
          store: { dialect: 'sqlite', pool: null, sqlite: { fileBytes: 5 * 1024 ** 2, walBytes: 0 } },
        }),
      ),
    ]);
    renderPage();
    expect(await screen.findByTestId('sqlite-file', {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByTestId('sqlite-file').textContent).toBe('5.0 MiB');
    expect(screen.getByTestId('ingest-panel').textContent).toContain('Ingest does not run in this server process');
    expect(screen.getByTestId('summary-connections').textContent).toContain('–');
  }, 20_000);

  it('shows an error with a retry when the status cannot be read', async () => {
    serve([() => new Response('boom', { status: 500 }), ok(status())]);
    renderPage();
    const retry = await screen.findByText('Try again', {}, { timeout: 5000 });
    retry.click();
    expect(await screen.findByTestId('summary-connections', {}, { timeout: 5000 })).toBeTruthy();
  }, 20_000);
});
