/** The upgrade state a device's command job means, the forward-only rule, and the confirmation by reported version. */
import { describe, expect, it } from 'vitest';
import type { CommandJob } from '../../commands/channel.ts';
import { confirmation, isForward, outcomeOfJob } from './machine.ts';
import { overThreshold } from './runner.ts';
import { planWaves } from './upgrades.service.ts';
import { inverterVersion, isVersion } from './versions.ts';

const job = (over: Partial<CommandJob>): CommandJob => ({
  id: 'job-00000001',
  gatewaySn: 'GW0001',
  deviceSn: null,
  batchId: null,
  state: 'sent',
  body: { type: 'upgrade' },
  reply: null,
  error: null,
  requestedBy: 1,
  progress: null,
  stage: null,
  createdAt: 1000,
  sentAt: 1100,
  finishedAt: null,
  ...over,
});

describe('a device’s upgrade state from its command job', () => {
  it.each([
    [{ state: 'queued' }, 'sending', null],
    [{ state: 'sent' }, 'sending', null],
    [{ state: 'acknowledged', stage: 'download', progress: 40 }, 'sending', null],
    [{ state: 'acknowledged', stage: 'verify', progress: 100 }, 'downloaded', null],
    [{ state: 'acknowledged', stage: 'flash', progress: 10 }, 'upgrading', null],
    [{ state: 'succeeded', finishedAt: 5000 }, 'upgrading', null],
    [{ state: 'failed', stage: 'download', error: 'connection reset' }, 'download_failed', 'connection reset'],
    [{ state: 'failed', stage: 'verify', error: 'bad signature' }, 'failed', 'bad signature'],
    [{ state: 'failed', stage: 'flash', error: 'flash write error' }, 'failed', 'flash write error'],
    [{ state: 'failed', stage: 'download', error: 'cancelled' }, 'cancelled', 'cancelled'],
    [{ state: 'cancelled' }, 'cancelled', 'cancelled'],
    [{ state: 'timed_out', stage: 'download' }, 'download_failed', 'no answer from the device in time'],
    [{ state: 'timed_out', stage: 'flash' }, 'failed', 'no answer from the device in time'],
    [{ state: 'expired' }, 'failed', 'the gateway stayed offline until the upgrade expired'],
  ] as const)('%o → %s', (over, state, error) => {
    const o = outcomeOfJob(job(over as Partial<CommandJob>));
    expect(o.state).toBe(state);
    expect(o.error).toBe(error);
  });

  it('keeps the percent; an ok is flashed at its time, at 100 %', () => {
    expect(outcomeOfJob(job({ state: 'acknowledged', stage: 'download', progress: 55 })).progress).toBe(55);
    expect(outcomeOfJob(job({ state: 'succeeded', finishedAt: 5000 }))).toMatchObject({ flashedAt: 5000, progress: 100 });
    // The device's time of its ok, when the reply says it (its readings carry the same clock).
    expect(
      outcomeOfJob(job({ state: 'succeeded', finishedAt: 5000, reply: { v: 1, id: 'job-00000001', ts: 4900, status: 'ok' } })),
    ).toMatchObject({ flashedAt: 4900 });
  });

  it('moves only forward, and never out of a final state', () => {
    expect(isForward('pending', 'sending')).toBe(true);
    expect(isForward('sending', 'downloaded')).toBe(true);
    expect(isForward('downloaded', 'upgrading')).toBe(true);
    expect(isForward('upgrading', 'failed')).toBe(true);
    expect(isForward('upgrading', 'sending')).toBe(false);
    expect(isForward('downloaded', 'sending')).toBe(false);
    expect(isForward('cancelled', 'failed')).toBe(false);
    expect(isForward('success', 'failed')).toBe(false);
  });
});

describe('confirmation by the version reported after the flash', () => {
  const match = (v: string | null) => v === '2.0.0';
  it('success when the target comes after the flash; another version or none fails only at the deadline', () => {
    expect(confirmation({ version: '2.0.0', at: 2000 }, 1000, 9000, 2000, match)).toEqual({ state: 'success' });
    // Still rebooting: an old version right after the flash is not yet a failure.
    expect(confirmation({ version: '1.0.0', at: 2000 }, 1000, 9000, 2000, match)).toBeNull();
    expect(confirmation({ version: '1.0.0', at: 2000 }, 1000, 9000, 9000, match)).toEqual({
      state: 'failed',
      error: 'the device reports version 1.0.0 after the upgrade',
    });
    // A report from before the flash is not the answer.
    expect(confirmation({ version: '2.0.0', at: 500 }, 1000, 9000, 2000, match)).toBeNull();
    expect(confirmation({ version: null, at: null }, 1000, 9000, 9000, match)).toEqual({
      state: 'failed',
      error: 'the device did not report its version after the upgrade',
    });
  });
});

describe('versions', () => {
  it('reads an inverter’s register version as numbers, and matches targets by their numbers', () => {
    expect(inverterVersion({ controlFirmware: '0x01 0x04 0x02 0x11' })).toBe('1_4_2_17');
    expect(inverterVersion({ firmware: '03 02 00 05' })).toBe('3_2_0_5');
    expect(inverterVersion({})).toBeNull();
    expect(isVersion('inverter', '3.2.0.6', 'V3.2.0.6')).toBe(true);
    expect(isVersion('inverter', '3.2.0.5', '3.2.0.6')).toBe(false);
    expect(isVersion('gateway', 'SFG-2.5.0', 'SFG-2.5.0')).toBe(true);
    expect(isVersion('gateway', 'SFG-2.4.1', 'SFG-2.5.0')).toBe(false);
    // One version order for both kinds: styles and leading zeros do not count.
    expect(isVersion('gateway', 'SFG-2_5_0', 'SFG-2.5.0')).toBe(true);
    expect(isVersion('inverter', '3.2.0.6', 'V3_2_0_06')).toBe(true);
    expect(isVersion('inverter', '3.2.0.6', 'V3_2_0_6_1')).toBe(false);
    expect(isVersion('gateway', null, 'SFG-2.5.0')).toBe(false);
  });
});

describe('waves and the pause threshold', () => {
  it('plans a canary by count or percent, then waves of the size', () => {
    expect(planWaves(100, { canarySize: 10, waveSize: 30 })).toEqual({ canary: 10, waveSize: 30, waves: 4 });
    expect(planWaves(1000, { canaryPercent: 5, waveSize: 200 })).toEqual({ canary: 50, waveSize: 200, waves: 6 });
    expect(planWaves(3, {})).toMatchObject({ canary: 3, waves: 1 });
  });
  it('pauses when failures over the size pass the threshold percent', () => {
    expect(overThreshold(1, 10, 10)).toBe(false);
    expect(overThreshold(2, 10, 10)).toBe(true);
    expect(overThreshold(1, 10, 0)).toBe(true);
    expect(overThreshold(0, 10, 0)).toBe(false);
  });
});
