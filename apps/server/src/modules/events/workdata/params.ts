/**
 * The parameters of a device's operation data: the value columns of its samples table (stored,
 * read as they are) and the fields of its protocol definition (decoded again from the register
 * blocks each sample keeps). Column names are snake_case and field keys camelCase, so one key
 * space holds both. Setting groups are left out: uploads carry telemetry and nameplate only.
 *
 * Signed power (grid, battery) is read in the one convention, grid + import / − export, battery
 * + discharge / − charge: a parameter's `sign` turns the register's value (a column holds its
 * field's register) as the devices' `signedPower` table says for the device's protocol, its
 * `flow` says which, and its name leaves the direction words to the reader (a chart names the
 * two directions, a table or file the convention).
 */
import { ErrorCode, type Language, type workdataApi } from '@sunfleet/contracts';
import { type FieldDefinition, type ProtocolPlan, protocolPlan } from '@sunfleet/protocols';
import type { Static } from 'typebox';
import type { DeviceKind } from '../../../db/schema.ts';
import { type SampleTable, sampleColumns, sampleTables } from '../../../energy/samples.ts';
import { fail } from '../../../http/errors.ts';
import { signedColumn } from '../../devices/params.ts';
import { signedField, withoutSignNote } from '../../devices/signed-power.ts';

export type WorkdataParam = Static<typeof workdataApi.WorkdataParam>;

type Label = readonly [column: string, en: string, es: string, unit: string | null];
const storedLabels: Readonly<Record<DeviceKind, readonly Label[]>> = {
  inverter: [
    ['power_w', 'Output power', 'Potencia de salida', 'W'],
    ['pv_power_w', 'PV power', 'Potencia FV', 'W'],
    ['grid_power_w', 'Grid power', 'Potencia de red', 'W'],
    ['load_power_w', 'Load power', 'Potencia de consumo', 'W'],
    ['battery_power_w', 'Battery power', 'Potencia de batería', 'W'],
    ['soc', 'Battery state of charge', 'Estado de carga de la batería', '%'],
    ['temperature_c', 'Inverter temperature', 'Temperatura del inversor', '°C'],
    ['pv_total_wh', 'PV energy total', 'Energía FV total', 'Wh'],
  ],
  battery: [
    ['power_w', 'Power', 'Potencia', 'W'],
    ['voltage_v', 'Voltage', 'Tensión', 'V'],
    ['current_a', 'Current (+ discharge)', 'Corriente (+ descarga)', 'A'],
    ['soc', 'State of charge', 'Estado de carga', '%'],
    ['soh', 'State of health', 'Estado de salud', '%'],
    ['temperature_max_c', 'Highest cell temperature', 'Temperatura máxima de celda', '°C'],
  ],
  meter: [
    ['power_w', 'Active power', 'Potencia activa', 'W'],
    ['import_total_wh', 'Imported energy total', 'Energía importada total', 'Wh'],
    ['export_total_wh', 'Exported energy total', 'Energía exportada total', 'Wh'],
  ],
  weather: [
    ['irradiance_wm2', 'Irradiance', 'Irradiancia', 'W/m²'],
    ['ambient_c', 'Ambient temperature', 'Temperatura ambiente', '°C'],
    ['module_c', 'Module temperature', 'Temperatura del módulo', '°C'],
    ['wind_ms', 'Wind speed', 'Velocidad del viento', 'm/s'],
  ],
};

/** A chosen parameter, resolved: a stored column, or a protocol field to decode. */
export interface ResolvedParam {
  info: WorkdataParam;
  column: string | null;
  field: FieldDefinition | null;
  /** What the stored or decoded value is multiplied by to read in the convention. */
  sign: 1 | -1;
}

export interface DeviceParams {
  table: SampleTable;
  plan: ProtocolPlan | undefined;
  all: ResolvedParam[];
  byKey: Map<string, ResolvedParam>;
  defaults: string[];
}

const NON_NUMERIC = new Set(['string', 'hex', 'bitfield']);

function fieldParam(kind: DeviceKind, f: FieldDefinition, lan: Language): ResolvedParam {
  const signed = signedField(kind, f.key);
  return {
    info: {
      key: f.key,
      name: signed ? withoutSignNote(f.name[lan]) : f.name[lan],
      unit: f.unit ?? null,
      numeric: !NON_NUMERIC.has(f.dataType),
      stored: false,
      options: f.enum ? Object.fromEntries(Object.entries(f.enum).map(([v, text]) => [v, text[lan]])) : null,
      flow: signed?.flow ?? null,
    },
    column: null,
    field: f,
    sign: signed?.sign ?? 1,
  };
}

const cache = new Map<string, DeviceParams>();

/** Every parameter a device of this kind and protocol offers, in the request language. */
export function deviceParams(kind: DeviceKind, protocolId: string, lan: Language): DeviceParams {
  const cacheKey = `${kind}|${protocolId}|${lan}`;
  const hit = cache.get(cacheKey);
  if (hit) return hit;
  const columns = sampleColumns[kind];
  const plan = protocolPlan(protocolId);
  const stored: ResolvedParam[] = storedLabels[kind]
    .filter(([column]) => columns.includes(column))
    .map(([column, en, es, unit]) => {
      const signed = signedColumn(plan, kind, column);
      return {
        info: {
          key: column,
          name: lan === 'es' ? es : en,
          unit,
          numeric: true,
          stored: true,
          options: null,
          flow: signed?.flow ?? null,
        },
        column,
        field: null,
        sign: signed?.sign ?? 1,
      };
    });
  const fields = (plan?.definition.fields ?? [])
    .filter((f) => f.group === 'realtime' || f.group === 'info')
    .map((f) => fieldParam(kind, f, lan));
  const all = [...stored, ...fields];
  const result: DeviceParams = {
    table: sampleTables[kind],
    plan,
    all,
    byKey: new Map(all.map((p) => [p.info.key, p])),
    defaults: stored.map((p) => p.info.key),
  };
  cache.set(cacheKey, result);
  return result;
}

/** The chosen keys (default: the stored columns), each known to the device, without repeats. */
export function chooseParams(params: DeviceParams, keys: readonly string[] | undefined, opts: { numeric?: boolean } = {}) {
  const chosen: ResolvedParam[] = [];
  const seen = new Set<string>();
  for (const key of keys && keys.length > 0 ? keys : params.defaults) {
    if (seen.has(key)) continue;
    seen.add(key);
    const p = params.byKey.get(key);
    if (!p) return fail(ErrorCode.validation, `query.params: this device has no parameter "${key}"`);
    if (opts.numeric && !p.info.numeric)
      return fail(ErrorCode.validation, `query.params: "${key}" is not a number and cannot be charted`);
    chosen.push(p);
  }
  return chosen;
}
