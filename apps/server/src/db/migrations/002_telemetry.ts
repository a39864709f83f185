/**
 * Gateways, devices, telemetry samples per device kind, latest values, day rollups, events.
 * Samples keep the raw register blocks (`raw`, JSON [[fc, addr, hex], …]) so any value can be
 * decoded again later; the columns are the values that charts and rollups read.
 */
import { type Kysely, sql } from 'kysely';
import { idColumn } from './columns.ts';

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was then
type Db = Kysely<any>;

export async function up(db: Db): Promise<void> {
  await idColumn(db, db.schema.createTable('gateways'))
    .addColumn('sn', 'varchar(32)', (c) => c.notNull().unique())
    .addColumn('secret_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('claim_key_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('alias', 'varchar(64)')
    .addColumn('plant_id', 'integer', (c) => c.references('plants.id'))
    .addColumn('company_id', 'integer', (c) => c.references('companies.id'))
    .addColumn('sw_version', 'varchar(32)')
    .addColumn('hw_version', 'varchar(32)')
    .addColumn('comm_type', 'varchar(16)')
    .addColumn('rssi', 'integer')
    .addColumn('online', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_online_at', 'bigint')
    .addColumn('last_seen_at', 'bigint')
    .addColumn('upload_interval_s', 'integer', (c) => c.notNull().defaultTo(300))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('deleted_at', 'bigint')
    .execute();
  await db.schema.createIndex('gateways_plant').on('gateways').column('plant_id').execute();
  await db.schema.createIndex('gateways_company').on('gateways').column('company_id').execute();

  await idColumn(db, db.schema.createTable('devices'))
    .addColumn('sn', 'varchar(32)', (c) => c.notNull().unique())
    .addColumn('gateway_id', 'integer', (c) => c.notNull().references('gateways.id'))
    .addColumn('plant_id', 'integer', (c) => c.references('plants.id'))
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('protocol_id', 'varchar(48)', (c) => c.notNull())
    .addColumn('unit', 'integer')
    .addColumn('alias', 'varchar(64)')
    .addColumn('device_type', 'integer')
    .addColumn('rated_power_w', 'double precision')
    .addColumn('master_device_id', 'integer', (c) => c.references('devices.id'))
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('offline'))
    .addColumn('last_ts', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('deleted_at', 'bigint')
    .execute();
  await db.schema.createIndex('devices_gateway').on('devices').column('gateway_id').execute();
  await db.schema.createIndex('devices_plant_kind').on('devices').columns(['plant_id', 'kind']).execute();

  const samples = (name: string) =>
    db.schema
      .createTable(name)
      .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id'))
      .addColumn('ts', 'bigint', (c) => c.notNull());
  await samples('inverter_samples')
    .addColumn('power_w', 'double precision')
    .addColumn('pv_power_w', 'double precision')
    .addColumn('grid_power_w', 'double precision')
    .addColumn('load_power_w', 'double precision')
    .addColumn('battery_power_w', 'double precision')
    .addColumn('soc', 'double precision')
    .addColumn('temperature_c', 'double precision')
    .addColumn('pv_total_wh', 'double precision')
    .addColumn('raw', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('inverter_samples_pk', ['device_id', 'ts'])
    .execute();
  await samples('battery_samples')
    .addColumn('power_w', 'double precision')
    .addColumn('voltage_v', 'double precision')
    .addColumn('current_a', 'double precision')
    .addColumn('soc', 'double precision')
    .addColumn('soh', 'double precision')
    .addColumn('temperature_max_c', 'double precision')
    .addColumn('raw', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('battery_samples_pk', ['device_id', 'ts'])
    .execute();
  await samples('meter_samples')
    .addColumn('power_w', 'double precision')
    .addColumn('import_total_wh', 'double precision')
    .addColumn('export_total_wh', 'double precision')
    .addColumn('raw', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('meter_samples_pk', ['device_id', 'ts'])
    .execute();
  await samples('weather_samples')
    .addColumn('irradiance_wm2', 'double precision')
    .addColumn('ambient_c', 'double precision')
    .addColumn('module_c', 'double precision')
    .addColumn('wind_ms', 'double precision')
    .addColumn('raw', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('weather_samples_pk', ['device_id', 'ts'])
    .execute();

  await db.schema
    .createTable('device_latest')
    .addColumn('device_id', 'integer', (c) => c.primaryKey().references('devices.id'))
    .addColumn('ts', 'bigint', (c) => c.notNull())
    .addColumn('values', 'text', (c) => c.notNull())
    .addColumn('faults', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  // Day rollups: `day` is the plant's local date (YYYY-MM-DD). Energy = last − first of the
  // cumulative counters seen that day (`counters` keeps both ends per counter).
  await db.schema
    .createTable('device_day')
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id'))
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('pv_wh', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('load_wh', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('grid_import_wh', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('grid_export_wh', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('charge_wh', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('discharge_wh', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('irradiation_whm2', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('peak_power_w', 'double precision')
    .addColumn('min_soc', 'double precision')
    .addColumn('max_soc', 'double precision')
    .addColumn('counters', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('first_ts', 'bigint', (c) => c.notNull())
    .addColumn('last_ts', 'bigint', (c) => c.notNull())
    .addColumn('samples', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('device_day_pk', ['device_id', 'day'])
    .execute();
  await db.schema
    .createTable('plant_day')
    .addColumn('plant_id', 'integer', (c) => c.notNull().references('plants.id'))
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('pv_wh', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('load_wh', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('grid_import_wh', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('grid_export_wh', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('charge_wh', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('discharge_wh', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('peak_power_w', 'double precision')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('plant_day_pk', ['plant_id', 'day'])
    .execute();

  await idColumn(db, db.schema.createTable('events'))
    .addColumn('plant_id', 'integer', (c) => c.references('plants.id'))
    .addColumn('gateway_id', 'integer', (c) => c.references('gateways.id'))
    .addColumn('device_id', 'integer', (c) => c.references('devices.id'))
    .addColumn('sn', 'varchar(32)', (c) => c.notNull())
    .addColumn('source', 'varchar(8)', (c) => c.notNull())
    .addColumn('code', 'varchar(48)', (c) => c.notNull())
    .addColumn('level', 'varchar(8)', (c) => c.notNull())
    .addColumn('text_en', 'varchar(255)', (c) => c.notNull())
    .addColumn('text_es', 'varchar(255)', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('ended_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  // One open event per condition: a second "start" of the same condition is a no-op.
  await sql`create unique index events_open_condition on events (sn, code) where ended_at is null`.execute(db);
  await db.schema.createIndex('events_plant_started').on('events').columns(['plant_id', 'started_at']).execute();
  await db.schema.createIndex('events_device_started').on('events').columns(['device_id', 'started_at']).execute();
}

export async function down(db: Db): Promise<void> {
  for (const t of [
    'events',
    'plant_day',
    'device_day',
    'device_latest',
    'weather_samples',
    'meter_samples',
    'battery_samples',
    'inverter_samples',
    'devices',
    'gateways',
  ]) {
    await db.schema.dropTable(t).execute();
  }
}
