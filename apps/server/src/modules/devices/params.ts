/**
 * Chartable parameters of a protocol: every numeric realtime field, plus the derived values
 * ingest keeps as sample columns (`pvPower`: the sum of the PV inputs; `cellTemperatureMax`:
 * the hottest cell of a battery system). A parameter that is a samples-table column is read
 * from the column; any other is decoded from the stored register blocks (`raw`).
 *
 * The column map mirrors what ingest writes into each column of energy/samples.ts (its
 * `sample()` per kind); params.test.ts holds the two together.
 */
import type { Language } from '@sunfleet/contracts';
import type { ProtocolPlan } from '@sunfleet/protocols';
import type { DeviceKind } from '../../db/schema.ts';
import { isNumeric, num, pvInputsOf, type Values } from './fields.ts';
import { inConvention, type PowerFlow, type SignedPower, signedField, withoutSignNote } from './signed-power.ts';

interface ColumnSource {
  column: string;
  /** Field keys: the first one the protocol has is the one the column holds. */
  keys: readonly string[];
  /** Column value → field unit (counters are Wh in the store, kWh in the protocols). */
  scale?: number;
}

const columnSources: Record<DeviceKind, readonly ColumnSource[]> = {
  inverter: [
    { column: 'power_w', keys: ['activePower'] },
    { column: 'pv_power_w', keys: ['pvPower'] },
    { column: 'grid_power_w', keys: ['gridActivePower'] },
    { column: 'load_power_w', keys: ['loadPower'] },
    { column: 'battery_power_w', keys: ['batteryPower'] },
    { column: 'soc', keys: ['batterySoc'] },
    { column: 'temperature_c', keys: ['inverterTemperature', 'temperature'] },
    { column: 'pv_total_wh', keys: ['pvEnergyTotal', 'energyTotal'], scale: 0.001 },
  ],
  battery: [
    { column: 'power_w', keys: ['power'] },
    { column: 'voltage_v', keys: ['voltage'] },
    { column: 'current_a', keys: ['current'] },
    { column: 'soc', keys: ['soc'] },
    { column: 'soh', keys: ['soh'] },
    { column: 'temperature_max_c', keys: ['cellTemperatureMax'] },
  ],
  meter: [
    { column: 'power_w', keys: ['activePower'] },
    { column: 'import_total_wh', keys: ['importEnergy'], scale: 0.001 },
    { column: 'export_total_wh', keys: ['exportEnergy'], scale: 0.001 },
  ],
  weather: [
    { column: 'irradiance_wm2', keys: ['irradiance'] },
    { column: 'ambient_c', keys: ['ambientTemperature'] },
    { column: 'module_c', keys: ['moduleTemperature'] },
    { column: 'wind_ms', keys: ['windSpeed'] },
  ],
};

/**
 * The signed power a samples column holds for a protocol: that of the field ingest fills it from
 * (the first of its keys the protocol has); undefined for a column that is not signed power.
 */
export function signedColumn(plan: ProtocolPlan | undefined, kind: DeviceKind, column: string): SignedPower | undefined {
  const source = columnSources[kind].find((s) => s.column === column);
  if (!source) return undefined;
  const key = source.keys.find((k) => plan?.field(k)) ?? source.keys[0]!;
  return signedField(kind, key);
}

export interface ChartParam {
  key: string;
  name: { en: string; es: string };
  unit: string | null;
  /** Signed power: its values are in the convention (register × sign); null for other parameters. */
  flow: PowerFlow | null;
  /** What the stored value (column or register) is multiplied by to read in the convention. */
  sign: 1 | -1;
  /** The samples-table column that holds it, if any. */
  column: string | null;
  scale: number;
  /** How to get it from decoded values (derived parameters sum or pick). */
  read: (values: Values) => number | null;
}

const catalogues = new WeakMap<ProtocolPlan, ChartParam[]>();

/** The chartable parameters of a protocol: stored ones first (column order), then the protocol's field order. */
export function chartParams(plan: ProtocolPlan, kind: DeviceKind): ChartParam[] {
  let list = catalogues.get(plan);
  if (list) return list;
  const fields = plan.definition.fields.filter((f) => f.group === 'realtime' && isNumeric(f));
  const has = new Set(fields.map((f) => f.key));
  const derived: ChartParam[] = [];
  const inputs = pvInputsOf(plan).filter((i) => has.has(`${i.prefix}Power`));
  if (kind === 'inverter' && inputs.length > 0) {
    const keys = inputs.map((i) => `${i.prefix}Power`);
    derived.push({
      key: 'pvPower',
      name: { en: 'PV power (all inputs)', es: 'Potencia FV (todas las entradas)' },
      unit: 'W',
      flow: null,
      sign: 1,
      column: null,
      scale: 1,
      read: (v) => {
        let sum: number | null = null;
        for (const k of keys) {
          const x = num(v[k]);
          if (x !== null) sum = (sum ?? 0) + x;
        }
        return sum;
      },
    });
  }
  const packTemperatures = fields.filter((f) => /^pack\d+\.cellTemperatureMax$/.test(f.key)).map((f) => f.key);
  if (kind === 'battery' && packTemperatures.length > 0) {
    derived.push({
      key: 'cellTemperatureMax',
      name: { en: 'Hottest cell temperature', es: 'Temperatura de la celda más caliente' },
      unit: '°C',
      flow: null,
      sign: 1,
      column: null,
      scale: 1,
      read: (v) => {
        const packs = Math.max(1, Math.min(packTemperatures.length, (num(v.slavePackCount) ?? packTemperatures.length - 1) + 1));
        let max: number | null = null;
        for (let i = 0; i < packs; i++) {
          const t = num(v[packTemperatures[i]!]);
          if (t !== null && (max === null || t > max)) max = t;
        }
        return max;
      },
    });
  }
  const all: ChartParam[] = [
    ...derived,
    ...fields.map((f): ChartParam => {
      const signed = signedField(kind, f.key);
      if (!signed)
        return {
          key: f.key,
          name: f.name,
          unit: f.unit ?? null,
          flow: null,
          sign: 1,
          column: null,
          scale: 1,
          read: (v) => num(v[f.key]),
        };
      const { flow, sign } = signed;
      return {
        key: f.key,
        // The chart names the directions; the name's "(+ export)" would contradict the turned values.
        name: { en: withoutSignNote(f.name.en), es: withoutSignNote(f.name.es) },
        unit: f.unit ?? null,
        flow,
        sign,
        column: null,
        scale: 1,
        read: (v) => {
          const x = num(v[f.key]);
          return x === null ? x : inConvention(x, sign);
        },
      };
    }),
  ];
  const byKey = new Map(all.map((p) => [p.key, p]));
  for (const source of columnSources[kind]) {
    const key = source.keys.find((k) => byKey.has(k));
    if (key) {
      const p = byKey.get(key)!;
      p.column = source.column;
      p.scale = source.scale ?? 1;
    }
  }
  // Stored ones first, in the samples table's column order; then the rest in protocol order.
  const stored = columnSources[kind].flatMap((source) => all.filter((p) => p.column === source.column));
  list = [...stored, ...all.filter((p) => !p.column)];
  catalogues.set(plan, list);
  return list;
}

export function chartParam(plan: ProtocolPlan, kind: DeviceKind, key: string): ChartParam | undefined {
  return chartParams(plan, kind).find((p) => p.key === key);
}

/** What a day chart shows when nothing is chosen: the stored curves (at most 6). */
export function defaultParams(plan: ProtocolPlan, kind: DeviceKind): string[] {
  const skip = new Set(['pvEnergyTotal', 'energyTotal', 'importEnergy', 'exportEnergy']);
  return chartParams(plan, kind)
    .filter((p) => p.column && !skip.has(p.key))
    .slice(0, 6)
    .map((p) => p.key);
}

export const paramOut = (p: ChartParam, lan: Language) => ({
  key: p.key,
  name: p.name[lan],
  unit: p.unit,
  stored: p.column !== null,
});
