/**
 * Income of a plant's days by its valuation method (docs/decisions.md "Income"):
 * - constant: price × kWh generated (plant_day.pv_wh);
 * - generation: price × kWh fed into the grid (plant_day.grid_export_wh);
 * - tou: for each price segment of the plant-local day, the energy the inverters generated inside
 *   it × its price. A segment's energy is, per inverter, the cumulative PV counter
 *   (inverter_samples.pv_total_wh) at its end minus at its start, each read from the nearest
 *   sample at or before the boundary (within LOOKBACK_MS; a segment whose start has no such
 *   sample starts at its first sample). Every reading is one primary-key seek on
 *   (device_id, ts), many per statement. A segment ending 23:59 ends at the next midnight.
 *
 * Time-of-use incomes of past days are kept in plant_day_income. A kept row is valid while its
 * `computed_at` equals its version: max(plants.updated_at, plant_day.updated_at of the day and of
 * the day before) as read before the computation. A price, method or time-zone edit (any plant
 * edit bumps plants.updated_at) and late data for the day or for the evening before (ingest
 * bumps plant_day.updated_at; the first segment starts from a reading up to LOOKBACK_MS before
 * midnight) make it stale, and it is computed again on the next read. Today's income is
 * computed on demand and kept in memory per version.
 *
 * No price (constant and generation without a price, tou without segments): null.
 */
import type { Kysely } from 'kysely';
import { LoadingCache } from '../../cache/loading-cache.ts';
import { parseJson } from '../../db/index.ts';
import type { Database, Plant } from '../../db/schema.ts';
import { plantDayExports } from '../../energy/day-rollups.ts';
import { daysOf, localDay, nextDay, previousDay, zonedInstant } from '../../time/index.ts';
import * as repo from './income.repo.ts';

/**
 * What `dayIncomes` reads of a plant: pass the plants row, or these columns of it. `updated_at`
 * must be the stored one (it invalidates kept time-of-use incomes).
 */
export type IncomePlant = Pick<Plant, 'id' | 'timezone' | 'valuation_method' | 'price' | 'price_segments' | 'updated_at'>;

/** A time-of-use boundary looks this far back for the counter reading at or before it. */
export const LOOKBACK_MS = 3_600_000;
const COLUMNS_PER_STATEMENT = 120;
const WRITE_CHUNK = 200;

export interface TouSegment {
  /** Minutes after local midnight; `to` 1440 is the next midnight. */
  from: number;
  to: number;
  price: number;
}

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** The plant's time-of-use segments in time order ("23:59" ends at midnight). */
export function touSegments(plant: Pick<Plant, 'price_segments'>): TouSegment[] {
  const raw = parseJson<Array<{ start?: unknown; end?: unknown; price?: unknown }>>(plant.price_segments, []);
  if (!Array.isArray(raw)) return [];
  const out: TouSegment[] = [];
  for (const s of raw) {
    if (typeof s?.start !== 'string' || typeof s.end !== 'string' || typeof s.price !== 'number') continue;
    const to = s.end === '23:59' ? 1440 : minutes(s.end);
    const from = minutes(s.start);
    if (Number.isFinite(from) && Number.isFinite(to) && to > from) out.push({ from, to, price: s.price });
  }
  return out.sort((a, b) => a.from - b.from);
}

export function hasPrice(plant: Pick<Plant, 'valuation_method' | 'price' | 'price_segments'>): boolean {
  if (plant.valuation_method === 'tou') return touSegments(plant).length > 0;
  return plant.price !== null && plant.price !== undefined;
}

export const roundMoney = (v: number) => Math.round(v * 100) / 100;
const round4 = (v: number) => Math.round(v * 10_000) / 10_000;

/** Income of some energy under the constant or generation method (null: no price, or tou). */
export function energyIncome(
  plant: Pick<Plant, 'valuation_method' | 'price' | 'price_segments'>,
  energy: { pvWh: number; gridExportWh: number },
): number | null {
  if (plant.valuation_method === 'tou' || !hasPrice(plant)) return null;
  const kwh = (plant.valuation_method === 'generation' ? energy.gridExportWh : energy.pvWh) / 1000;
  return round4(Number(plant.price) * kwh);
}

/**
 * Income of each plant-local day from `fromDay` to `toDay` (inclusive; `toDay` may be a month's
 * "-31"): every real date of the range is in the map, 0 for a day without data, null for every
 * day when the plant has no price.
 */
export async function dayIncomes(
  db: Kysely<Database>,
  plant: IncomePlant,
  fromDay: string,
  toDay: string,
): Promise<Map<string, number | null>> {
  const days = daysOf(fromDay, toDay);
  const out = new Map<string, number | null>();
  if (!hasPrice(plant)) {
    for (const d of days) out.set(d, null);
    return out;
  }
  if (days.length === 0) return out;
  if (plant.valuation_method !== 'tou') {
    const rows = await plantDayExports(db, plant.id, days[0]!, days.at(-1)!);
    const byDay = new Map(rows.map((r) => [r.day, r]));
    for (const d of days) {
      const r = byDay.get(d);
      out.set(d, energyIncome(plant, { pvWh: Number(r?.pv_wh ?? 0), gridExportWh: Number(r?.grid_export_wh ?? 0) }) ?? 0);
    }
    return out;
  }
  const incomes = await touDayIncomes(db, plant, days);
  for (const d of days) out.set(d, incomes.get(d) ?? 0);
  return out;
}

/** Sum of the days' incomes; null when the plant has no price. */
export function totalOf(incomes: ReadonlyMap<string, number | null>): number | null {
  let total: number | null = null;
  for (const v of incomes.values()) if (v !== null) total = (total ?? 0) + v;
  return total;
}

// ---------------------------------------------------------------------------------------------
// Time of use

const todayCache = new LoadingCache<number>({ max: 2000 });
const inFlight = new Map<string, Promise<Map<string, number>>>();

async function touDayIncomes(db: Kysely<Database>, plant: IncomePlant, days: readonly string[]): Promise<Map<string, number>> {
  const today = localDay(plant.timezone, Date.now());
  const plantVersion = Number(plant.updated_at);
  // The day before counts too: a day's first segment starts from a reading up to LOOKBACK_MS before midnight.
  const rows = await repo.daysWithIncome(db, plant.id, previousDay(days[0]!), days.at(-1)!);
  const out = new Map<string, number>();
  const stale: { day: string; version: number }[] = [];
  let todayVersion: number | null = null;
  let before: { day: string; updated: number } | null = null;
  for (const r of rows) {
    const updated = Number(r.updated_at);
    const dayBefore = before?.day === previousDay(r.day) ? before.updated : 0;
    before = { day: r.day, updated };
    if (r.day < days[0]! || r.day > today) continue; // the day before the range; no data can be after today
    const version = Math.max(plantVersion, updated, dayBefore);
    if (r.day === today) todayVersion = version;
    else if (r.computed_at !== null && Number(r.computed_at) === version) out.set(r.day, Number(r.income));
    else stale.push({ day: r.day, version });
  }
  if (stale.length > 0) {
    // Concurrent readers of the same days share one computation.
    const key = `${plant.id}|${plantVersion}|${plant.timezone}|${plant.price_segments}|${stale.map((s) => `${s.day}:${s.version}`).join(',')}`;
    let running = inFlight.get(key);
    if (!running) {
      running = computeAndKeep(db, plant, stale).finally(() => inFlight.delete(key));
      inFlight.set(key, running);
    }
    for (const [day, income] of await running) out.set(day, income);
  }
  if (todayVersion !== null) {
    const key = `${plant.id}|${today}|${plant.timezone}|${plant.price_segments}`;
    const income = await todayCache.get(
      key,
      async () => (await touIncomes(db, plant, [today])).get(today)!,
      String(todayVersion),
    );
    out.set(today, income);
  }
  return out;
}

async function computeAndKeep(
  db: Kysely<Database>,
  plant: IncomePlant,
  stale: readonly { day: string; version: number }[],
): Promise<Map<string, number>> {
  const incomes = await touIncomes(
    db,
    plant,
    stale.map((s) => s.day),
  );
  const rows = stale.map((s) => ({ plant_id: plant.id, day: s.day, income: incomes.get(s.day)!, computed_at: s.version }));
  for (let i = 0; i < rows.length; i += WRITE_CHUNK) {
    await repo.keepDayIncomes(db, rows.slice(i, i + WRITE_CHUNK));
  }
  return incomes;
}

/** Time-of-use income of each day, from the inverters' PV counters at the segment boundaries. */
export async function touIncomes(
  db: Kysely<Database>,
  plant: IncomePlant,
  days: readonly string[],
): Promise<Map<string, number>> {
  const segments = touSegments(plant);
  const out = new Map<string, number>(days.map((d) => [d, 0]));
  if (segments.length === 0 || days.length === 0) return out;
  const inverters = await repo.liveInverters(db, plant.id);
  // One reading pair (start, end) per inverter, day and segment; readings from the inverter's
  // binding to the plant on (`since`).
  const jobs: { deviceId: number; since: number; day: string; price: number; a: number; b: number }[] = [];
  for (const day of days) {
    const next = nextDay(day);
    const at = (m: number) => (m >= 1440 ? zonedInstant(plant.timezone, next, m - 1440) : zonedInstant(plant.timezone, day, m));
    for (const s of segments) {
      const a = at(s.from);
      const b = at(s.to);
      for (const { id, bound_at } of inverters) jobs.push({ deviceId: id, since: Number(bound_at), day, price: s.price, a, b });
    }
  }
  const perStatement = Math.floor(COLUMNS_PER_STATEMENT / 2);
  for (let i = 0; i < jobs.length; i += perStatement) {
    const chunk = jobs.slice(i, i + perStatement);
    const row = await repo.pvCounterPairs(db, chunk, LOOKBACK_MS);
    chunk.forEach((j, k) => {
      const start = row[`s${k}`];
      const end = row[`e${k}`];
      if (start === null || start === undefined || end === null || end === undefined) return;
      const wh = Math.max(0, Number(end) - Number(start));
      out.set(j.day, out.get(j.day)! + (j.price * wh) / 1000);
    });
  }
  for (const [day, v] of out) out.set(day, round4(v));
  return out;
}
