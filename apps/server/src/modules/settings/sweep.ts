/**
 * Setting jobs interrupted by a server stop: a job runs in the process that accepted it, so a
 * process that stops mid-job leaves it unfinished. A job with no step for `STALL_MS` (longer
 * than its three commands' longest waits) is failed as interrupted, and so is every unfinished
 * job of a batch none of whose jobs moved for that long; the batch is then finished. What the
 * device holds is not known: the job says so, and its history shows the values before.
 */
import { ErrorCode } from '@sunfleet/contracts';
import type { Db } from '../../db/index.ts';
import { COMMAND_WAIT_MS } from './device-io.ts';

export const STALL_MS = 3 * COMMAND_WAIT_MS + 60_000;
const UNFINISHED = ['queued', 'reading', 'writing', 'verifying'] as const;
const INTERRUPTED = 'interrupted: the server stopped while it ran; read the group to see what the device holds';

export async function sweepInterruptedSettings(db: Db, at: number): Promise<number> {
  const cutoff = at - STALL_MS;
  const batches = await db
    .selectFrom('setting_batches')
    .select('id')
    .where('finished_at', 'is', null)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('setting_changes')
            .select('setting_changes.id')
            .whereRef('setting_changes.batch_id', '=', 'setting_batches.id')
            .where('setting_changes.updated_at', '>=', cutoff),
        ),
      ),
    )
    .execute();
  let failed = 0;
  for (const { id } of batches) {
    const r = await db
      .updateTable('setting_changes')
      .set({ state: 'failed', error: INTERRUPTED, error_code: ErrorCode.timeout, updated_at: at, finished_at: at })
      .where('batch_id', '=', id)
      .where('state', 'in', UNFINISHED)
      .executeTakeFirst();
    failed += Number(r.numUpdatedRows);
    await db
      .updateTable('setting_batches')
      .set({ state: 'finished' })
      .where('id', '=', id)
      .where('state', '=', 'running')
      .execute();
    await db.updateTable('setting_batches').set({ finished_at: at }).where('id', '=', id).execute();
  }
  const single = await db
    .updateTable('setting_changes')
    .set({ state: 'failed', error: INTERRUPTED, error_code: ErrorCode.timeout, updated_at: at, finished_at: at })
    .where('batch_id', 'is', null)
    .where('state', 'in', UNFINISHED)
    .where('updated_at', '<', cutoff)
    .executeTakeFirst();
  return failed + Number(single.numUpdatedRows);
}
