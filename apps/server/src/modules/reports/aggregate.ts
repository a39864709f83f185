/**
 * The energy report of selected plants (`plant/energy/aggregate`, .xlsx): sheet "Summary", one
 * row per plant over the range, and sheet "Daily", one row per plant and plant-local day.
 *
 * Rules: at most REPORT_MAX_PLANTS distinct ids (duplicates ignored); startDate ≤ endDate,
 * at most 90 days counting both ends; endDate at most a day after the latest plant-local
 * "today" among the plants (a browser may already be in tomorrow). Any id the caller cannot
 * see refuses the whole request with 700.
 *
 * Values come from the day rollups (energy/day-rollups.ts `plantsDayRows`), read for all plants in one query. A day
 * without a row is "no data" and its cells stay blank; the summary sums the days that have
 * data (blank when none has), and counts them. Income comes from `dayIncomes` of
 * modules/plant-energy (blank when the plant has no price, and on days without data); each row
 * carries its plant's currency, and plants are never summed across currencies.
 */
import { ErrorCode, type Language, limits } from '@sunfleet/contracts';
import type { Caller } from '../../access/caller.ts';
import type { Db } from '../../db/index.ts';
import type { Plant } from '../../db/schema.ts';
import { plantsDayRows } from '../../energy/day-rollups.ts';
import { fail } from '../../http/errors.ts';
import { addDays, daysBetween, isCalendarDay, localDay } from '../../time/index.ts';
import { plantDayIncomes } from './incomes.ts';
import { visiblePlantsByIds } from './reports.repo.ts';
import { REPORT_MAX_PLANTS, texts } from './texts.ts';
import { kwh, NUM, XlsxWriter } from './xlsx.ts';

export interface AggregateQuery {
  plantIds: string;
  startDate: string;
  endDate: string;
}

interface DayValues {
  pv: number;
  load: number;
  gridImport: number;
  gridExport: number;
  charge: number;
  discharge: number;
  peak: number | null;
}

/** The largest id an integer column holds. */
export const MAX_ID = 2_147_483_647;

const ENERGY_KEYS = ['pv', 'load', 'gridImport', 'gridExport', 'charge', 'discharge'] as const;

/** Distinct ids of a `plantIds` list, in first-seen order. */
export const parsePlantIds = (list: string) => [...new Set(list.split(',').map(Number))];

/** Check the query, the caller's sight of every plant and the end date; the plants, or a business error. */
async function checkRequest(
  db: Db,
  caller: Caller,
  q: AggregateQuery,
  lan: Language,
): Promise<{ ids: number[]; plants: Plant[] }> {
  const t = texts(lan);
  const ids = parsePlantIds(q.plantIds);
  if (ids.length > REPORT_MAX_PLANTS) fail(ErrorCode.validation, t.tooManyPlants);
  if (!isCalendarDay(q.startDate)) fail(ErrorCode.validation, t.notADate('startDate'));
  if (!isCalendarDay(q.endDate)) fail(ErrorCode.validation, t.notADate('endDate'));
  const span = daysBetween(q.startDate, q.endDate);
  if (span < 1) fail(ErrorCode.validation, t.order);
  if (span > limits.dateRangeDays) fail(ErrorCode.validation, t.tooLong(span));

  // An id past the integer column's range names no plant (and PostgreSQL would refuse the query).
  if (ids.some((id) => id > MAX_ID)) fail(ErrorCode.plantMissing);
  const plants = await visiblePlantsByIds(db, caller, ids);
  if (plants.length !== ids.length) fail(ErrorCode.plantMissing);

  const latestToday = plants.map((p) => localDay(p.timezone)).reduce((a, b) => (a > b ? a : b));
  const maxEnd = addDays(latestToday, 1);
  if (q.endDate > maxEnd) fail(ErrorCode.validation, t.future(maxEnd));
  return { ids, plants };
}

/** Build the report's .xlsx (after every check). */
export async function energyReport(
  db: Db,
  caller: Caller,
  q: AggregateQuery,
  lan: Language,
): Promise<{ bytes: Buffer; filename: string }> {
  const { ids, plants } = await checkRequest(db, caller, q, lan);
  const t = texts(lan);

  // Every plant's days in one query.
  const rows = await plantsDayRows(db, ids, q.startDate, q.endDate);
  const byPlant = new Map<number, Map<string, DayValues>>();
  for (const r of rows) {
    let days = byPlant.get(r.plant_id);
    if (!days) {
      days = new Map();
      byPlant.set(r.plant_id, days);
    }
    days.set(r.day, {
      pv: Number(r.pv_wh),
      load: Number(r.load_wh),
      gridImport: Number(r.grid_import_wh),
      gridExport: Number(r.grid_export_wh),
      charge: Number(r.charge_wh),
      discharge: Number(r.discharge_wh),
      peak: r.peak_power_w === null ? null : Number(r.peak_power_w),
    });
  }
  const incomes = await plantDayIncomes(db, plants, q.startDate, q.endDate);
  // No data, no income: a day without a row stays blank like its energy.
  const incomeOf = (plantId: number, day: string) =>
    byPlant.get(plantId)?.has(day) ? (incomes.get(plantId)?.get(day) ?? null) : null;

  const days: string[] = [];
  for (let d = q.startDate; d <= q.endDate; d = addDays(d, 1)) days.push(d);
  const collator = new Intl.Collator(lan, { sensitivity: 'base', numeric: true });
  const ordered = [...plants].sort((a, b) => collator.compare(a.name, b.name) || a.id - b.id);

  const title = t.energyTitle(q.startDate, q.endDate);
  const xlsx = new XlsxWriter(title);
  const summary = xlsx.sheet(t.summarySheet, title, [
    { header: t.plant, width: 32 },
    { header: t.timezone, width: 20 },
    { header: t.capacity, width: 14, numFmt: NUM },
    { header: t.daysWithData, width: 12 },
    { header: t.generation, width: 16, numFmt: NUM },
    { header: t.consumption, width: 16, numFmt: NUM },
    { header: t.gridImport, width: 16, numFmt: NUM },
    { header: t.gridExport, width: 16, numFmt: NUM },
    { header: t.charge, width: 16, numFmt: NUM },
    { header: t.discharge, width: 16, numFmt: NUM },
    { header: t.income, width: 14, numFmt: NUM },
    { header: t.currency, width: 10 },
    { header: t.fullLoadHours, width: 16, numFmt: NUM },
  ]);
  for (const plant of ordered) {
    const own = byPlant.get(plant.id);
    const sums = { pv: 0, load: 0, gridImport: 0, gridExport: 0, charge: 0, discharge: 0 };
    let income: number | null = null;
    for (const [day, v] of own ?? []) {
      for (const k of ENERGY_KEYS) sums[k] += v[k];
      const i = incomeOf(plant.id, day);
      if (i !== null) income = (income ?? 0) + i;
    }
    const withData = own?.size ?? 0;
    const capacity = Number(plant.capacity);
    await summary.addRow([
      plant.name,
      plant.timezone,
      capacity,
      withData,
      ...ENERGY_KEYS.map((k) => (withData ? kwh(sums[k]) : null)),
      income,
      plant.currency,
      withData && capacity > 0 ? sums.pv / 1000 / capacity : null,
    ]);
  }

  const daily = xlsx.sheet(t.dailySheet, title, [
    { header: t.plant, width: 32 },
    { header: t.date, width: 12, numFmt: 'yyyy-mm-dd' },
    { header: t.generation, width: 16, numFmt: NUM },
    { header: t.consumption, width: 16, numFmt: NUM },
    { header: t.gridImport, width: 16, numFmt: NUM },
    { header: t.gridExport, width: 16, numFmt: NUM },
    { header: t.charge, width: 16, numFmt: NUM },
    { header: t.discharge, width: 16, numFmt: NUM },
    { header: t.peakPower, width: 14, numFmt: NUM },
    { header: t.income, width: 14, numFmt: NUM },
    { header: t.currency, width: 10 },
  ]);
  for (const plant of ordered) {
    const own = byPlant.get(plant.id);
    for (const day of days) {
      const v = own?.get(day);
      await daily.addRow([
        plant.name,
        new Date(`${day}T00:00:00Z`),
        ...ENERGY_KEYS.map((k) => (v ? kwh(v[k]) : null)),
        v?.peak == null ? null : v.peak / 1000,
        incomeOf(plant.id, day),
        plant.currency,
      ]);
    }
  }
  return { bytes: await xlsx.bytes(), filename: `energy-${q.startDate}_${q.endDate}.xlsx` };
}
