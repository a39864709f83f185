/**
 * Device charts. Day curves read one device's samples of one plant-local day by the samples
 * table's primary key (device_id, ts): only the columns asked for, and the stored register
 * blocks (`raw`) only when a parameter is not a column, decoded with the protocol's plan.
 * Month, year and total bars sum the device's day rollups (device_day), never samples. Both start
 * at the device's binding to its plant (`boundAt`): an earlier owner's data is never shown.
 */
import { ErrorCode, hexToRegisters, type Language } from '@sunfleet/contracts';
import type { ProtocolPlan, RegisterBlock } from '@sunfleet/protocols';
import type { Db } from '../../db/index.ts';
import { deviceEnergy, deviceEnergyBars, type EnergyPeriod } from '../../energy/day-rollups.ts';
import { sampleRows, samplesIn, sampleTables } from '../../energy/samples.ts';
import { fail } from '../../http/errors.ts';
import { dayBounds, hourLabel, isCalendarDay, iso, localDay } from '../../time/index.ts';
import type { DeviceRow } from './device.ts';
import type { Values } from './fields.ts';
import { type ChartParam, chartParam } from './params.ts';
import { inConvention, type PowerFlow } from './signed-power.ts';

export interface Series {
  key: string;
  name: string;
  unit: string | null;
  /** Signed power in the convention (grid + import, battery + discharge); null otherwise. */
  flow: PowerFlow | null;
  values: (number | null)[];
}
export interface DayCurves {
  date: string;
  timezone: string;
  times: string[];
  series: Series[];
}

/** The day asked for (default the device's today), checked. */
export function chartDay(device: DeviceRow, date: string | undefined): string {
  if (date === undefined) return localDay(device.timezone);
  if (!isCalendarDay(date)) fail(ErrorCode.validation, 'query.date must be a calendar date (YYYY-MM-DD)');
  return date;
}

/** Register blocks as stored in `raw`: [[fc, addr, hex], …]. */
export function rawBlocks(raw: string): RegisterBlock[] {
  const parsed = JSON.parse(raw) as [number, number, string][];
  return parsed.map(([functionCode, address, hex]) => ({ functionCode, address, registers: hexToRegisters(hex) }));
}

/** Decode stored register blocks; null when the text is not what ingest writes. */
export function decodeRaw(plan: ProtocolPlan, raw: string): Values | null {
  try {
    return plan.decode(rawBlocks(raw)).values;
  } catch {
    return null;
  }
}

const round = (v: number | null, scale: number) => (v === null ? null : scale === 1 ? v : Math.round(v * scale * 1e6) / 1e6);

/**
 * Decoded curves of a device's day, kept for repeat views: a stored sample never changes (ingest
 * inserts a (device, ts) once and never updates it), so a day whose sample times are the same as
 * when it was decoded has the same values. Keyed by device and day start; least recently used
 * out first.
 */
const DECODED_DAYS = 500;
const decodedDays = new Map<string, { times: number[]; values: Map<string, (number | null)[]> }>();
const sameTimes = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((t, i) => t === b[i]);

/** Values of the decoded (not stored) parameters for the rows' times: from the cache, else from `raw`. */
async function decodedValues(
  db: Db,
  device: DeviceRow,
  plan: ProtocolPlan,
  params: readonly ChartParam[],
  times: readonly number[],
  from: number,
  to: number,
): Promise<Map<string, (number | null)[]>> {
  const key = `${device.id}|${from}`;
  const hit = decodedDays.get(key);
  if (hit && sameTimes(hit.times, times) && params.every((p) => hit.values.has(p.key))) {
    decodedDays.delete(key);
    decodedDays.set(key, hit);
    return hit.values;
  }
  const rows = (await sampleRows(db, sampleTables[device.kind], device.id, ['raw'], Math.max(from, device.boundAt), to)) as {
    ts: number | string;
    raw: string;
  }[];
  const rowTimes = rows.map((r) => Number(r.ts));
  const values = new Map<string, (number | null)[]>(params.map((p) => [p.key, new Array(rows.length).fill(null)]));
  for (let i = 0; i < rows.length; i++) {
    const decoded = decodeRaw(plan, rows[i]!.raw);
    if (decoded) for (const p of params) values.get(p.key)![i] = p.read(decoded);
  }
  // Keep what was decoded; a second request for other parameters of the same day adds to it.
  const entry = hit && sameTimes(hit.times, rowTimes) ? hit : { times: rowTimes, values: new Map() };
  for (const [k, v] of values) entry.values.set(k, v);
  decodedDays.delete(key);
  decodedDays.set(key, entry);
  if (decodedDays.size > DECODED_DAYS) decodedDays.delete(decodedDays.keys().next().value!);
  // The samples read here may be newer than `times` (a frame arrived in between): align by time.
  if (sameTimes(rowTimes, times)) return values;
  const at = new Map(rowTimes.map((t, i) => [t, i]));
  return new Map([...values].map(([k, v]) => [k, times.map((t) => (at.has(t) ? v[at.get(t)!]! : null))]));
}

/**
 * The day curves of `keys` (chartable parameters of the device's protocol; an unknown key is
 * code 4). Stored parameters come from their columns; the others from decoding `raw`.
 */
export async function dayCurves(
  db: Db,
  device: DeviceRow,
  plan: ProtocolPlan,
  keys: readonly string[],
  day: string,
  lan: Language,
): Promise<DayCurves> {
  const params: ChartParam[] = keys.map((key) => {
    const p = chartParam(plan, device.kind, key);
    if (!p) return fail(ErrorCode.validation, `query.params: "${key}" is not a chartable parameter of ${plan.definition.id}`);
    return p;
  });
  const { start: from, end: to } = dayBounds(device.timezone, day);
  const columns = [...new Set(params.flatMap((p) => (p.column ? [p.column] : [])))];
  const rows = await sampleRows(db, sampleTables[device.kind], device.id, columns, Math.max(from, device.boundAt), to);
  const times = rows.map((r) => Number(r.ts));
  const raw = params.filter((p) => !p.column);
  const decoded = raw.length > 0 && rows.length > 0 ? await decodedValues(db, device, plan, raw, times, from, to) : null;
  const series: Series[] = params.map((p) => {
    const head = { key: p.key, name: p.name[lan], unit: p.unit, flow: p.flow };
    if (!p.column) return { ...head, values: decoded?.get(p.key) ?? [] };
    const column = p.column;
    return {
      ...head,
      values: rows.map((r) => {
        const v = r[column];
        if (v === null || v === undefined) return null;
        return inConvention(round(Number(v), p.scale)!, p.sign);
      }),
    };
  });
  return { date: day, timezone: device.timezone, times: times.map((t) => iso(t)!), series };
}

type Totals = Awaited<ReturnType<typeof deviceEnergy>>;
export function energyOut(t: Totals) {
  return {
    pv: t.pvWh,
    load: t.loadWh,
    gridImport: t.gridImportWh,
    gridExport: t.gridExportWh,
    charge: t.chargeWh,
    discharge: t.dischargeWh,
    peakPower: t.peakPowerW === null ? null : Number(t.peakPowerW),
  };
}

export const dayEnergy = async (db: Db, device: DeviceRow, day: string) =>
  energyOut(await deviceEnergy(db, device.id, 'day', day, device.boundAt));

const rounded = (v: unknown) => Math.round(Number(v ?? 0) * 1000) / 1000;

/** Energy bars of a month (per day), a year (per month) or all time (per year), from day rollups. */
export async function energyBars(db: Db, device: DeviceRow, period: Exclude<EnergyPeriod, 'day'>, date: string | undefined) {
  const day = chartDay(device, date);
  const [rows, totals] = await Promise.all([
    deviceEnergyBars(db, device.id, period, day, device.boundAt),
    deviceEnergy(db, device.id, period, day, device.boundAt),
  ]);
  return {
    period,
    date: day,
    timezone: device.timezone,
    totals: energyOut(totals),
    bars: rows.map((r) => ({
      label: r.label,
      pv: rounded(r.pv),
      load: rounded(r.load),
      gridImport: rounded(r.gridImport),
      gridExport: rounded(r.gridExport),
      charge: rounded(r.charge),
      discharge: rounded(r.discharge),
      peakPower: r.peakPower === null ? null : Number(r.peakPower),
    })),
  };
}

/**
 * Generation per hour of a day from the lifetime counter column (pv_total_wh): each sample's
 * increase over the previous one counts in the sample's hour (a drop is a counter reset: the
 * new reading counts). The hours add up to the day's last − first, as the day rollup.
 */
export async function hourlyGeneration(db: Db, device: DeviceRow, day: string) {
  const { start: from, end: to } = dayBounds(device.timezone, day);
  const rows = await samplesIn(db, 'inverter_samples', device.id, Math.max(from, device.boundAt), to, ['pv_total_wh'], {
    notNull: 'pv_total_wh',
    ordered: true,
  });
  const hours = Math.round((to - from) / 3_600_000);
  const energy = new Array<number>(hours).fill(0);
  for (let i = 1; i < rows.length; i++) {
    const prev = Number(rows[i - 1]!.pv_total_wh);
    const cur = Number(rows[i]!.pv_total_wh);
    const delta = cur >= prev ? cur - prev : cur;
    const h = Math.min(hours - 1, Math.floor((Number(rows[i]!.ts) - from) / 3_600_000));
    energy[h]! += delta;
  }
  const bars = energy.map((e, h) => ({ label: hourLabel(device.timezone, from + h * 3_600_000), energy: rounded(e) }));
  return { bars, energy: rounded(energy.reduce((a, b) => a + b, 0)) };
}

/** Generation bars of a period: hours of a day (samples), days, months or years (day rollups). */
export async function generation(db: Db, device: DeviceRow, period: EnergyPeriod, date: string | undefined) {
  const day = chartDay(device, date);
  if (period === 'day') {
    const { bars, energy } = await hourlyGeneration(db, device, day);
    return { period, date: day, timezone: device.timezone, bars, energy };
  }
  const series = await energyBars(db, device, period, day);
  return {
    period,
    date: day,
    timezone: device.timezone,
    bars: series.bars.map((b) => ({ label: b.label, energy: b.pv })),
    energy: series.totals.pv,
  };
}

/** Longest gap between two samples that is still integrated (longer: no data in between). */
export const MAX_INTEGRATION_GAP_MS = 20 * 60_000;

/** Energy (Wh) under a power curve (W) by the trapezoid rule, skipping gaps and missing values. */
export function integrate(times: readonly number[], watts: readonly (number | null)[]): number {
  let wh = 0;
  for (let i = 1; i < times.length; i++) {
    const a = watts[i - 1];
    const b = watts[i];
    const dt = times[i]! - times[i - 1]!;
    if (a === null || a === undefined || b === null || b === undefined || dt <= 0 || dt > MAX_INTEGRATION_GAP_MS) continue;
    wh += ((a + b) / 2) * (dt / 3_600_000);
  }
  return Math.round(wh * 1000) / 1000;
}
