/**
 * Day rollups as the API reads them: energy of a day, month, year or all time, summed from day
 * rows (plant_day, device_day) — never from samples. Days are plant-local dates (YYYY-MM-DD, see
 * time/days.ts), so a month or a year here is the plant's own calendar month or year. Ingest
 * writes the rows (telemetry/ingest: rollups.ts, rollup-store.ts, plant-days.ts).
 */
import { CompiledQuery, type Kysely, PostgresAdapter, sql } from 'kysely';
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
