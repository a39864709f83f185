/**
 * One open power command (boot or shutdown) per device, held by the store: a unique index over the
 * open power jobs of a device, so two requests at once cannot both pass a check and both be
 * stored. Jobs are inserted with `on conflict do nothing` (group.ts commits many at once), so the
 * one refused row is left out and the others of its group are stored.
 *
 * Also the indexes the retention of command jobs reads by (housekeeping deletes final jobs by
 * their finish time, and keeps those a setting change still points at).
 *
 * Open power jobs already stored twice for one device would keep the index from being made: all
 * but the newest are failed first ("superseded"), with their event row.
 */
import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was then
type Db = Kysely<any>;

const OPEN = sql`state in ('queued', 'sent', 'acknowledged')`;
const POWER = sql`type in ('boot', 'shutdown')`;

export async function up(db: Db): Promise<void> {
  const at = Date.now();
  const superseded = await sql<{ id: string }>`select j.id from command_jobs j
    where ${POWER} and ${OPEN} and j.device_sn is not null and exists (
      select 1 from command_jobs n where n.device_sn = j.device_sn and n.type in ('boot', 'shutdown')
        and n.state in ('queued', 'sent', 'acknowledged')
        and (n.created_at > j.created_at or (n.created_at = j.created_at and n.id > j.id)))`.execute(db);
  const ids = superseded.rows.map((r) => r.id);
  if (ids.length > 0) {
    await db
      .updateTable('command_jobs')
      .set({ state: 'failed', error: 'superseded by a later power command', finished_at: at })
      .where('id', 'in', ids)
      .execute();
    await db
      .insertInto('command_job_events')
      .values(ids.map((id) => ({ job_id: id, state: 'failed', at, detail: 'superseded by a later power command' })))
      .execute();
  }
  await sql`create unique index command_jobs_open_power on command_jobs (device_sn)
    where type in ('boot', 'shutdown') and state in ('queued', 'sent', 'acknowledged')`.execute(db);
  await db.schema.createIndex('command_jobs_finished').on('command_jobs').column('finished_at').execute();
  await db.schema.createIndex('setting_changes_command_job').on('setting_changes').column('command_job_id').execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropIndex('setting_changes_command_job').execute();
  await db.schema.dropIndex('command_jobs_finished').execute();
  await db.schema.dropIndex('command_jobs_open_power').execute();
}
