/**
 * What each device kind contributes: its samples table and columns, the cumulative counters that
 * feed the day rollup, and the values the rules read. Field keys are those of the protocol
 * definitions in packages/protocols (hybrid, string and micro inverters share the inverter kind).
 */
import { batteryPack, type FieldValue, MAX_PACKS } from '@sunfleet/protocols';
import type { DeviceKind } from '../../db/schema.ts';
import type { EnergyColumn } from '../../energy/day-rollups.ts';
import { type SampleTable, sampleColumns, sampleTables } from '../../energy/samples.ts';

export type Values = Record<string, FieldValue>;

/**
 * What bounds a counter's growth: `device` counts what flows through the device (its rated
 * power, or the kind's ceiling when unknown), `site` what flows through the site's grid
 * connection or load (not bounded by an inverter's rating), `irradiance` sunlight per m².
 */
export type CounterBound = 'device' | 'site' | 'irradiance';

interface CounterSource {
  column: EnergyColumn;
  /** Field keys, first present wins (protocols name the same counter differently). */
  keys: readonly string[];
  bound: CounterBound;
  /** The samples table column that stores this counter too, if any. */
  sampleColumn?: string;
}

/**
 * How fast a cumulative counter can plausibly grow. A step of a counter may add at most
 * ceiling power × `margin` × (elapsed time + `slackMs`); more is an impossible jump. The slack
 * covers the counter's resolution (a 0.1 kWh step of a small inverter) and clock jitter.
 */
export const counterLimits = {
  margin: 2,
  slackMs: 15 * 60_000,
  /** Ceiling of a device whose rated power is unknown (the largest string inverters), W. */
  deviceW: 1_000_000,
  /** Ceiling of a site's grid connection or load: the largest plant capacity the portal accepts (50,000 kW), W. */
  siteW: 50_000_000,
  /** Ceiling of irradiance (the solar constant with cloud enhancement to spare), W/m². */
  irradianceWm2: 2000,
} as const;

/** Ceiling power of a counter source, W (W/m² for irradiation). */
export function counterCeilingW(bound: CounterBound, ratedPowerW: number | null): number {
  if (bound === 'site') return counterLimits.siteW;
  if (bound === 'irradiance') return counterLimits.irradianceWm2;
  return ratedPowerW !== null && ratedPowerW > 0 ? ratedPowerW : counterLimits.deviceW;
}

export interface KindSpec {
  table: SampleTable;
  /** Value columns of the samples table, between (device_id, ts) and raw (energy/samples.ts). */
  columns: readonly string[];
  /** The value columns of one sample, in `columns` order. */
  sample(values: Values): (number | null)[];
  counters: readonly CounterSource[];
  /** Power for the day's peak (inverter output, meter import, battery discharge). */
  power(values: Values): number | null;
  soc(values: Values): number | null;
  /** Battery temperature for the over-temperature rule; null when the kind has none. */
  batteryTemperature(values: Values): number | null;
  /** PV output for the zero-output rule; null for kinds without PV. */
  pvPower(values: Values): number | null;
  /** Keys of parts the device does not have (left out of the latest values), or null. */
  absentKeys(values: Values): ReadonlySet<string> | null;
}

export const num = (v: FieldValue | undefined): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const first = (values: Values, keys: readonly string[]): number | null => {
  for (const k of keys) {
    const v = num(values[k]);
    if (v !== null) return v;
  }
  return null;
};
/** Counters are kWh in the protocols; the store keeps Wh (rounded to a milliwatt-hour against float noise). */
export const kwhToWh = (kwh: number | null): number | null => (kwh === null ? null : Math.round(kwh * 1_000_000) / 1000);

const PV_KEYS = ['pv1Power', 'pv2Power', 'pv3Power', 'pv4Power'];
function pvSum(values: Values): number | null {
  let sum: number | null = null;
  for (const k of PV_KEYS) {
    const v = num(values[k]);
    if (v !== null) sum = (sum ?? 0) + v;
  }
  return sum;
}

const none = () => null;

const inverter: KindSpec = {
  table: sampleTables.inverter,
  columns: sampleColumns.inverter,
  sample: (v) => [
    num(v.activePower),
    pvSum(v),
    num(v.gridActivePower),
    num(v.loadPower),
    num(v.batteryPower),
    num(v.batterySoc),
    first(v, ['inverterTemperature', 'temperature']),
    kwhToWh(first(v, ['pvEnergyTotal', 'energyTotal'])),
  ],
  counters: [
    { column: 'pv_wh', keys: ['pvEnergyTotal', 'energyTotal'], bound: 'device', sampleColumn: 'pv_total_wh' },
    { column: 'load_wh', keys: ['loadEnergyTotal'], bound: 'site' },
    { column: 'grid_import_wh', keys: ['gridImportEnergyTotal'], bound: 'site' },
    { column: 'grid_export_wh', keys: ['gridExportEnergyTotal'], bound: 'site' },
    { column: 'charge_wh', keys: ['batteryChargeEnergyTotal'], bound: 'device' },
    { column: 'discharge_wh', keys: ['batteryDischargeEnergyTotal'], bound: 'device' },
  ],
  power: (v) => num(v.activePower),
  soc: (v) => num(v.batterySoc),
  batteryTemperature: (v) => num(v.batteryTemperature),
  pvPower: (v) => pvSum(v) ?? num(v.activePower),
  absentKeys: none,
};

const packTemperatureKeys = Array.from({ length: MAX_PACKS }, (_, i) => `pack${i + 1}.cellTemperatureMax`);
/** Packs present: the master's own and its slaves. */
const packCount = (v: Values) => Math.max(1, Math.min(MAX_PACKS, (num(v.slavePackCount) ?? MAX_PACKS - 1) + 1));
/** Hottest cell of the master and its slave packs. */
function hottestCell(v: Values): number | null {
  const packs = packCount(v);
  let max: number | null = null;
  for (let i = 0; i < packs; i++) {
    const t = num(v[packTemperatureKeys[i]!]);
    if (t !== null && (max === null || t > max)) max = t;
  }
  return max;
}

/** For n packs present, the keys of packs n+1.. (a battery system reads all eight pack slots). */
const absentPackKeys: ReadonlySet<string>[] = Array.from({ length: MAX_PACKS + 1 }, (_, n) => {
  const absent = new Set<string>();
  for (const f of batteryPack.fields) {
    const pack = /^pack(\d+)\./.exec(f.key);
    if (pack && Number(pack[1]) > n) absent.add(f.key);
  }
  return absent;
});

const battery: KindSpec = {
  table: sampleTables.battery,
  columns: sampleColumns.battery,
  sample: (v) => [num(v.power), num(v.voltage), num(v.current), num(v.soc), num(v.soh), hottestCell(v)],
  counters: [],
  power: (v) => num(v.power),
  soc: (v) => num(v.soc),
  batteryTemperature: hottestCell,
  pvPower: none,
  absentKeys: (v) => absentPackKeys[packCount(v)]!,
};

const meter: KindSpec = {
  table: sampleTables.meter,
  columns: sampleColumns.meter,
  sample: (v) => [num(v.activePower), kwhToWh(num(v.importEnergy)), kwhToWh(num(v.exportEnergy))],
  counters: [
    { column: 'grid_import_wh', keys: ['importEnergy'], bound: 'site', sampleColumn: 'import_total_wh' },
    { column: 'grid_export_wh', keys: ['exportEnergy'], bound: 'site', sampleColumn: 'export_total_wh' },
  ],
  power: (v) => num(v.activePower),
  soc: none,
  batteryTemperature: none,
  pvPower: none,
  absentKeys: none,
};

const weather: KindSpec = {
  table: sampleTables.weather,
  columns: sampleColumns.weather,
  sample: (v) => [num(v.irradiance), num(v.ambientTemperature), num(v.moduleTemperature), num(v.windSpeed)],
  // The station's own daily counter (it restarts at the station's midnight: read as a reset).
  counters: [{ column: 'irradiation_whm2', keys: ['dailyIrradiation'], bound: 'irradiance' }],
  power: none,
  soc: none,
  batteryTemperature: none,
  pvPower: none,
  absentKeys: none,
};

export const kinds: Readonly<Record<DeviceKind, KindSpec>> = { inverter, battery, meter, weather };

/** Value of a counter source in a frame, in Wh (Wh/m² for irradiation), or null when absent. */
export function counterValue(source: CounterSource, values: Values): number | null {
  return kwhToWh(first(values, source.keys));
}

/**
 * What the writer needs of a decoded frame. Taken right after decoding, so that the decoded
 * values (a hundred properties per frame) die young instead of living through the batch: the
 * garbage collector's young-generation copies of them were a tenth of ingest's time.
 */
export interface FrameFacts {
  /** Value columns of the samples table (`KindSpec.columns`). */
  sample: (number | null)[];
  /** Cumulative counters in Wh, in `KindSpec.counters` order. */
  counters: (number | null)[];
  power: number | null;
  soc: number | null;
  batteryTemperatureC: number | null;
  pvPowerW: number | null;
  /** Inverter type register (its name is mapped on display), rated power: kept on the devices row. */
  deviceType: number | null;
  ratedPowerW: number | null;
}

export function frameFacts(kind: DeviceKind, values: Values): FrameFacts {
  const spec = kinds[kind];
  const ratedPowerW = num(values.ratedPower);
  return {
    sample: spec.sample(values),
    counters: spec.counters.map((c) => counterValue(c, values)),
    power: spec.power(values),
    soc: spec.soc(values),
    batteryTemperatureC: spec.batteryTemperature(values),
    pvPowerW: spec.pvPower(values),
    deviceType: kind === 'inverter' ? num(values.deviceType) : null,
    ratedPowerW: ratedPowerW !== null && ratedPowerW > 0 ? ratedPowerW : null,
  };
}
