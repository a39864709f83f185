/**
 * Demand response (OpenADR 3 VEN): the programmes read from the VTN, users' enrolments and their
 * devices, the VTN's events, opt-outs, the battery commands each event became, what the VEN
 * must still send (reports) or process (notifications), its registration state and the lease
 * that makes one process the VEN's upkeep leader.
 */
import type { Kysely } from 'kysely';
import { idColumn } from './columns.ts';

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was then
type Db = Kysely<any>;

const address = (prefix: string) =>
  ['country', 'region', 'locality', 'extended', 'street', 'postal'].map((f) => `${prefix}_${f}`);

export async function up(db: Db): Promise<void> {
  await db.schema
    .createTable('dr_programs')
    .addColumn('id', 'varchar(128)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('seen_at', 'bigint', (c) => c.notNull())
    .addColumn('deleted_at', 'bigint')
    .execute();

  let enrollments = idColumn(db, db.schema.createTable('dr_enrollments'))
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('program_id', 'varchar(128)', (c) => c.notNull())
    .addColumn('program_name', 'varchar(128)', (c) => c.notNull())
    .addColumn('email', 'varchar(254)', (c) => c.notNull())
    .addColumn('first_name', 'varchar(64)', (c) => c.notNull())
    .addColumn('last_name', 'varchar(64)', (c) => c.notNull());
  for (const col of [...address('service'), ...address('mailing')]) enrollments = enrollments.addColumn(col, 'varchar(128)');
  await enrollments
    .addColumn('source_account', 'varchar(32)', (c) => c.notNull())
    .addColumn('utility_account', 'varchar(16)', (c) => c.notNull())
    .addColumn('station_id', 'integer')
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('terms_accepted_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('dr_enrollments_user').on('dr_enrollments').columns(['user_id', 'id']).execute();
  await db.schema.createIndex('dr_enrollments_account').on('dr_enrollments').columns(['program_id', 'utility_account']).execute();

  await idColumn(db, db.schema.createTable('dr_enrollment_devices'))
    .addColumn('enrollment_id', 'integer', (c) => c.notNull())
    .addColumn('device_id', 'integer', (c) => c.notNull())
    .addColumn('sn', 'varchar(32)', (c) => c.notNull())
    .addColumn('manufacturer', 'varchar(64)', (c) => c.notNull())
    .addColumn('model', 'varchar(64)', (c) => c.notNull())
    .addColumn('install_date', 'varchar(10)')
    .addColumn('charge_w', 'double precision', (c) => c.notNull())
    .addColumn('discharge_w', 'double precision', (c) => c.notNull())
    .addColumn('storage_wh', 'double precision', (c) => c.notNull())
    .addColumn('resource_id', 'varchar(128)')
    .addColumn('added_at', 'bigint', (c) => c.notNull())
    .addColumn('removed_at', 'bigint')
    .execute();
  await db.schema.createIndex('dr_enrollment_devices_enrollment').on('dr_enrollment_devices').column('enrollment_id').execute();
  await db.schema.createIndex('dr_enrollment_devices_device').on('dr_enrollment_devices').column('device_id').execute();

  await idColumn(db, db.schema.createTable('dr_events'))
    .addColumn('vtn_id', 'varchar(128)', (c) => c.notNull().unique())
    .addColumn('program_id', 'varchar(128)', (c) => c.notNull())
    .addColumn('name', 'varchar(128)')
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('start_ms', 'bigint')
    .addColumn('end_ms', 'bigint')
    .addColumn('modified', 'varchar(64)')
    .addColumn('cancelled_at', 'bigint')
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('reported_at', 'bigint')
    .execute();
  await db.schema.createIndex('dr_events_program').on('dr_events').columns(['program_id', 'start_ms']).execute();

  await db.schema
    .createTable('dr_optouts')
    .addColumn('event_id', 'integer', (c) => c.notNull())
    .addColumn('enrollment_id', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('dr_optouts_pk', ['event_id', 'enrollment_id'])
    .execute();

  await idColumn(db, db.schema.createTable('dr_dispatches'))
    .addColumn('event_id', 'integer', (c) => c.notNull())
    .addColumn('enrollment_device_id', 'integer', (c) => c.notNull())
    .addColumn('device_id', 'integer', (c) => c.notNull())
    .addColumn('device_sn', 'varchar(32)', (c) => c.notNull())
    .addColumn('interval_id', 'integer', (c) => c.notNull())
    .addColumn('start_ms', 'bigint', (c) => c.notNull())
    .addColumn('end_ms', 'bigint', (c) => c.notNull())
    .addColumn('action', 'varchar(16)', (c) => c.notNull())
    .addColumn('target_w', 'double precision', (c) => c.notNull())
    .addColumn('setting_group', 'varchar(32)')
    .addColumn('sent_values', 'text')
    .addColumn('previous_values', 'text')
    .addColumn('job_id', 'varchar(64)')
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('reason', 'varchar(255)')
    .addColumn('claimed_until', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('dr_dispatches_due').on('dr_dispatches').columns(['state', 'start_ms']).execute();
  await db.schema.createIndex('dr_dispatches_event').on('dr_dispatches').columns(['event_id', 'device_id']).execute();

  await idColumn(db, db.schema.createTable('dr_outbox'))
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('dedupe_key', 'varchar(255)', (c) => c.notNull().unique())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_at', 'bigint', (c) => c.notNull())
    .addColumn('last_error', 'varchar(500)')
    .addColumn('sent_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('dr_outbox_due').on('dr_outbox').columns(['sent_at', 'next_at']).execute();

  await idColumn(db, db.schema.createTable('dr_inbox'))
    .addColumn('object_type', 'varchar(16)', (c) => c.notNull())
    .addColumn('operation', 'varchar(16)', (c) => c.notNull())
    .addColumn('object_id', 'varchar(128)')
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('verified', 'integer', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_at', 'bigint', (c) => c.notNull())
    .addColumn('last_error', 'varchar(500)')
    .addColumn('processed_at', 'bigint')
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('dr_inbox_due').on('dr_inbox').columns(['processed_at', 'next_at']).execute();

  await db.schema
    .createTable('dr_state')
    .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('holder', 'varchar(128)')
    .addColumn('expires_at', 'bigint')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Db): Promise<void> {
  for (const t of [
    'dr_state',
    'dr_inbox',
    'dr_outbox',
    'dr_dispatches',
    'dr_optouts',
    'dr_events',
    'dr_enrollment_devices',
    'dr_enrollments',
    'dr_programs',
  ])
    await db.schema.dropTable(t).execute();
}
