/**
 * Retention of command jobs: a final job (succeeded, failed, timed out, cancelled, expired) that
 * finished longer ago than the retention (`COMMAND_JOB_RETENTION_DAYS`, 180 days by default) is
 * deleted with its state changes, in batches, by housekeeping. An open job is never deleted.
 *
 * The audit stays consistent: a job that a remote-setting change (`setting_changes`) or a
 * maintenance-log entry (`maintenance_log`) still points at is kept while that row is unfinished
 * or finished within the retention; once that row is past the retention too, the job goes and
 * the row's pointer is cleared in the same transaction (the row keeps its own record: values,
 * state, error), so nothing points at a job that is gone.
 */
import type { Db } from '../db/index.ts';
import { FINAL_STATES, type JobState } from './channel.ts';

export const DEFAULT_RETENTION_DAYS = 180;
const FINAL = [...FINAL_STATES] as JobState[];

/** Delete final jobs finished before `at - retentionMs`, `batch` per transaction; how many. */
export async function pruneCommandJobs(db: Db, at: number, retentionMs: number, batch = 1000): Promise<number> {
  const cutoff = at - retentionMs;
  let total = 0;
  for (;;) {
    const deleted = await db.transaction().execute(async (trx) => {
      const ids = (
        await trx
          .selectFrom('command_jobs')
          .select('id')
          .where('state', 'in', FINAL)
          .where('finished_at', '<', cutoff)
          .where(({ not, exists, selectFrom, or }) =>
            not(
              or([
                exists(
                  selectFrom('setting_changes')
                    .select('setting_changes.id')
                    .whereRef('setting_changes.command_job_id', '=', 'command_jobs.id')
                    .where((w) =>
                      w.or([w('setting_changes.finished_at', 'is', null), w('setting_changes.finished_at', '>=', cutoff)]),
                    ),
                ),
                exists(
                  selectFrom('maintenance_log')
                    .select('maintenance_log.id')
                    .whereRef('maintenance_log.job_id', '=', 'command_jobs.id')
                    .where((w) =>
                      w.or([w('maintenance_log.finished_at', 'is', null), w('maintenance_log.finished_at', '>=', cutoff)]),
                    ),
                ),
              ]),
            ),
          )
          .orderBy('finished_at')
          .limit(batch)
          .execute()
      ).map((r) => r.id);
      if (ids.length === 0) return 0;
      await trx.updateTable('setting_changes').set({ command_job_id: null }).where('command_job_id', 'in', ids).execute();
      await trx.updateTable('maintenance_log').set({ job_id: null }).where('job_id', 'in', ids).execute();
      await trx.deleteFrom('command_job_events').where('job_id', 'in', ids).execute();
      const gone = await trx.deleteFrom('command_jobs').where('id', 'in', ids).where('state', 'in', FINAL).executeTakeFirst();
      return Number(gone.numDeletedRows);
    });
    total += deleted;
    if (deleted < batch) return total;
  }
}
