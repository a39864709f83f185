/**
 * Housekeeping, every 5 minutes in the jobs role: deletes plant pictures left pending for more
 * than an hour (modules/plants/pictures.ts) and throttle counters idle for a day (longer than
 * any limit's window), fails remote-setting jobs a server stop interrupted
 * (modules/settings/sweep.ts), and deletes command jobs finished longer ago than their retention
 * (commands/retention.ts), and removes firmware upload files a crash left behind
 * (firmware/blobs.ts). All are idempotent: several processes may run it at once; main.ts runs it
 * in the leader only (cluster/leader.ts), so that the work is done once.
 */
import { DEFAULT_RETENTION_DAYS, pruneCommandJobs } from '../commands/retention.ts';
import type { Db } from '../db/index.ts';
import { sweepStaleParts } from '../firmware/blobs.ts';
import { pruneThrottles } from '../http/throttle.ts';
import { type Logger, silentLogger } from '../log.ts';
import { sweepPictures } from '../modules/plants/pictures.ts';
import { sweepInterruptedSettings } from '../modules/settings/sweep.ts';
import { type PeriodicJob, type PeriodicOptions, startPeriodic } from './periodic.ts';

export interface Housekeeping {
  pictures: number;
  throttles: number;
  /** Setting jobs failed as interrupted. */
  settings: number;
  /** Command jobs deleted past their retention. */
  commandJobs: number;
  /** Firmware upload files left behind. */
  firmwareParts: number;
}

export interface HousekeepingOptions {
  db: Db;
  dataDir: string;
  /** Days a finished command job is kept (`COMMAND_JOB_RETENTION_DAYS`, default 180). */
  commandJobRetentionDays?: number;
  now?: () => number;
  log?: Logger;
}

const DAY_MS = 24 * 60 * 60_000;
const throttleIdleMs = DAY_MS;

export async function housekeep(opts: HousekeepingOptions): Promise<Housekeeping> {
  const at = (opts.now ?? Date.now)();
  const pictures = await sweepPictures(opts.db, opts.dataDir, at);
  const throttles = await pruneThrottles(opts.db, throttleIdleMs, at);
  const settings = await sweepInterruptedSettings(opts.db, at);
  const commandJobs = await pruneCommandJobs(opts.db, at, (opts.commandJobRetentionDays ?? DEFAULT_RETENTION_DAYS) * DAY_MS);
  const firmwareParts = await sweepStaleParts(opts.dataDir, at);
  return { pictures, throttles, settings, commandJobs, firmwareParts };
}

export type HousekeepingJob = PeriodicJob<Housekeeping>;

/** Run every `intervalMs` (default 5 minutes); a run never overlaps the previous one; `when`: only in the leader. */
export function startHousekeeping(opts: HousekeepingOptions & PeriodicOptions & { intervalMs?: number }): HousekeepingJob {
  const log = opts.log ?? silentLogger;
  return startPeriodic(
    () => housekeep(opts),
    opts.intervalMs ?? 5 * 60_000,
    (done) => {
      if (done.pictures > 0) log.info(done, 'deleted pictures nothing refers to');
      if (done.settings > 0) log.warn(done, 'failed setting jobs a server stop interrupted');
      if (done.commandJobs > 0) log.info(done, 'deleted command jobs past their retention');
      if (done.firmwareParts > 0) log.info(done, 'deleted firmware upload files a stop left behind');
    },
    (error) => log.error({ err: error }, 'housekeeping failed'),
    { when: opts.when },
  );
}
