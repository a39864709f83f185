/**
 * Housekeeping, every 5 minutes in the jobs role: deletes plant pictures left pending for more
 * than an hour (modules/plants/pictures.ts) and throttle counters idle for a day (longer than
 * any limit's window), and fails remote-setting jobs a server stop interrupted
 * (modules/settings/sweep.ts). All are idempotent: several processes may run it at once.
 */
import type { Db } from '../db/index.ts';
import { pruneThrottles } from '../http/throttle.ts';
import { type Logger, silentLogger } from '../log.ts';
import { sweepPictures } from '../modules/plants/pictures.ts';
import { sweepInterruptedSettings } from '../modules/settings/sweep.ts';
import { type PeriodicJob, startPeriodic } from './periodic.ts';

export interface Housekeeping {
  pictures: number;
  throttles: number;
  /** Setting jobs failed as interrupted. */
  settings: number;
}

export interface HousekeepingOptions {
  db: Db;
  dataDir: string;
  now?: () => number;
  log?: Logger;
}

const throttleIdleMs = 24 * 60 * 60_000;

export async function housekeep(opts: HousekeepingOptions): Promise<Housekeeping> {
  const at = (opts.now ?? Date.now)();
  const pictures = await sweepPictures(opts.db, opts.dataDir, at);
  const throttles = await pruneThrottles(opts.db, throttleIdleMs, at);
  const settings = await sweepInterruptedSettings(opts.db, at);
  return { pictures, throttles, settings };
}

export type HousekeepingJob = PeriodicJob<Housekeeping>;

/** Run every `intervalMs` (default 5 minutes); a run never overlaps the previous one. */
export function startHousekeeping(opts: HousekeepingOptions & { intervalMs?: number }): HousekeepingJob {
  const log = opts.log ?? silentLogger;
  return startPeriodic(
    () => housekeep(opts),
    opts.intervalMs ?? 5 * 60_000,
    (done) => {
      if (done.pictures > 0) log.info(done, 'deleted pictures nothing refers to');
      if (done.settings > 0) log.warn(done, 'failed setting jobs a server stop interrupted');
    },
    (error) => log.error({ err: error }, 'housekeeping failed'),
  );
}
