/**
 * The rollout page: waves, counts per state, the failing devices with reasons, pause, resume and a
 * confirmed cancel; another account's rollout answers as missing.
 */
import { ErrorCode } from '@sunfleet/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ShellContext, type ShellInfo } from '../../app/shell/shellContext.ts';
import { type Call, callsTo, renderPage, serve } from '../../test/pages.tsx';
import RolloutPage from './RolloutPage.tsx';

const T = { timeout: 10_000 };
const ID = '00000000-0000-4000-8000-0000000000r1';
const shell = (granted: string[]) =>
  ({ profile: {}, routes: [], buttons: {}, rights: { granted: new Set(granted), readOnly: false } }) as unknown as ShellInfo;

const device = (sn: string, state: string, error: string | null = null, wave = 1) => ({
  sn,
  kind: 'inverter',
  gatewaySn: 'SFGW000001',
  rolloutId: ID,
  wave,
  state,
  progress: null,
  error,
  fromVersion: '1.4.0.0',
  toVersion: '1.5.0.0',
  firmwareId: 7,
  startedAt: null,
  finishedAt: null,
});

const rollout = (state: string, extra: Record<string, unknown> = {}) => ({
  id: ID,
  firmwareId: 7,
  productName: 'Hybrid 3P',
  version: '1.5.0.0',
  deviceKind: 'inverter',
  state,
  canarySize: 2,
  waveSize: 2,
  failureThreshold: 10,
  waves: 3,
  currentWave: 1,
  pauseReason: state === 'paused' ? 'wave 1: 1 of 2 devices failed (50 %), over the 10 % threshold' : null,
  createdAt: '2026-01-01T10:00:00.000Z',
  finishedAt: null,
  total: 6,
  counts: { success: 3, failed: 1, pending: 2 },
  waveList: [
    { wave: 0, size: 2, counts: { success: 2 } },
    { wave: 1, size: 2, counts: { success: 1, failed: 1 } },
    { wave: 2, size: 2, counts: { pending: 2 } },
  ],
  failing: [device('INV0003', 'failed', 'flash write error')],
  ...extra,
});

function renderRollout(granted: string[]) {
  return renderPage(
    <ShellContext.Provider value={shell(granted)}>
      <RolloutPage />
    </ShellContext.Provider>,
    { path: `/firmware/rollout/${ID}`, pattern: '/firmware/rollout/:id' },
  );
}

describe('the rollout page', () => {
  it('shows why it paused, the waves, the counts and the failing devices; resumes; cancel is confirmed first', async () => {
    let state = 'paused';
    const calls: Call[] = serve([
      ['GET', `/api/v1/upgrade/rollout/${ID}`, () => rollout(state)],
      [
        'POST',
        `/api/v1/upgrade/rollout/${ID}/resume`,
        () => {
          state = 'running';
          return rollout(state);
        },
      ],
      [
        'POST',
        `/api/v1/upgrade/rollout/${ID}/cancel`,
        () => {
          state = 'cancelled';
          return rollout(state);
        },
      ],
    ]);
    renderRollout(['inverter.upgrade']);
    expect((await screen.findByTestId('rollout-state', {}, T)).textContent).toBe('Paused');
    expect(screen.getByTestId('rollout-title').textContent).toBe('Hybrid 3P 1.5.0.0');
    expect(screen.getByTestId('rollout-paused').textContent).toContain('wave 1: 1 of 2 devices failed (50 %)');
    expect(screen.getByTestId('rollout-counts-failed').textContent).toBe('Failed: 1');
    expect(screen.getByTestId('rollout-counts-pending').textContent).toBe('Waiting: 2');
    const waves = screen.getByTestId('rollout-waves');
    expect(within(waves).getByText('Canary')).toBeTruthy();
    expect(within(waves).getByText('Wave 2')).toBeTruthy();
    const failing = screen.getByTestId('rollout-failing');
    expect(within(failing).getByText('INV0003')).toBeTruthy();
    expect(within(failing).getByText('flash write error')).toBeTruthy();
    expect(screen.queryByTestId('rollout-pause')).toBeNull();

    fireEvent.click(screen.getByTestId('rollout-resume'));
    await waitFor(() => expect(callsTo(calls, `/api/v1/upgrade/rollout/${ID}/resume`, 'POST')).toHaveLength(1));
    await waitFor(() => expect(screen.getByTestId('rollout-state').textContent).toBe('Running'), T);
    expect(screen.getByTestId('rollout-pause')).toBeTruthy();

    fireEvent.click(screen.getByTestId('rollout-cancel'));
    await screen.findByTestId('rollout-cancel-ok');
    expect(callsTo(calls, `/api/v1/upgrade/rollout/${ID}/cancel`, 'POST')).toHaveLength(0);
    fireEvent.click(screen.getByTestId('rollout-cancel-ok'));
    await waitFor(() => expect(callsTo(calls, `/api/v1/upgrade/rollout/${ID}/cancel`, 'POST')).toHaveLength(1));
    await waitFor(() => expect(screen.getByTestId('rollout-state').textContent).toBe('Cancelled'), T);
    expect(screen.queryByTestId('rollout-cancel')).toBeNull();
  }, 30_000);

  it('a rollout of someone else answers as missing', async () => {
    serve([['GET', `/api/v1/upgrade/rollout/${ID}`, () => ({ __code: ErrorCode.notFound, msg: 'Not found' })]]);
    renderRollout(['inverter.upgrade']);
    expect(await screen.findByTestId('rollout-missing', {}, T)).toBeTruthy();
  });
});
