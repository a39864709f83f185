/**
 * The rollout runner (the `jobs` role): every second it claims rollouts with work (a lease in the
 * store, picked with `FOR UPDATE SKIP LOCKED` on PostgreSQL, so several processes share them and a
 * process that dies leaves its rollouts to the others once the lease runs out) and moves each on:
 *
 * - its devices under way follow their command jobs, flashed ones are confirmed by the version
 *   they report (engine.ts);
 * - while it runs: when the failures of the current wave pass the threshold (failed devices over
 *   the wave's size, in percent, above the rollout's threshold), it pauses and says why; when the
 *   wave has ended, the next wave starts; after the last, it is completed;
 * - paused or cancelled rollouts only follow the devices still under way.
 *
 * Nothing lives in memory between ticks: a new process over the same store continues.
 */

import { type PeriodicJob, startPeriodic } from '../../jobs/periodic.ts';
import type { Logger } from '../../log.ts';
import { confirmDevices, firmwareRow, startWave, syncDevices, type UpgradeCtx } from './engine.ts';
import { nextWave } from './fleet.repo.ts';
import {
  claimRollouts,
  devicesOf,
  FAILED_STATES,
  moveRollout,
  OPEN_STATES,
  type RolloutRow,
  RUNNING_STATES,
  releaseRollout,
  type UpgradeState,
  waveCounts,
} from './upgrades.repo.ts';

export interface TickResult {
  rollouts: number;
  started: number;
  paused: number;
  completed: number;
}

/** How long a claimed rollout is this runner's (a dead runner's is taken over after it). */
export const LEASE_MS = 30_000;

/** Whether a wave's failures pass the threshold: failed over size, in percent, above it. */
export const overThreshold = (failed: number, size: number, thresholdPercent: number) =>
  size > 0 && failed * 100 > thresholdPercent * size;

/** Move one rollout on (it is claimed by the caller). */
export async function advanceRollout(ctx: UpgradeCtx, rollout: RolloutRow): Promise<Omit<TickResult, 'rollouts'>> {
  const result = { started: 0, paused: 0, completed: 0 };
  const firmware = await firmwareRow(ctx.db, rollout.firmware_id);
  const underWay = await devicesOf(ctx.db, rollout.id, { states: RUNNING_STATES });
  const synced = await syncDevices(ctx, underWay);
  if (firmware) await confirmDevices(ctx, synced, firmware.version);
  if (rollout.state !== 'running') return result;

  let r = rollout;
  for (;;) {
    const counts = await waveCounts(ctx.db, r.id);
    const wave = Number(r.current_wave);
    if (wave >= 0) {
      const of = (states: readonly UpgradeState[]) =>
        counts.filter((c) => c.wave === wave && states.includes(c.state)).reduce((n, c) => n + c.n, 0);
      const size = counts.filter((c) => c.wave === wave).reduce((n, c) => n + c.n, 0);
      const failed = of(FAILED_STATES);
      if (r.paused_wave !== wave && overThreshold(failed, size, r.failure_threshold)) {
        const percent = Math.round((failed * 1000) / size) / 10;
        const reason = `${wave === 0 ? 'canary' : `wave ${wave}`}: ${failed} of ${size} devices failed (${percent} %), over the ${r.failure_threshold} % threshold`;
        const paused = await moveRollout(ctx.db, r.id, ['running'], {
          state: 'paused',
          pause_reason: reason,
          paused_wave: wave,
          updated_at: ctx.now(),
        });
        if (paused) result.paused++;
        return result;
      }
      if (of(OPEN_STATES) > 0) return result;
    }
    if (wave + 1 >= Number(r.waves)) {
      const done = await moveRollout(ctx.db, r.id, ['running'], {
        state: 'completed',
        finished_at: ctx.now(),
        updated_at: ctx.now(),
      });
      if (done) result.completed++;
      return result;
    }
    const next = await nextWave(ctx.db, r.id, wave, ctx.now());
    if (!next) return result;
    r = next;
    result.started += await startWave(ctx, r, wave + 1);
    // A wave whose devices all ended at once (none could be sent) lets the next one start now.
    const open = await devicesOf(ctx.db, r.id, { wave: wave + 1, states: OPEN_STATES, limit: 1 });
    if (open.length > 0) return result;
  }
}

export interface UpgradeRunner {
  /** Claim what has work and move it on; the claims are released at the end. */
  tick(): Promise<TickResult>;
}

export function createUpgradeRunner(ctx: UpgradeCtx, log: Logger, leaseMs = LEASE_MS): UpgradeRunner {
  return {
    async tick() {
      const total: TickResult = { rollouts: 0, started: 0, paused: 0, completed: 0 };
      const claimed = await claimRollouts(ctx.db, ctx.dialect, ctx.now(), leaseMs);
      for (const rollout of claimed) {
        try {
          const r = await advanceRollout(ctx, rollout);
          total.started += r.started;
          total.paused += r.paused;
          total.completed += r.completed;
        } catch (err) {
          log.error({ err, rollout: rollout.id }, 'upgrade rollout step failed; trying again');
        } finally {
          await releaseRollout(ctx.db, rollout.id);
        }
      }
      total.rollouts = claimed.length;
      return total;
    },
  };
}

export function startUpgradeRunner(ctx: UpgradeCtx, log: Logger, intervalMs = 1000): PeriodicJob<TickResult> {
  const runner = createUpgradeRunner(ctx, log);
  return startPeriodic(
    () => runner.tick(),
    intervalMs,
    (r) => {
      if (r.paused + r.completed > 0) log.info(r, 'upgrade rollouts paused or completed');
    },
    (err) => log.error({ err }, 'upgrade runner failed; trying again'),
  );
}
