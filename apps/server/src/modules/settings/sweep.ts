/**
 * Setting jobs interrupted by a server stop: a job runs in the process that accepted it, so a
 * process that stops mid-job leaves it unfinished. A job with no step for `STALL_MS` (longer
 * than its three commands' longest waits) is failed as interrupted, and so is every unfinished
 * job of a batch none of whose jobs moved for that long; the batch is then finished. What the
 * device holds is not known: the job says so, and its history shows the values before.
 */
import type { Db } from '../../db/index.ts';
import { COMMAND_WAIT_MS } from './device-io.ts';
import * as repo from './sweep.repo.ts';

export const STALL_MS = 3 * COMMAND_WAIT_MS + 60_000;
const INTERRUPTED = 'interrupted: the server stopped while it ran; read the group to see what the device holds';

export async function sweepInterruptedSettings(db: Db, at: number): Promise<number> {
  const cutoff = at - STALL_MS;
  let failed = 0;
  for (const { id } of await repo.stalledBatches(db, cutoff)) failed += await repo.failBatch(db, id, INTERRUPTED, at);
  return failed + (await repo.failStalledSingles(db, cutoff, INTERRUPTED, at));
}
