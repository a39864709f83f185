/**
 * Remote-setting changes, the audit record of every write to a device's setting group:
 * `setting_changes` one row per job (who, when, which device, the values requested, read before
 * and read back after, its state and failure), `setting_batches` one row per batch (one group's
 * values to many devices), whose jobs point at it and keep the order the devices were named in.
 */
import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was then
type Db = Kysely<any>;

export async function up(db: Db): Promise<void> {
  await db.schema
    .createTable('setting_batches')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('family', 'varchar(16)', (c) => c.notNull())
    .addColumn('group_name', 'varchar(32)', (c) => c.notNull())
    .addColumn('requested', 'text', (c) => c.notNull())
    .addColumn('requested_by', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    .execute();
  await db.schema.createIndex('setting_batches_user').on('setting_batches').columns(['requested_by', 'created_at']).execute();

  await db.schema
    .createTable('setting_changes')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('batch_id', 'varchar(36)', (c) => c.references('setting_batches.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('device_sn', 'varchar(32)', (c) => c.notNull())
    .addColumn('family', 'varchar(16)', (c) => c.notNull())
    .addColumn('group_name', 'varchar(32)', (c) => c.notNull())
    .addColumn('kind', 'varchar(8)', (c) => c.notNull())
    .addColumn('revert_of', 'varchar(36)')
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('requested', 'text', (c) => c.notNull())
    .addColumn('before_values', 'text')
    .addColumn('after_values', 'text')
    .addColumn('error', 'varchar(255)')
    .addColumn('error_code', 'integer')
    .addColumn('command_job_id', 'varchar(64)')
    .addColumn('requested_by', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    .execute();
  await db.schema.createIndex('setting_changes_device').on('setting_changes').columns(['device_id', 'created_at']).execute();
  await db.schema.createIndex('setting_changes_batch').on('setting_changes').columns(['batch_id', 'position']).execute();
  await db.schema.createIndex('setting_changes_state').on('setting_changes').columns(['state', 'updated_at']).execute();
  // One running job per device: two at once would each read the other's values as "before".
  await sql`create unique index setting_changes_running on setting_changes (device_id)
    where state in ('reading', 'writing', 'verifying')`.execute(db);
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('setting_changes').execute();
  await db.schema.dropTable('setting_batches').execute();
}
