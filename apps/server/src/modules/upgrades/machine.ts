/**
 * A device's upgrade state from its command job, and from the version it reports afterwards.
 *
 * The device answers the `upgrade` command with `accepted`, then `progress` replies naming their
 * stage (`download` with its percent, `verify`, `flash` with its percent), then `ok` once the image
 * is flashed (it reboots next), or `error` with the stage it failed in and why ("cancelled" when an
 * `abort` stopped it). So:
 *
 *   job queued, or sent in the download stage      → sending (the percent of the download)
 *   sent, verify stage                              → downloaded
 *   sent, flash stage; or `ok`                      → upgrading (`ok`: flashed, waiting for the new version)
 *   `error` "cancelled", or the job cancelled       → cancelled
 *   `error` or timed out in the download stage      → download_failed
 *   any other `error`, time-out or expiry           → failed
 *
 * and an `upgrading` device that said `ok` is a success only once it reports the target version
 * after that; still another version, or none, at the end of the confirmation time is a failure.
 */
import type { CommandJob } from '../../commands/channel.ts';
import type { UpgradeState } from './upgrades.repo.ts';

export interface JobOutcome {
  state: UpgradeState;
  progress: number | null;
  error: string | null;
  /** When the device said it flashed the image (its `ok`). */
  flashedAt: number | null;
}

export const CANCELLED_REASON = 'cancelled';

export function outcomeOfJob(job: CommandJob): JobOutcome {
  const base = { progress: job.progress, error: null, flashedAt: null };
  switch (job.state) {
    case 'queued':
      return { ...base, state: 'sending', progress: null };
    case 'sent':
    case 'acknowledged':
      if (job.stage === 'flash') return { ...base, state: 'upgrading' };
      if (job.stage === 'verify') return { ...base, state: 'downloaded' };
      return { ...base, state: 'sending' };
    case 'succeeded':
      // The device's own time of its `ok`, on the clock its readings carry (else when it was taken).
      return { ...base, state: 'upgrading', progress: 100, flashedAt: job.reply?.ts ?? job.finishedAt ?? job.createdAt };
    case 'cancelled':
      return { ...base, state: 'cancelled', error: CANCELLED_REASON };
    case 'expired':
      return { ...base, state: 'failed', error: 'the gateway stayed offline until the upgrade expired' };
    case 'timed_out':
      return {
        ...base,
        state: job.stage === 'download' ? 'download_failed' : 'failed',
        error: 'no answer from the device in time',
      };
    case 'failed': {
      const error = job.error ?? 'failed';
      if (error === CANCELLED_REASON) return { ...base, state: 'cancelled', error };
      return { ...base, state: job.stage === 'download' ? 'download_failed' : 'failed', error };
    }
  }
}

const RANK: Record<UpgradeState, number> = {
  pending: 0,
  sending: 1,
  downloaded: 2,
  upgrading: 3,
  download_failed: 4,
  success: 4,
  failed: 4,
  cancelled: 4,
};

/** Whether moving from `from` to `to` is forward (a device never goes back a stage; a final state stays). */
export const isForward = (from: UpgradeState, to: UpgradeState) => RANK[from] < 4 && RANK[to] > RANK[from];

export type Confirmation = { state: 'success' } | { state: 'failed'; error: string } | null;

/**
 * A flashed device's confirmation: the version it reported after `flashedAt` (null: none yet).
 * Success as soon as that is the target. A device may still say its old version for a moment
 * (a reading taken while it reboots), so another version fails it only at `deadline`, as does
 * no report at all.
 */
export function confirmation(
  reported: { version: string | null; at: number | null },
  flashedAt: number,
  deadline: number,
  now: number,
  matches: (version: string | null) => boolean,
): Confirmation {
  const since = reported.at !== null && reported.at >= flashedAt;
  if (since && matches(reported.version)) return { state: 'success' };
  if (now < deadline) return null;
  if (since) return { state: 'failed', error: `the device reports version ${reported.version ?? 'none'} after the upgrade` };
  return { state: 'failed', error: 'the device did not report its version after the upgrade' };
}
