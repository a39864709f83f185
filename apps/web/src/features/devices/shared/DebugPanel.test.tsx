/** The debug panels: the code sent, the reply read until it is final and shown, and the errors. */

import { commandsApi, type DataOf, ErrorCode } from '@sunfleet/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createQueryClient } from '../../../api/hooks.ts';
import { callsTo, fail, on, serve } from '../../../test/pages.tsx';
import { renderWithApp } from '../../../test/render.tsx';
import { DebugPanel } from './DebugPanel.tsx';

const SN = 'HYABVNAAB1ME';
type Reply = DataOf<typeof commandsApi.inverterDebugReply>;
const reply = (state: Reply['state'], text: string | null = null, error: string | null = null): Reply => ({
  jobId: 'job-1',
  sn: SN,
  gatewaySn: 'SFGW000001',
  type: 'debug',
  state,
  error,
  requestedAt: '2026-01-01T00:00:00.000Z',
  sentAt: null,
  finishedAt: null,
  code: 'status',
  text,
});

const render = (kind: 'inverter' | 'gateway', sn = SN) =>
  renderWithApp(
    <QueryClientProvider client={createQueryClient()}>
      <DebugPanel kind={kind} sn={sn} />
    </QueryClientProvider>,
  );

function send(code = 'status') {
  fireEvent.change(screen.getByTestId('debug-code'), { target: { value: code } });
  fireEvent.click(screen.getByTestId('debug-send'));
}

describe('inverter debug', () => {
  it('sends the code, reads the reply while the job runs and shows the text once it comes', async () => {
    const answers = [reply('acknowledged'), reply('succeeded', 'debug status\npower switch: on')];
    const calls = serve([
      on(commandsApi.inverterDebug, reply('sent')),
      on(commandsApi.inverterDebugReply, () => answers.shift() ?? reply('succeeded', 'debug status\npower switch: on')),
    ]);
    render('inverter');
    expect(screen.getByTestId('debug-empty').textContent).toContain('Send a debug code');
    send();
    await waitFor(() => expect(callsTo(calls, `/api/v1/inverter/${SN}/debug`, 'POST')).toHaveLength(1));
    expect(callsTo(calls, `/api/v1/inverter/${SN}/debug`, 'POST')[0]!.body).toBe('code=status');
    const text = await screen.findByTestId('debug-text');
    expect(text.textContent).toBe('debug status\npower switch: on');
    const reads = callsTo(calls, `/api/v1/inverter/${SN}/debug/reply`);
    expect(reads).toHaveLength(2);
    expect(reads[0]!.url.searchParams.get('jobId')).toBe('job-1');
    expect(reads[0]!.url.searchParams.get('waitMs')).toBe('5000');
  });

  it('shows the state while the reply has not come', async () => {
    let answer = reply('acknowledged');
    const calls = serve([on(commandsApi.inverterDebug, reply('sent')), on(commandsApi.inverterDebugReply, () => answer)]);
    render('inverter');
    send();
    await waitFor(() => expect(screen.getByTestId('debug-running').textContent).toBe('The device is running it…'));
    const before = callsTo(calls, `/api/v1/inverter/${SN}/debug/reply`).length;
    // Read again, but not in a tight loop while the server answers at once.
    await new Promise((r) => setTimeout(r, 1200));
    const reads = callsTo(calls, `/api/v1/inverter/${SN}/debug/reply`).length - before;
    expect(reads).toBeGreaterThanOrEqual(1);
    expect(reads).toBeLessThanOrEqual(3);
    answer = reply('failed', null, 'device not responding');
    expect((await screen.findByTestId('debug-error')).textContent).toContain('The device refused: device not responding');
  });

  it('says offline (1001) and a blocking state (1005) in the panel', async () => {
    for (const [code, text] of [
      [1001, 'The device is offline'],
      [1005, 'The current state blocks remote debug, upgrade or power on/off'],
    ] as const) {
      serve([on(commandsApi.inverterDebug, fail(code))]);
      const view = render('inverter');
      send();
      expect((await screen.findByTestId('debug-error')).textContent).toContain(text);
      view.unmount();
    }
  });
});

describe('gateway debug', () => {
  it('shows the diagnostic text the call returns, and "timed out" for code 1', async () => {
    serve([on(commandsApi.gatewayDebug, reply('succeeded', 'gateway SFGW000001: online'))]);
    const view = render('gateway', 'SFGW000001');
    send();
    expect((await screen.findByTestId('debug-text')).textContent).toBe('gateway SFGW000001: online');
    view.unmount();
    serve([on(commandsApi.gatewayDebug, fail(ErrorCode.timeout))]);
    render('gateway', 'SFGW000001');
    send();
    expect((await screen.findByTestId('debug-error')).textContent).toContain('The request timed out');
  });
});
