/**
 * Remote firmware upgrades. `upgrade_rollouts`: one per upgrade request (a single device's too):
 * the firmware, the device kind, the waves (a canary, then waves of a chosen size), the failure
 * threshold that pauses it, its state and why it paused; `lease_until` is the claim of the runner
 * working on it. `upgrade_devices`: one per device of a rollout, its wave and its upgrade state
 * with the command job behind it. `command_jobs` gains the progress a device reports while a long
 * command runs (percent and stage).
 */
import type { Kysely } from 'kysely';
import { idColumn } from './columns.ts';

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was then
type Db = Kysely<any>;

export async function up(db: Db): Promise<void> {
  await db.schema.alterTable('command_jobs').addColumn('progress', 'integer').execute();
  await db.schema.alterTable('command_jobs').addColumn('stage', 'varchar(16)').execute();

  await db.schema
    .createTable('upgrade_rollouts')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('firmware_id', 'integer', (c) => c.notNull())
    .addColumn('device_kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('canary_size', 'integer', (c) => c.notNull())
    .addColumn('wave_size', 'integer', (c) => c.notNull())
    .addColumn('failure_threshold', 'integer', (c) => c.notNull())
    .addColumn('waves', 'integer', (c) => c.notNull())
    .addColumn('current_wave', 'integer', (c) => c.notNull().defaultTo(-1))
    .addColumn('pause_reason', 'varchar(200)')
    .addColumn('paused_wave', 'integer')
    .addColumn('requested_by', 'integer', (c) => c.notNull())
    .addColumn('lease_until', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    .execute();
  await db.schema.createIndex('upgrade_rollouts_state').on('upgrade_rollouts').columns(['state', 'lease_until']).execute();
  await db.schema.createIndex('upgrade_rollouts_firmware').on('upgrade_rollouts').columns(['firmware_id', 'state']).execute();

  await idColumn(db, db.schema.createTable('upgrade_devices'))
    .addColumn('rollout_id', 'varchar(64)', (c) => c.notNull().references('upgrade_rollouts.id').onDelete('cascade'))
    .addColumn('device_sn', 'varchar(32)', (c) => c.notNull())
    .addColumn('device_kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('gateway_sn', 'varchar(32)', (c) => c.notNull())
    .addColumn('plant_id', 'integer')
    .addColumn('wave', 'integer', (c) => c.notNull())
    .addColumn('state', 'varchar(20)', (c) => c.notNull())
    .addColumn('progress', 'integer')
    .addColumn('from_version', 'varchar(40)')
    .addColumn('error', 'varchar(200)')
    .addColumn('job_id', 'varchar(64)')
    .addColumn('abort_job_id', 'varchar(64)')
    .addColumn('log_id', 'integer')
    .addColumn('started_at', 'bigint')
    .addColumn('flashed_at', 'bigint')
    .addColumn('finished_at', 'bigint')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('upgrade_devices_rollout').on('upgrade_devices').columns(['rollout_id', 'wave', 'state']).execute();
  await db.schema.createIndex('upgrade_devices_device').on('upgrade_devices').columns(['device_sn', 'id']).execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('upgrade_devices').execute();
  await db.schema.dropTable('upgrade_rollouts').execute();
  await db.schema.alterTable('command_jobs').dropColumn('stage').execute();
  await db.schema.alterTable('command_jobs').dropColumn('progress').execute();
}
