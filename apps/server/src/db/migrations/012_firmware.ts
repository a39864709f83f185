/**
 * Firmware images and the maintenance log.
 * `firmware`: one row per uploaded image (gateway or inverter), its product fields, version, size,
 * SHA-256 of its bytes (the blob's name in the data folder) and the server's Ed25519 signature of
 * that digest. `maintenance_log`: one row per maintenance action on a device (an upgrade, a debug
 * session): who, when, which device and plant, the command job behind it and how it ended.
 */
import type { Kysely } from 'kysely';
import { idColumn } from './columns.ts';

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was then
type Db = Kysely<any>;

export async function up(db: Db): Promise<void> {
  await idColumn(db, db.schema.createTable('firmware'))
    .addColumn('type', 'varchar(16)', (c) => c.notNull())
    .addColumn('product_name', 'varchar(64)', (c) => c.notNull())
    .addColumn('epn', 'varchar(64)')
    .addColumn('brand', 'varchar(64)')
    .addColumn('hardware_version', 'varchar(64)')
    .addColumn('compatible_software', 'varchar(64)')
    .addColumn('upgrade_mode', 'varchar(8)', (c) => c.notNull())
    .addColumn('file_name', 'varchar(40)', (c) => c.notNull())
    .addColumn('version', 'varchar(40)', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
    .addColumn('signature', 'varchar(128)', (c) => c.notNull())
    .addColumn('change_log', 'text')
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_by', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('firmware_file_name').on('firmware').column('file_name').unique().execute();
  await db.schema.createIndex('firmware_product').on('firmware').columns(['type', 'product_name', 'created_at']).execute();

  await idColumn(db, db.schema.createTable('maintenance_log'))
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('device_sn', 'varchar(32)', (c) => c.notNull())
    .addColumn('gateway_sn', 'varchar(32)')
    .addColumn('plant_id', 'integer')
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('job_id', 'varchar(64)')
    .addColumn('detail', 'text', (c) => c.notNull())
    .addColumn('result', 'varchar(16)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    .execute();
  await db.schema.createIndex('maintenance_log_device').on('maintenance_log').columns(['device_sn', 'created_at']).execute();
  await db.schema.createIndex('maintenance_log_plant').on('maintenance_log').columns(['plant_id', 'created_at']).execute();
  await db.schema.createIndex('maintenance_log_job').on('maintenance_log').column('job_id').execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('maintenance_log').execute();
  await db.schema.dropTable('firmware').execute();
}
