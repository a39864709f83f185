/**
 * Command jobs: every command to a gateway or one of its devices (boot, shutdown, debug, restart,
 * a setting switch, a group read or write) is a row here, the audit record of who asked what of
 * which device and how it ended; `command_job_events` holds each of its state changes with its time.
 */
import type { Kysely } from 'kysely';
import { idColumn } from './columns.ts';

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was then
type Db = Kysely<any>;

export async function up(db: Db): Promise<void> {
  await db.schema
    .createTable('command_jobs')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('gateway_sn', 'varchar(32)', (c) => c.notNull())
    .addColumn('device_sn', 'varchar(32)')
    .addColumn('batch_id', 'varchar(64)')
    .addColumn('type', 'varchar(16)', (c) => c.notNull())
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('reply', 'text')
    .addColumn('error', 'varchar(200)')
    .addColumn('requested_by', 'integer', (c) => c.notNull())
    .addColumn('timeout_ms', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('sent_at', 'bigint')
    .addColumn('last_sent_at', 'bigint')
    .addColumn('sends', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('acknowledged_at', 'bigint')
    .addColumn('finished_at', 'bigint')
    .execute();
  // The dispatcher and the sweeper: open jobs by state, a gateway's in order.
  await db.schema.createIndex('command_jobs_open').on('command_jobs').columns(['state', 'gateway_sn', 'created_at']).execute();
  await db.schema.createIndex('command_jobs_device').on('command_jobs').columns(['device_sn', 'created_at']).execute();
  await db.schema.createIndex('command_jobs_batch').on('command_jobs').column('batch_id').execute();

  await idColumn(db, db.schema.createTable('command_job_events'))
    .addColumn('job_id', 'varchar(64)', (c) => c.notNull().references('command_jobs.id').onDelete('cascade'))
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('detail', 'varchar(200)')
    .execute();
  await db.schema.createIndex('command_job_events_job').on('command_job_events').columns(['job_id', 'id']).execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('command_job_events').execute();
  await db.schema.dropTable('command_jobs').execute();
}
