/**
 * The samples tables: one per device kind, keyed (device_id, ts), with the value columns below
 * between the key and `raw` (the frame's register blocks). Ingest fills the columns from a
 * decoded frame (telemetry/ingest/kinds.ts `sample()`); device charts and operation data read
 * them by name.
 */
import { type Kysely, type Selection, sql } from 'kysely';
import type { Database, DeviceKind } from '../db/schema.ts';

export type SampleTable = 'inverter_samples' | 'battery_samples' | 'meter_samples' | 'weather_samples';

export const sampleTables: Readonly<Record<DeviceKind, SampleTable>> = {
  inverter: 'inverter_samples',
  battery: 'battery_samples',
  meter: 'meter_samples',
  weather: 'weather_samples',
};

/** Value columns of each kind's samples table, in the order ingest writes them. */
export const sampleColumns: Readonly<Record<DeviceKind, readonly string[]>> = {
  inverter: ['power_w', 'pv_power_w', 'grid_power_w', 'load_power_w', 'battery_power_w', 'soc', 'temperature_c', 'pv_total_wh'],
  battery: ['power_w', 'voltage_v', 'current_a', 'soc', 'soh', 'temperature_max_c'],
  meter: ['power_w', 'import_total_wh', 'export_total_wh'],
  weather: ['irradiance_wm2', 'ambient_c', 'module_c', 'wind_ms'],
};

type Columns<T extends SampleTable> = readonly (keyof Database[T] & string)[];

/**
 * A device's samples with `from ≤ ts < to` (an index range of the key (device_id, ts)): `ts` and
 * the columns named, in the store's order or oldest first (`ordered`), only those where the
 * column `notNull` has a value.
 */
export function samplesIn<T extends SampleTable, C extends keyof Database[T] & string>(
  db: Kysely<Database>,
  table: T,
  deviceId: number,
  from: number,
  to: number,
  columns: readonly C[],
  opts: { ordered?: boolean; notNull?: C } = {},
): Promise<Selection<Database, T, 'ts' | C>[]> {
  let q = db
    .selectFrom(table as SampleTable)
    .select(['ts', ...(columns as unknown as Columns<'inverter_samples'>)])
    .where('device_id', '=', deviceId)
    .where('ts', '>=', from)
    .where('ts', '<', to);
  if (opts.notNull) q = q.where(opts.notNull as 'ts', 'is not', null);
  if (opts.ordered) q = q.orderBy('ts');
  return q.execute() as never;
}

/**
 * The inverter's PV counter (pv_total_wh) at or before `at` and not before `notBefore`, as a scalar
 * subquery: one seek on the key (device_id, ts), many per statement.
 */
export const pvCounterAtOrBefore = (deviceId: number, at: number, notBefore: number) =>
  sql`select s.pv_total_wh from inverter_samples s where s.device_id = ${deviceId} and s.ts <= ${at} and s.ts >= ${notBefore} and s.pv_total_wh is not null order by s.ts desc limit 1`;

/** The inverter's first PV counter reading with `after < ts ≤ through`, as a scalar subquery. */
export const pvCounterFirstIn = (deviceId: number, after: number, through: number) =>
  sql`select s.pv_total_wh from inverter_samples s where s.device_id = ${deviceId} and s.ts > ${after} and s.ts <= ${through} and s.pv_total_wh is not null order by s.ts limit 1`;

/**
 * A device's samples with `from ≤ ts < to`, oldest first: `ts` and the columns named at run time
 * (value columns, or `raw` for the register blocks).
 */
export async function sampleRows(
  db: Kysely<Database>,
  table: SampleTable,
  deviceId: number,
  columns: readonly string[],
  from: number,
  to: number,
): Promise<(Record<string, unknown> & { ts: number | string })[]> {
  const { rows } = await sql<Record<string, unknown> & { ts: number | string }>`
    select ${sql.join([sql.ref('ts'), ...columns.map((c) => sql.ref(c))])} from ${sql.table(table)}
    where device_id = ${deviceId} and ts >= ${from} and ts < ${to}
    order by ts`.execute(db);
  return rows;
}

// ——— operation data: pages, a reading and buckets of any samples table ———

const selected = (columns: readonly string[]) =>
  columns.length > 0 ? sql`, ${sql.join(columns.map((c) => sql.ref(c)))}` : sql``;

/**
 * A page of a device's samples (keyset on the key (device_id, ts), an index range wherever it
 * starts): `ts` and the columns of the rows with `from ≤ ts < to` and `ts > after`, oldest first,
 * at most `limit`.
 */
export async function samplesPage(
  db: Kysely<Database>,
  table: SampleTable,
  deviceId: number,
  columns: readonly string[],
  range: { from: number; to: number; after: number | null },
  limit: number,
): Promise<Record<string, unknown>[]> {
  const { from, to, after } = range;
  const lower = after !== null && after >= from ? sql`ts > ${after}` : sql`ts >= ${from}`;
  const { rows } = await sql<Record<string, unknown>>`select ts${selected(columns)} from ${sql.table(table)}
      where device_id = ${deviceId} and ${lower} and ts < ${to} order by ts limit ${limit}`.execute(db);
  return rows;
}

/** A device's newest sample at or before `at` and after `notBefore` (`ts` and the columns), or undefined. */
export async function sampleAtOrBefore(
  db: Kysely<Database>,
  table: SampleTable,
  deviceId: number,
  columns: readonly string[],
  at: number,
  notBefore: number,
): Promise<Record<string, unknown> | undefined> {
  const { rows } = await sql<Record<string, unknown>>`select ts${selected(columns)} from ${sql.table(table)}
      where device_id = ${deviceId} and ts <= ${at} and ts > ${notBefore} order by ts desc limit 1`.execute(db);
  return rows[0];
}

/** How many samples a device has with `from ≤ ts < to`. */
export async function sampleCount(
  db: Kysely<Database>,
  table: SampleTable,
  deviceId: number,
  from: number,
  to: number,
): Promise<number> {
  const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}
      where device_id = ${deviceId} and ts >= ${from} and ts < ${to}`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/**
 * A device's samples with `from ≤ ts < to` grouped by the store into buckets of `width` ms from
 * `from` (integer division of the offset): per bucket its first `t`, and per column i its
 * average `a{i}`, count `n{i}`, minimum `lo{i}` and maximum `hi{i}`, oldest bucket first.
 */
export async function sampleBuckets(
  db: Kysely<Database>,
  table: SampleTable,
  deviceId: number,
  columns: readonly string[],
  range: { from: number; to: number },
  width: number,
): Promise<Record<string, number | string | null>[]> {
  const aggregates = columns.map((column, i) => {
    const c = sql.ref(column);
    return sql`avg(${c}) as a${sql.raw(String(i))}, count(${c}) as n${sql.raw(String(i))}, min(${c}) as lo${sql.raw(String(i))}, max(${c}) as hi${sql.raw(String(i))}`;
  });
  const { rows } = await sql<Record<string, number | string | null>>`select min(ts) as t, ${sql.join(aggregates)}
    from ${sql.table(table)}
    where device_id = ${deviceId} and ts >= ${range.from} and ts < ${range.to}
    group by (ts - cast(${range.from} as bigint)) / cast(${width} as bigint)
    order by t`.execute(db);
  return rows;
}
