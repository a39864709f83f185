/**
 * Plant fields missing from 001 (commissioning date, valuation and prices, pictures,
 * alias, investment, contacts, income) and the plant's latest values: current power, the
 * energy of its latest local day, total energy and the time of the newest data. The latest
 * values are kept on the row (like device_latest for a device) so the plant list filters,
 * sorts and pages over 10,000 plants with one single-table query; `refreshPlantSummary`
 * (energy/plant-summary.ts) recomputes them from device_latest and plant_day.
 */
import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was then
type Db = Kysely<any>;

type ColumnType =
  | 'varchar(10)'
  | 'varchar(16)'
  | 'varchar(32)'
  | 'varchar(64)'
  | 'varchar(255)'
  | 'double precision'
  | 'bigint'
  | 'text';
const columns: Array<[string, ColumnType, (string | number)?]> = [
  ['commissioning_date', 'varchar(10)'],
  ['valuation_method', 'varchar(16)', 'constant'],
  ['price', 'double precision'],
  // JSON [{ start: 'HH:mm', end: 'HH:mm', price }] for the time-of-use method.
  ['price_segments', 'text', '[]'],
  ['picture_url', 'varchar(255)'],
  ['thumbnail_url', 'varchar(255)'],
  ['alias', 'varchar(64)'],
  ['total_investment', 'double precision'],
  ['contact_name', 'varchar(64)'],
  ['contact_phone', 'varchar(32)'],
  // Manual income adjustment added to the computed income.
  ['income_total', 'double precision'],
  // Latest values.
  ['power_w', 'double precision'],
  ['energy_day', 'varchar(10)'],
  ['energy_today_wh', 'double precision', 0],
  ['energy_total_wh', 'double precision', 0],
  ['last_data_at', 'bigint'],
];

export async function up(db: Db): Promise<void> {
  // One column per statement: SQLite's ALTER TABLE adds one at a time.
  for (const [name, type, fallback] of columns) {
    await db.schema
      .alterTable('plants')
      .addColumn(name, type, (c) => (fallback === undefined ? c : c.notNull().defaultTo(fallback)))
      .execute();
  }
  // The list's default order (newest first) walks this index; the others serve sorts and counts.
  await db.schema.createIndex('plants_created').on('plants').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('plants_status').on('plants').column('status').execute();
  // Open alarms per plant for the list's alarm column.
  await db.schema
    .createIndex('events_plant_open')
    .on('events')
    .column('plant_id')
    .where(sql.ref('ended_at'), 'is', null)
    .execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropIndex('events_plant_open').execute();
  for (const index of ['plants_status', 'plants_created']) await db.schema.dropIndex(index).execute();
  for (const [name] of [...columns].reverse()) await db.schema.alterTable('plants').dropColumn(name).execute();
}
