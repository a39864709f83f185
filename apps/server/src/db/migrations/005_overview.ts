/**
 * The plant overview and reports: the master meter a plant's grid import and export come from
 * (none: all its meters), uploaded power forecasts (`predicted/import`, shown against the day
 * curve), and the income of past plant-local days under the time-of-use method (computed once
 * from counter readings at the segment boundaries, dropped when the prices change).
 */
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was then
type Db = Kysely<any>;

export async function up(db: Db): Promise<void> {
  await db.schema.alterTable('plants').addColumn('master_meter_id', 'integer').execute();
  await db.schema
    .createTable('plant_forecast')
    .addColumn('plant_id', 'integer', (c) => c.notNull().references('plants.id').onDelete('cascade'))
    .addColumn('ts', 'bigint', (c) => c.notNull())
    .addColumn('power_w', 'double precision', (c) => c.notNull())
    .addColumn('imported_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('plant_forecast_pk', ['plant_id', 'ts'])
    .execute();
  await db.schema
    .createTable('plant_day_income')
    .addColumn('plant_id', 'integer', (c) => c.notNull().references('plants.id').onDelete('cascade'))
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('income', 'double precision', (c) => c.notNull())
    .addColumn('computed_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('plant_day_income_pk', ['plant_id', 'day'])
    .execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('plant_day_income').execute();
  await db.schema.dropTable('plant_forecast').execute();
  await db.schema.alterTable('plants').dropColumn('master_meter_id').execute();
}
