/**
 * Day rollups as the API reads them: energy of a day, month, year or all time, summed from day
 * rows (plant_day, device_day) — never from samples. Days are plant-local dates (YYYY-MM-DD, see
 * time/days.ts), so a month or a year here is the plant's own calendar month or year. Ingest
 * writes the rows (telemetry/ingest: rollups.ts, rollup-store.ts, plant-days.ts).
 */
import {
  CompiledQuery,
  type Expression,
  type ExpressionBuilder,
  type Kysely,
  PostgresAdapter,
  type SelectQueryBuilder,
  type SelectQueryBuilderWithLeftJoin,
  sql,
} from 'kysely';
import type { Database } from '../db/schema.ts';
import { localDay, monthDays, yearDays } from '../time/days.ts';

/** device_day columns filled from a cumulative counter (last − first of the day). */
export type EnergyColumn =
  | 'pv_wh'
  | 'load_wh'
  | 'grid_import_wh'
  | 'grid_export_wh'
  | 'charge_wh'
  | 'discharge_wh'
  | 'irradiation_whm2';
export const energyColumns: readonly EnergyColumn[] = [
  'pv_wh',
  'load_wh',
  'grid_import_wh',
  'grid_export_wh',
  'charge_wh',
  'discharge_wh',
  'irradiation_whm2',
];

export type EnergyPeriod = 'day' | 'month' | 'year' | 'total';

export interface EnergyTotals {
  pvWh: number;
  loadWh: number;
  gridImportWh: number;
  gridExportWh: number;
  chargeWh: number;
  dischargeWh: number;
  /** Highest day peak in the period. */
  peakPowerW: number | null;
  /** Day rows summed. */
  days: number;
}

export interface EnergyPoint extends EnergyTotals {
  /** YYYY-MM-DD (points of a month), YYYY-MM (of a year) or YYYY (of all time). */
  label: string;
}

const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;

/** First and last day (inclusive, as text) of the period around `anchorDay`; null for all time. */
export function periodDays(period: EnergyPeriod, anchorDay: string): { from: string; to: string } | null {
  if (!DAY_RE.test(anchorDay)) throw new RangeError(`anchor day must be YYYY-MM-DD, got "${anchorDay}"`);
  switch (period) {
    case 'day':
      return { from: anchorDay, to: anchorDay };
    case 'month':
      return monthDays(anchorDay);
    case 'year':
      return yearDays(anchorDay);
    case 'total':
      return null;
  }
}

/** Today in the plant's time zone: the anchor for "this month" and "this year". */
export const plantToday = (timezone: string, now: number = Date.now()) => localDay(timezone, now);

interface SumRow {
  pvWh: number | null;
  loadWh: number | null;
  gridImportWh: number | null;
  gridExportWh: number | null;
  chargeWh: number | null;
  dischargeWh: number | null;
  peakPowerW: number | null;
  days: number | string;
}

const selections = [
  sql<number | null>`sum(pv_wh)`.as('pvWh'),
  sql<number | null>`sum(load_wh)`.as('loadWh'),
  sql<number | null>`sum(grid_import_wh)`.as('gridImportWh'),
  sql<number | null>`sum(grid_export_wh)`.as('gridExportWh'),
  sql<number | null>`sum(charge_wh)`.as('chargeWh'),
  sql<number | null>`sum(discharge_wh)`.as('dischargeWh'),
  sql<number | null>`max(peak_power_w)`.as('peakPowerW'),
  sql<number | string>`count(*)`.as('days'),
];

const round = (wh: number | null) => Math.round((wh ?? 0) * 1000) / 1000;
const totals = (r: SumRow | undefined): EnergyTotals => ({
  pvWh: round(r?.pvWh ?? 0),
  loadWh: round(r?.loadWh ?? 0),
  gridImportWh: round(r?.gridImportWh ?? 0),
  gridExportWh: round(r?.gridExportWh ?? 0),
  chargeWh: round(r?.chargeWh ?? 0),
  dischargeWh: round(r?.dischargeWh ?? 0),
  peakPowerW: r?.peakPowerW ?? null,
  days: Number(r?.days ?? 0),
});

/** A plant's energy over the day, month, year (around `anchorDay`, plant-local) or all time. */
export async function plantEnergy(
  db: Kysely<Database>,
  plantId: number,
  period: EnergyPeriod,
  anchorDay: string,
): Promise<EnergyTotals> {
  const range = periodDays(period, anchorDay);
  let q = db.selectFrom('plant_day').where('plant_id', '=', plantId);
  if (range) q = q.where('day', '>=', range.from).where('day', '<=', range.to);
  return totals((await q.select(selections).executeTakeFirst()) as SumRow | undefined);
}

/**
 * One device's energy over the period (its own counters; meters count grid import/export), from
 * the day rows begun at or after `since` (its binding to its plant: earlier ones are an earlier owner's).
 */
export async function deviceEnergy(
  db: Kysely<Database>,
  deviceId: number,
  period: EnergyPeriod,
  anchorDay: string,
  since = 0,
): Promise<EnergyTotals> {
  const range = periodDays(period, anchorDay);
  let q = db.selectFrom('device_day').where('device_id', '=', deviceId).where('first_ts', '>=', since);
  if (range) q = q.where('day', '>=', range.from).where('day', '<=', range.to);
  return totals((await q.select(selections).executeTakeFirst()) as SumRow | undefined);
}

/**
 * A plant's energy chart: the days of the month, the months of the year, or the years of all
 * time around `anchorDay`. Only periods with day rows appear.
 */
export async function plantEnergySeries(
  db: Kysely<Database>,
  plantId: number,
  period: Exclude<EnergyPeriod, 'day'>,
  anchorDay: string,
): Promise<EnergyPoint[]> {
  const range = periodDays(period, anchorDay);
  const width = period === 'month' ? 10 : period === 'year' ? 7 : 4;
  const label = sql<string>`substr(day, 1, ${sql.lit(width)})`;
  let q = db.selectFrom('plant_day').where('plant_id', '=', plantId);
  if (range) q = q.where('day', '>=', range.from).where('day', '<=', range.to);
  const rows = await q
    .select([label.as('label'), ...selections])
    .groupBy(label)
    .orderBy(label)
    .execute();
  return rows.map((r) => ({ label: r.label, ...totals(r as unknown as SumRow) }));
}

export interface EnergyToDate {
  day: EnergyTotals;
  month: EnergyTotals;
  year: EnergyTotals;
  total: EnergyTotals;
  /** The plant's first day with a day row (null: none). */
  firstDay: string | null;
  /** Newest `updated_at` of the day rows before `anchorDay`, and how many there are: a version of the past. */
  pastUpdatedAt: number | null;
  pastDays: number;
}

/**
 * The day, month and year of `anchorDay` and all time in one statement (the realtime card): the
 * same figures as four `plantEnergy` calls. Four plain sums over the plant's day-row index range
 * (measured: half the time of one pass with CASE per period); the SQL text is made once per
 * dialect, as building it through Kysely cost several times running it.
 */
export async function plantEnergyToDate(db: Kysely<Database>, plantId: number, anchorDay: string): Promise<EnergyToDate> {
  const month = periodDays('month', anchorDay)!;
  const year = periodDays('year', anchorDay)!;
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const { rows } = await db.executeQuery<ToDateRow>(
    CompiledQuery.raw(toDateSql(postgres), [
      plantId,
      anchorDay,
      plantId,
      month.from,
      month.to,
      plantId,
      year.from,
      year.to,
      anchorDay,
      anchorDay,
      plantId,
    ]),
  );
  const byPeriod = new Map(rows.map((r) => [r.period, r]));
  const pick = (name: string): EnergyTotals => totals(byPeriod.get(name) as SumRow | undefined);
  const all = byPeriod.get('total');
  return {
    day: pick('day'),
    month: pick('month'),
    year: pick('year'),
    total: pick('total'),
    firstDay: all?.first_day ?? null,
    pastUpdatedAt: all?.past_updated_at === null || all?.past_updated_at === undefined ? null : Number(all.past_updated_at),
    pastDays: Number(all?.past_days ?? 0),
  };
}

type ToDateRow = SumRow & {
  period: string;
  first_day: string | null;
  past_updated_at: number | string | null;
  past_days: number | string | null;
};

const toDateText = new Map<boolean, string>();
function toDateSql(postgres: boolean): string {
  let text = toDateText.get(postgres);
  if (!text) {
    let n = 0;
    const p = () => (postgres ? `$${++n}` : '?');
    const sums =
      'sum(pv_wh) as "pvWh", sum(load_wh) as "loadWh", sum(grid_import_wh) as "gridImportWh", sum(grid_export_wh) as "gridExportWh",' +
      ' sum(charge_wh) as "chargeWh", sum(discharge_wh) as "dischargeWh", max(peak_power_w) as "peakPowerW", count(*) as "days"';
    const none =
      'cast(null as varchar(10)) as first_day, cast(null as bigint) as past_updated_at, cast(null as bigint) as past_days';
    text = [
      `select 'day' as period, ${sums}, ${none} from plant_day where plant_id = ${p()} and day = ${p()}`,
      `select 'month', ${sums}, ${none} from plant_day where plant_id = ${p()} and day >= ${p()} and day <= ${p()}`,
      `select 'year', ${sums}, ${none} from plant_day where plant_id = ${p()} and day >= ${p()} and day <= ${p()}`,
      `select 'total', ${sums}, min(day), max(case when day < ${p()} then updated_at end), count(case when day < ${p()} then 1 end)` +
        ` from plant_day where plant_id = ${p()}`,
    ].join(' union all ');
    toDateText.set(postgres, text);
  }
  return text;
}

// ——— day rows as lists and pages read them ———

/**
 * `q` (a select over devices) with each device's device_day row of `day` joined as `device_day`
 * (left join), counted from the device's binding to its plant on: a row begun earlier is an
 * earlier owner's. `day` is a plant-local date or an expression of one per row (time/sql.ts).
 */
export function joinDeviceDay<DB extends Database, TB extends keyof DB, O>(
  q: SelectQueryBuilder<DB, TB, O>,
  day: string | Expression<string>,
): SelectQueryBuilderWithLeftJoin<DB, TB, O, 'device_day'> {
  return (q as unknown as SelectQueryBuilder<Database, 'devices', O>).leftJoin('device_day', (join) =>
    join
      .onRef('device_day.device_id', '=', 'devices.id')
      .on('device_day.day', '=', day)
      .onRef('device_day.first_ts', '>=', 'devices.bound_at'),
  ) as never;
}

/** The joined day's PV energy (`joinDeviceDay`), 0 without a row: an order key. */
export const joinedDayPvOrZero = sql<number>`coalesce(device_day.pv_wh, 0)`;

/** One device's row of a day, from its binding (`since`) on; undefined when there is none. */
export function deviceDayRow(db: Kysely<Database>, deviceId: number, day: string, since: number) {
  return db
    .selectFrom('device_day')
    .select(['pv_wh', 'load_wh', 'grid_import_wh', 'grid_export_wh', 'charge_wh', 'discharge_wh'])
    .where('device_id', '=', deviceId)
    .where('day', '=', day)
    .where('first_ts', '>=', since)
    .executeTakeFirst();
}

/**
 * Each device's row of its own day (`days`: device id → plant-local day), from its binding on
 * (`boundAt`: device id → bound_at). One query for all of them.
 */
export async function devicesDayRows(
  db: Kysely<Database>,
  days: ReadonlyMap<number, string>,
  boundAt: ReadonlyMap<number, number>,
): Promise<Map<number, { pv_wh: number; grid_import_wh: number; grid_export_wh: number }>> {
  if (days.size === 0) return new Map();
  const rows = await db
    .selectFrom('device_day')
    .select(['device_id', 'day', 'first_ts', 'pv_wh', 'grid_import_wh', 'grid_export_wh'])
    .where('device_id', 'in', [...days.keys()])
    .where('day', 'in', [...new Set(days.values())])
    .execute();
  return new Map(
    rows
      .filter((d) => days.get(d.device_id) === d.day && Number(d.first_ts) >= boundAt.get(d.device_id)!)
      .map((d) => [d.device_id, d]),
  );
}

/**
 * One device's energy bars from its day rows since `since`: the days of the month, the months of
 * the year, or the years of all time around `anchorDay` (sums as the store returns them).
 */
export function deviceEnergyBars(
  db: Kysely<Database>,
  deviceId: number,
  period: Exclude<EnergyPeriod, 'day'>,
  anchorDay: string,
  since: number,
) {
  const range = periodDays(period, anchorDay);
  const width = period === 'month' ? 10 : period === 'year' ? 7 : 4;
  const label = sql<string>`substr(day, 1, ${sql.lit(width)})`;
  let q = db.selectFrom('device_day').where('device_id', '=', deviceId).where('first_ts', '>=', since);
  if (range) q = q.where('day', '>=', range.from).where('day', '<=', range.to);
  return q
    .select([
      label.as('label'),
      sql<number>`sum(pv_wh)`.as('pv'),
      sql<number>`sum(load_wh)`.as('load'),
      sql<number>`sum(grid_import_wh)`.as('gridImport'),
      sql<number>`sum(grid_export_wh)`.as('gridExport'),
      sql<number>`sum(charge_wh)`.as('charge'),
      sql<number>`sum(discharge_wh)`.as('discharge'),
      sql<number | null>`max(peak_power_w)`.as('peakPower'),
    ])
    .groupBy(label)
    .orderBy(label)
    .execute();
}

/** The energy of these plants' days from `from` to `to` (inclusive), one query: the report's rows. */
export function plantsDayRows(db: Kysely<Database>, plantIds: readonly number[], from: string, to: string) {
  return db
    .selectFrom('plant_day')
    .select([
      'plant_id',
      'day',
      'pv_wh',
      'load_wh',
      'grid_import_wh',
      'grid_export_wh',
      'charge_wh',
      'discharge_wh',
      'peak_power_w',
    ])
    .where('plant_id', 'in', plantIds)
    .where('day', '>=', from)
    .where('day', '<=', to)
    .execute();
}

/** A plant's generated and exported energy of its days from `from` to `to` (inclusive). */
export function plantDayExports(db: Kysely<Database>, plantId: number, from: string, to: string) {
  return db
    .selectFrom('plant_day')
    .select(['day', 'pv_wh', 'grid_export_wh'])
    .where('plant_id', '=', plantId)
    .where('day', '>=', from)
    .where('day', '<=', to)
    .execute();
}

/**
 * A plant's day rows from `from` to `to` (inclusive) as `pd`, for a module to join what it keeps
 * per plant day and select (`pd.day`, `pd.updated_at`: the day's version).
 */
export function plantDaysAs(db: Kysely<Database>, plantId: number, from: string, to: string) {
  return db
    .selectFrom('plant_day as pd')
    .where('pd.plant_id', '=', plantId)
    .where('pd.day', '>=', from)
    .where('pd.day', '<=', to);
}

/** A plant's PV energy of one day (undefined: no row). */
export async function plantDayPv(db: Kysely<Database>, plantId: number, day: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('plant_day')
    .select('pv_wh')
    .where('plant_id', '=', plantId)
    .where('day', '=', day)
    .executeTakeFirst();
  return row?.pv_wh;
}

/** A plant's day row version (`updated_at`: ingest bumps it with every stored sample of the day), as a subquery. */
export const plantDayVersion = (eb: ExpressionBuilder<Database, never>, plantId: number, day: string) =>
  eb.selectFrom('plant_day').select('updated_at').where('plant_id', '=', plantId).where('day', '=', day);

/** A version of a plant's period (null: all time): its day rows' newest `updated_at` and their count. */
export function plantPeriodVersion(db: Kysely<Database>, plantId: number, range: { from: string; to: string } | null) {
  let q = db
    .selectFrom('plant_day')
    .select((eb) => [eb.fn.max('updated_at').as('v'), eb.fn.countAll<number | string>().as('n')])
    .where('plant_id', '=', plantId);
  if (range) q = q.where('day', '>=', range.from).where('day', '<=', range.to);
  return q.executeTakeFirst();
}

/**
 * Each plant's total PV energy, its latest day with a row and that day's PV energy (the plant
 * list's columns): a grouped query over the plants' day rows, then their latest days' rows.
 */
export async function plantsLatestDay(
  db: Kysely<Database>,
  plantIds: readonly number[],
): Promise<Map<number, { total: number; day: string | null; today: number }>> {
  const out = new Map<number, { total: number; day: string | null; today: number }>();
  const days = await db
    .selectFrom('plant_day')
    .select((eb) => ['plant_id', eb.fn.sum<number>('pv_wh').as('total'), eb.fn.max('day').as('last_day')])
    .where('plant_id', 'in', plantIds)
    .groupBy('plant_id')
    .execute();
  for (const d of days) out.set(d.plant_id, { total: Number(d.total ?? 0), day: d.last_day, today: 0 });
  const lastDays = days.filter((d) => d.last_day !== null);
  if (lastDays.length > 0) {
    const rows = await db
      .selectFrom('plant_day')
      .select(['plant_id', 'day', 'pv_wh'])
      .where((eb) => eb.or(lastDays.map((d) => eb.and([eb('plant_id', '=', d.plant_id), eb('day', '=', d.last_day!)]))))
      .execute();
    for (const r of rows) out.get(r.plant_id)!.today = Number(r.pv_wh);
  }
  return out;
}
