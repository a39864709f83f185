/**
 * The overview's charts: the power curve of a plant-local day (5-minute buckets) and the
 * generation bars of a month, a year or all time.
 *
 * The day curve reads the day's samples of each device by primary-key range (device_id, ts) —
 * never a table scan — averages each device's samples per bucket and sums the devices (which
 * device measures what: flow.ts). Computed curves are kept in memory (LRU, CURVE_CACHE_SIZE
 * entries, keyed by plant, day, zone and master meter) with the version they were computed at:
 * the day's plant_day.updated_at (ingest bumps it with every stored sample of the day, late ones
 * included) and the newest forecast import of the day, read in one indexed query before the
 * samples. Each device counts from its binding to the plant on (`bound_at`). A changed version computes the curve again; concurrent requests share one computation.
 *
 * The bars come from the day rows (energy/day-rollups.ts) and the day incomes (income.ts), kept the
 * same way: versioned by the newest updated_at and the count of the period's day rows (one
 * aggregate over the plant's day-row index range) and the plant's settings.
 * `powerDay` and `generationSeries` take a plant id and check no access: the caller has.
 */
import { type DataOf, ErrorCode, plantEnergyApi } from '@sunfleet/contracts';
import { LoadingCache } from '../../cache/loading-cache.ts';
import type { Db } from '../../db/index.ts';
import type { DeviceKind } from '../../db/schema.ts';
import { type EnergyPeriod, periodDays, plantDayPv, plantEnergySeries, plantPeriodVersion } from '../../energy/day-rollups.ts';
import { samplesIn } from '../../energy/samples.ts';
import { fail } from '../../http/errors.ts';
import { dayBounds, iso, localDay, requestDay } from '../../time/index.ts';
import { signedPower } from '../devices/signed-power.ts';
import { gridMeters } from './flow.ts';
import { dayIncomes, energyIncome, hasPrice, roundMoney, totalOf } from './income.ts';
import * as repo from './plant.repo.ts';
import type { OverviewPlant } from './plant.ts';

export type PowerDay = DataOf<typeof plantEnergyApi.plantPowerDay>;
export type GenerationSeries = DataOf<typeof plantEnergyApi.plantPowerMonth>;

export const STEP_MS = plantEnergyApi.POWER_CURVE_STEP_MINUTES * 60_000;
export const CURVE_CACHE_SIZE = 2000;

const curves = new LoadingCache<Omit<PowerDay, 'forecast'> & { forecast: PowerDay['forecast'] }>({ max: CURVE_CACHE_SIZE });

/** Drop every kept curve (tests). */
export const forgetCurves = () => curves.clear();

async function plantById(db: Db, plantId: number): Promise<OverviewPlant> {
  const row = await repo.overviewPlantRow(db, plantId);
  if (!row) return fail(ErrorCode.plantMissing);
  return { ...row, price: row.price === null ? null : Number(row.price), updated_at: Number(row.updated_at) };
}

/** The power curve of a plant-local day (`date`, default the plant's today) with its forecast. */
export async function powerDay(db: Db, plantId: number, date?: string): Promise<PowerDay> {
  return plantPowerDay(db, await plantById(db, plantId), date);
}

export async function plantPowerDay(db: Db, plant: OverviewPlant, date?: string): Promise<PowerDay> {
  const day = requestDay(plant.timezone, date);
  const { start, end } = dayBounds(plant.timezone, day);
  const version = await repo.curveVersion(db, plant.id, day, start, end);
  const key = `${plant.id}|${day}|${plant.timezone}|${plant.master_meter_id ?? ''}`;
  return curves.get(
    key,
    () => computeCurve(db, plant, day, start, end),
    `${version.day_version ?? ''}|${version.forecast_version ?? ''}`,
  );
}

interface Acc {
  sum: Float64Array;
  count: Uint32Array;
}
const acc = (n: number): Acc => ({ sum: new Float64Array(n), count: new Uint32Array(n) });
function add(a: Acc, i: number, v: number | null) {
  if (v === null || !Number.isFinite(v)) return;
  a.sum[i]! += v;
  a.count[i]!++;
}

/** Per bucket: the sum over devices of each device's average (null where no device had a value). */
class Curve {
  readonly total: Float64Array;
  readonly has: Uint8Array;
  constructor(readonly n: number) {
    this.total = new Float64Array(n);
    this.has = new Uint8Array(n);
  }
  addDevice(a: Acc, sign = 1) {
    for (let i = 0; i < this.n; i++) {
      if (a.count[i] === 0) continue;
      this.total[i]! += (sign * a.sum[i]!) / a.count[i]!;
      this.has[i] = 1;
    }
  }
  at(i: number): number | null {
    return this.has[i] ? this.total[i]! : null;
  }
}

const n = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
const round1 = (v: number | null) => (v === null ? null : Math.round(v * 10) / 10);

const CURVE_KINDS = ['inverter', 'meter', 'battery'] satisfies DeviceKind[];

/**
 * The devices whose samples make the plant's curve over [start, end), each with the part of it
 * that is the plant's: its live devices from their binding on, and the devices that have left
 * (device_bindings) over the time they were in it.
 */
async function plantDevicesOfDay(db: Db, plantId: number, start: number, end: number) {
  const [current, past] = await repo.curveDevices(db, plantId, CURVE_KINDS, start, end);
  return [
    ...current.map((d) => ({ id: d.id, kind: d.kind, from: Math.max(start, Number(d.bound_at)), to: end })),
    ...past.map((d) => ({
      id: d.id,
      kind: d.kind,
      from: Math.max(start, Number(d.bound_at)),
      to: Math.min(end, Number(d.unbound_at)),
    })),
  ].filter((d) => d.from < d.to);
}

async function computeCurve(db: Db, plant: OverviewPlant, day: string, start: number, end: number) {
  const buckets = Math.ceil((end - start) / STEP_MS);
  const bucket = (ts: number) => Math.floor((Number(ts) - start) / STEP_MS);
  const devices = await plantDevicesOfDay(db, plant.id, start, end);
  const inverters = devices.filter((d) => d.kind === 'inverter');
  const meters = gridMeters(
    devices.filter((d) => d.kind === 'meter'),
    plant.master_meter_id,
  );
  const batteries = devices.filter((d) => d.kind === 'battery');

  const pv = new Curve(buckets);
  const load = new Curve(buckets);
  const output = new Curve(buckets);
  const inverterGrid = new Curve(buckets);
  const meterGrid = new Curve(buckets);
  const battery = new Curve(buckets);
  const socSum = new Curve(buckets);
  const socDevices = new Uint16Array(buckets);
  const any = new Uint8Array(buckets);

  const [inverterRows, meterRows, batteryRows, forecast] = await Promise.all([
    Promise.all(
      inverters.map((d) =>
        samplesIn(db, 'inverter_samples', d.id, d.from, d.to, [
          'power_w',
          'pv_power_w',
          'grid_power_w',
          'load_power_w',
          'battery_power_w',
          'soc',
        ]),
      ),
    ),
    Promise.all(meters.map((d) => samplesIn(db, 'meter_samples', d.id, d.from, d.to, ['power_w']))),
    Promise.all(batteries.map((d) => samplesIn(db, 'battery_samples', d.id, d.from, d.to, ['power_w', 'soc']))),
    repo.forecastPoints(db, plant.id, start, end),
  ]);

  const useBatteries = batteries.length > 0;
  const addSoc = (a: Acc) => {
    socSum.addDevice(a);
    for (let i = 0; i < buckets; i++) if (a.count[i]! > 0) socDevices[i]!++;
  };
  for (const rows of inverterRows) {
    const [p, l, o, g, b, s] = [acc(buckets), acc(buckets), acc(buckets), acc(buckets), acc(buckets), acc(buckets)];
    for (const r of rows) {
      const i = bucket(r.ts);
      if (i < 0 || i >= buckets) continue;
      any[i] = 1;
      add(p, i, n(r.pv_power_w) ?? n(r.power_w));
      add(l, i, n(r.load_power_w));
      add(o, i, n(r.power_w));
      add(g, i, n(r.grid_power_w));
      if (!useBatteries) {
        add(b, i, n(r.battery_power_w));
        add(s, i, n(r.soc));
      }
    }
    pv.addDevice(p);
    load.addDevice(l);
    output.addDevice(o);
    inverterGrid.addDevice(g, signedPower.inverter.gridActivePower!.sign);
    if (!useBatteries) {
      battery.addDevice(b, signedPower.inverter.batteryPower!.sign);
      addSoc(s);
    }
  }
  for (const rows of meterRows) {
    const g = acc(buckets);
    for (const r of rows) {
      const i = bucket(r.ts);
      if (i < 0 || i >= buckets) continue;
      any[i] = 1;
      add(g, i, n(r.power_w));
    }
    meterGrid.addDevice(g, signedPower.meter.activePower!.sign);
  }
  for (const rows of batteryRows) {
    const [b, s] = [acc(buckets), acc(buckets)];
    for (const r of rows) {
      const i = bucket(r.ts);
      if (i < 0 || i >= buckets) continue;
      any[i] = 1;
      add(b, i, n(r.power_w));
      add(s, i, n(r.soc));
    }
    battery.addDevice(b, signedPower.battery.power!.sign);
    addSoc(s);
  }

  const grid = meters.length > 0 ? meterGrid : inverterGrid;
  const points: PowerDay['points'] = [];
  let peak: number | null = null;
  for (let i = 0; i < buckets; i++) {
    if (!any[i]) continue;
    const g = grid.at(i);
    let l = load.at(i);
    // Without a load reading but with a meter: load = inverter output + grid.
    if (l === null && meters.length > 0 && g !== null && output.at(i) !== null) l = Math.max(0, output.at(i)! + g);
    const p = pv.at(i);
    if (p !== null && (peak === null || p > peak)) peak = p;
    points.push({
      time: iso(start + i * STEP_MS)!,
      pv: round1(p),
      load: round1(l),
      grid: round1(g),
      battery: round1(battery.at(i)),
      soc: socDevices[i] ? round1(socSum.at(i)! / socDevices[i]!) : null,
    });
  }
  const energy = await plantDayPv(db, plant.id, day);
  return {
    date: day,
    timezone: plant.timezone,
    points,
    forecast: forecast.map((f) => ({ time: iso(f.ts)!, power: Number(f.power_w) })),
    peakPower: round1(peak),
    energy: Number(energy ?? 0),
  };
}

// ---------------------------------------------------------------------------------------------
// Generation bars

/** Generation and income bars: the days of the month, the months of the year, or the years (a day: one bar). */
export async function generationSeries(db: Db, plantId: number, period: EnergyPeriod, date?: string): Promise<GenerationSeries> {
  return plantGenerationSeries(db, await plantById(db, plantId), period, date);
}

export async function plantGenerationSeries(
  db: Db,
  plant: OverviewPlant,
  period: EnergyPeriod,
  date?: string,
): Promise<GenerationSeries> {
  const day = requestDay(plant.timezone, date);
  const range = periodDays(period, day);
  // Version of the period: its day rows (newest change, count) and the plant's settings.
  const version = await plantPeriodVersion(db, plant.id, range);
  const today = localDay(plant.timezone, Date.now());
  const key = `${plant.id}|${period}|${range ? `${range.from}|${range.to}` : 'all'}|${plant.timezone}`;
  const settings = `${plant.updated_at}|${plant.valuation_method}|${plant.price}|${plant.price_segments}`;
  const kept = await bars.get(
    key,
    () => computeBars(db, plant, period, day),
    `${version?.v ?? ''}|${version?.n ?? 0}|${settings}|${today}`,
  );
  return { ...kept, date: day };
}

const bars = new LoadingCache<Omit<GenerationSeries, 'date'>>({ max: CURVE_CACHE_SIZE });

async function computeBars(
  db: Db,
  plant: OverviewPlant,
  period: EnergyPeriod,
  day: string,
): Promise<Omit<GenerationSeries, 'date'>> {
  const rows =
    period === 'day'
      ? (await plantEnergySeries(db, plant.id, 'month', day)).filter((r) => r.label === day)
      : await plantEnergySeries(db, plant.id, period, day);
  const priced = hasPrice(plant);
  let incomeByLabel: Map<string, number> | null = null;
  if (priced && plant.valuation_method === 'tou' && rows.length > 0) {
    const range = periodDays(period, day) ?? {
      from: `${rows[0]!.label.slice(0, 4)}-01-01`,
      to: localDay(plant.timezone, Date.now()),
    };
    const incomes = await dayIncomes(db, plant, range.from, range.to);
    incomeByLabel = new Map();
    const width = period === 'year' ? 7 : period === 'total' ? 4 : 10;
    for (const [d, v] of incomes) {
      const label = d.slice(0, width);
      incomeByLabel.set(label, (incomeByLabel.get(label) ?? 0) + (v ?? 0));
    }
  }
  const list = rows.map((r) => {
    const income = !priced
      ? null
      : incomeByLabel
        ? (incomeByLabel.get(r.label) ?? 0)
        : energyIncome(plant, { pvWh: r.pvWh, gridExportWh: r.gridExportWh });
    return {
      label: r.label,
      energy: r.pvWh,
      income: income === null ? null : roundMoney(income),
      peakPower: r.peakPowerW === null ? null : Number(r.peakPowerW),
    };
  });
  const energy = Math.round(rows.reduce((s, r) => s + r.pvWh, 0) * 1000) / 1000;
  const total = priced ? totalOf(new Map(list.map((b) => [b.label, b.income]))) : null;
  return { period, bars: list, energy, income: total === null ? (priced ? 0 : null) : roundMoney(total) };
}
