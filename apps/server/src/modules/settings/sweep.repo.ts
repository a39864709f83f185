/** SQL of the sweep of interrupted setting jobs. */
import { ErrorCode } from '@sunfleet/contracts';
import type { Db } from '../../db/index.ts';

const UNFINISHED = ['queued', 'reading', 'writing', 'verifying'] as const;

/** Unfinished batches none of whose jobs moved since `cutoff`. */
export const stalledBatches = (db: Db, cutoff: number) =>
  db
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

/** Fail the batch's unfinished jobs with `error` and finish the batch; how many jobs failed. */
export async function failBatch(db: Db, id: string, error: string, at: number): Promise<number> {
  const r = await db
    .updateTable('setting_changes')
    .set({ state: 'failed', error, error_code: ErrorCode.timeout, updated_at: at, finished_at: at })
    .where('batch_id', '=', id)
    .where('state', 'in', UNFINISHED)
    .executeTakeFirst();
  await db
    .updateTable('setting_batches')
    .set({ state: 'finished' })
    .where('id', '=', id)
    .where('state', '=', 'running')
    .execute();
  await db.updateTable('setting_batches').set({ finished_at: at }).where('id', '=', id).execute();
  return Number(r.numUpdatedRows);
}

/** Fail the unfinished jobs outside batches that did not move since `cutoff`; how many. */
export async function failStalledSingles(db: Db, cutoff: number, error: string, at: number): Promise<number> {
  const single = await db
    .updateTable('setting_changes')
    .set({ state: 'failed', error, error_code: ErrorCode.timeout, updated_at: at, finished_at: at })
    .where('batch_id', 'is', null)
    .where('state', 'in', UNFINISHED)
    .where('updated_at', '<', cutoff)
    .executeTakeFirst();
  return Number(single.numUpdatedRows);
}
