/**
 * Energy of a day, month, year or all time, summed from day rows (plant_day, device_day) — never
 * from samples. Days are plant-local dates (YYYY-MM-DD), so a month or a year here is the
 * plant's own calendar month or year.
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { localDay } from './rollups.ts';

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
      return { from: `${anchorDay.slice(0, 7)}-01`, to: `${anchorDay.slice(0, 7)}-31` };
    case 'year':
      return { from: `${anchorDay.slice(0, 4)}-01-01`, to: `${anchorDay.slice(0, 4)}-12-31` };
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

/** One device's energy over the period (its own counters; meters count grid import/export). */
export async function deviceEnergy(
  db: Kysely<Database>,
  deviceId: number,
  period: EnergyPeriod,
  anchorDay: string,
): Promise<EnergyTotals> {
  const range = periodDays(period, anchorDay);
  let q = db.selectFrom('device_day').where('device_id', '=', deviceId);
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
