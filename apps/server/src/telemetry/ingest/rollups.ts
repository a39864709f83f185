/**
 * Day rollups, pure part: how samples fold into a device's day (a sample's plant-local day is
 * `localDay` of time/days.ts). Energy of a day = last − first of each cumulative counter, where
 * first and last are the values at the day's earliest and latest sample time (not arrival order), plus what
 * the counter had reached before each reset (a drop below half means it restarted from 0). A
 * reading that steps backwards otherwise, or grows faster than the device could produce, is left
 * out of the day (`counterProblem`) and reported, so that a broken counter never reaches the rollups.
 */
import type { DeviceKind } from '../../db/schema.ts';
import { type EnergyColumn, energyColumns } from '../../energy/day-rollups.ts';
import { counterCeilingW, counterLimits, kinds } from './kinds.ts';

// ---------------------------------------------------------------------------------------------
// A device's day

/** The ends of one cumulative counter within a day; `r` is what it had reached before resets. */
export interface CounterEnds {
  t0: number;
  v0: number;
  t1: number;
  v1: number;
  r: number;
}

export interface DayState {
  deviceId: number;
  day: string;
  kind: DeviceKind;
  counters: Partial<Record<EnergyColumn, CounterEnds>>;
  peakPowerW: number | null;
  minSoc: number | null;
  maxSoc: number | null;
  firstTs: number;
  lastTs: number;
  samples: number;
}

export const emptyDay = (deviceId: number, day: string, kind: DeviceKind): DayState => ({
  deviceId,
  day,
  kind,
  counters: {},
  peakPowerW: null,
  minSoc: null,
  maxSoc: null,
  firstTs: Number.POSITIVE_INFINITY,
  lastTs: Number.NEGATIVE_INFINITY,
  samples: 0,
});

/**
 * What a counter drop from `before` to `after` adds to the day's energy before the new segment
 * (foldSample only folds drops that `counterProblem` accepts as restarts):
 * a drop below half is a restart from zero (the energy reached before it counts); a smaller drop
 * is a counter that was re-based (replaced, re-synchronised, a device restored from a saved
 * value): counting goes on from the new value, so nothing is counted twice.
 */
const dropCarry = (before: number, after: number) => (after < before / 2 ? before : before - after);

/** Fold a counter reading into its ends. A reading between the ends changes nothing. */
export function foldCounter(ends: CounterEnds | undefined, ts: number, value: number): CounterEnds {
  if (!ends) return { t0: ts, v0: value, t1: ts, v1: value, r: 0 };
  if (ts > ends.t1) {
    if (value < ends.v1) ends.r += dropCarry(ends.v1, value); // between the last reading and this one
    ends.t1 = ts;
    ends.v1 = value;
  } else if (ts < ends.t0) {
    if (value > ends.v0) ends.r += dropCarry(value, ends.v0); // between this reading and the first one
    ends.t0 = ts;
    ends.v0 = value;
  }
  return ends;
}

/** Why a counter reading is kept out of the day: it went down (not a restart), or rose faster than possible. */
export type CounterProblem = 'backwards' | 'jump';

/** Energy a counter can plausibly add in `elapsedMs` at `ceilingW` (kinds.ts `counterLimits`), Wh. */
export const plausibleWh = (ceilingW: number, elapsedMs: number): number =>
  (ceilingW * counterLimits.margin * (elapsedMs + counterLimits.slackMs)) / 3_600_000;

/** A step of a counter from `before` to `after`, `elapsedMs` later: null when plausible. */
function stepProblem(before: number, after: number, elapsedMs: number, ceilingW: number): CounterProblem | null {
  const allowed = plausibleWh(ceilingW, elapsedMs);
  if (after >= before) return after - before > allowed ? 'jump' : null;
  // A drop is plausible only as a restart from zero: below half, and no more counted since than possible.
  return after < before / 2 && after <= allowed ? null : 'backwards';
}

/**
 * Judge a counter reading against its nearest end in time, before folding it: a reading after
 * the last one against the last, a reading before the first against the first. A reading
 * between the ends changes nothing and is not judged; the first reading of a day is the reference.
 */
export function counterProblem(
  ends: CounterEnds | undefined,
  ts: number,
  value: number,
  ceilingW: number,
): CounterProblem | null {
  if (!ends) return null;
  if (ts > ends.t1) return stepProblem(ends.v1, value, ts - ends.t1, ceilingW);
  if (ts < ends.t0) return stepProblem(value, ends.v0, ends.t0 - ts, ceilingW);
  return null;
}

/** counters JSON: { column: [t0, v0, t1, v1, r] } (written per sample day row: kept short). */
export function countersJson(counters: DayState['counters']): string {
  let s = '{';
  for (const column in counters) {
    const c = counters[column as EnergyColumn]!;
    s += `${s.length > 1 ? ',' : ''}"${column}":[${c.t0},${c.v0},${c.t1},${c.v1},${c.r}]`;
  }
  return `${s}}`;
}

export function countersFromJson(text: string): DayState['counters'] {
  const out: DayState['counters'] = {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return out;
  }
  if (typeof parsed !== 'object' || parsed === null) return out;
  for (const [column, ends] of Object.entries(parsed)) {
    if (!energyColumns.includes(column as EnergyColumn) || !Array.isArray(ends) || ends.length !== 5) continue;
    if (!ends.every((n) => typeof n === 'number' && Number.isFinite(n))) continue;
    const [t0, v0, t1, v1, r] = ends as number[];
    out[column as EnergyColumn] = { t0: t0!, v0: v0!, t1: t1!, v1: v1!, r: r! };
  }
  return out;
}

export const counterEnergy = (ends: CounterEnds | undefined): number =>
  ends ? Math.round((ends.v1 - ends.v0 + ends.r) * 1000) / 1000 : 0;

/** What a sample brings to its day: counters in Wh (in `KindSpec.counters` order), power, SOC. */
export interface DayPoint {
  counters: readonly (number | null)[];
  power: number | null;
  soc: number | null;
  /** The device's rated power, W, when known: bounds its counters' growth. */
  ratedPowerW?: number | null;
}

/** A counter reading kept out of its day. */
export interface CounterRefusal {
  column: EnergyColumn;
  problem: CounterProblem;
  ts: number;
  value: number;
}

/**
 * Add one stored sample to its day. Samples may come in any order, each exactly once. A counter
 * reading that steps backwards (other than a restart) or jumps further than the device could
 * produce is left out and returned; the rest of the sample counts.
 */
export function foldSample(day: DayState, ts: number, point: DayPoint): CounterRefusal[] | null {
  const sources = kinds[day.kind].counters;
  let refused: CounterRefusal[] | null = null;
  for (let i = 0; i < sources.length; i++) {
    const v = point.counters[i];
    if (v === null || v === undefined) continue;
    const source = sources[i]!;
    const column = source.column;
    const ends = day.counters[column];
    const problem = counterProblem(ends, ts, v, counterCeilingW(source.bound, point.ratedPowerW ?? null));
    if (problem === null) day.counters[column] = foldCounter(ends, ts, v);
    else {
      refused ??= [];
      refused.push({ column, problem, ts, value: v });
    }
  }
  const power = point.power;
  if (power !== null && (day.peakPowerW === null || power > day.peakPowerW)) day.peakPowerW = power;
  const soc = point.soc;
  if (soc !== null) {
    if (day.minSoc === null || soc < day.minSoc) day.minSoc = soc;
    if (day.maxSoc === null || soc > day.maxSoc) day.maxSoc = soc;
  }
  if (ts < day.firstTs) day.firstTs = ts;
  if (ts > day.lastTs) day.lastTs = ts;
  day.samples++;
  return refused;
}

export type DayEnergy = Record<EnergyColumn, number>;

export function dayEnergy(day: DayState): DayEnergy {
  const out = {} as DayEnergy;
  for (const column of energyColumns) out[column] = counterEnergy(day.counters[column]);
  return out;
}

// ---------------------------------------------------------------------------------------------
// A plant's day from its devices' days

export interface KindDayTotals {
  kind: DeviceKind;
  pv_wh: number | null;
  load_wh: number | null;
  grid_import_wh: number | null;
  grid_export_wh: number | null;
  charge_wh: number | null;
  discharge_wh: number | null;
  peak_power_w: number | null;
}

export interface PlantDayTotals {
  pv_wh: number;
  load_wh: number;
  grid_import_wh: number;
  grid_export_wh: number;
  charge_wh: number;
  discharge_wh: number;
  peak_power_w: number | null;
}

/**
 * Sum of the plant's devices for one day. Grid import/export come from the plant's meters when it
 * has any (an inverter's own grid counters measure the same flow, through its CT); otherwise from
 * the inverters. Peak power is the sum of the inverters' peaks: PV inverters of
 * one plant peak together, and the store has no plant-wide power series to do better.
 */
export function plantDay(rows: readonly KindDayTotals[], hasMeter = rows.some((r) => r.kind === 'meter')): PlantDayTotals {
  const out: PlantDayTotals = {
    pv_wh: 0,
    load_wh: 0,
    grid_import_wh: 0,
    grid_export_wh: 0,
    charge_wh: 0,
    discharge_wh: 0,
    peak_power_w: null,
  };
  const meter = hasMeter ? rows.find((r) => r.kind === 'meter') : undefined;
  for (const r of rows) {
    if (r.kind !== 'inverter' && r.kind !== 'battery') continue;
    out.pv_wh += r.pv_wh ?? 0;
    out.load_wh += r.load_wh ?? 0;
    out.charge_wh += r.charge_wh ?? 0;
    out.discharge_wh += r.discharge_wh ?? 0;
    if (!hasMeter) {
      out.grid_import_wh += r.grid_import_wh ?? 0;
      out.grid_export_wh += r.grid_export_wh ?? 0;
    }
    if (r.kind === 'inverter' && r.peak_power_w !== null) out.peak_power_w = (out.peak_power_w ?? 0) + r.peak_power_w;
  }
  if (hasMeter) {
    out.grid_import_wh = meter?.grid_import_wh ?? 0;
    out.grid_export_wh = meter?.grid_export_wh ?? 0;
  }
  for (const k of ['pv_wh', 'load_wh', 'grid_import_wh', 'grid_export_wh', 'charge_wh', 'discharge_wh'] as const) {
    out[k] = Math.round(out[k] * 1000) / 1000;
  }
  return out;
}
