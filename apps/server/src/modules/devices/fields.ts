/**
 * What a device's protocol says about its values, worked out from the field keys of the
 * definition (packages/protocols) so that every shipped protocol works without a table per
 * model: PV inputs are `pv<n>Voltage|Current|Power` (MPPT) or `string<n>…`; AC phases are
 * `<prefix>VoltageL<n>`, `<prefix>CurrentL<n>`, `<prefix>ActivePowerL<n>` (or a single phase
 * `<prefix>Voltage`/`<prefix>Current`); battery packs are `pack<n>.<field>`.
 */
import { type devicesApi, type Language, registerVersion } from '@sunfleet/contracts';
import { type FieldDefinition, type ProtocolPlan, type FieldValue as ProtocolValue, protocolPlan } from '@sunfleet/protocols';
import type { Static } from 'typebox';
import { conventionName, inConvention, type SignedPower, signedField } from './signed-power.ts';

export type Values = Record<string, ProtocolValue>;
type FieldValueOut = Static<typeof devicesApi.FieldValue>;
type FaultOut = Static<typeof devicesApi.ActiveFault>;
type PhaseOut = Static<typeof devicesApi.Phase>;
type PvInputOut = Static<typeof devicesApi.PvInput>;

export const planOf = (protocolId: string): ProtocolPlan | undefined => protocolPlan(protocolId);

export const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

const NUMERIC = new Set(['u16', 's16', 'u32', 's32', 'u64', 's64', 'float32', 'float64']);
/** A field that charts as a number (not an enum, bitfield, text or hex). */
export const isNumeric = (f: FieldDefinition) => NUMERIC.has(f.dataType);

/** A firmware version register (hex bytes, one number each): shown as its version, "3_2_0_5". */
const isFirmwareField = (f: FieldDefinition) => f.dataType === 'hex' && /^(firmware|[a-z]+Firmware)$/.test(f.key);

/**
 * A field's value for the API: number or text, with the enum label in the request language; a
 * firmware register's text is its version in the version style (`registerVersion`).
 * Signed power (`signed`) is in the one convention, and its name says so instead of the
 * register's own note ("Grid active power (+ import / − export)").
 */
export function fieldValue(f: FieldDefinition, values: Values, lan: Language, signed?: SignedPower): FieldValueOut {
  const raw = values[f.key];
  const value = typeof raw === 'number' ? (Number.isFinite(raw) ? raw : null) : typeof raw === 'string' ? raw : null;
  const label =
    f.dataType === 'enum' && typeof value === 'number'
      ? f.enum?.[value]?.[lan]
      : isFirmwareField(f) && typeof value === 'string'
        ? registerVersion(value)
        : undefined;
  if (!signed) return { key: f.key, name: f.name[lan], unit: f.unit ?? null, value, text: label ?? null };
  return {
    key: f.key,
    name: conventionName(f.name[lan], signed.flow, lan),
    unit: f.unit ?? null,
    value: typeof value === 'number' ? inConvention(value, signed.sign) : value,
    text: null,
  };
}

/** The values of the fields that pass `keep` (bitfields are reported as faults instead). */
export function fieldList(
  plan: ProtocolPlan | undefined,
  values: Values,
  lan: Language,
  keep: (f: FieldDefinition) => boolean,
): FieldValueOut[] {
  if (!plan) return [];
  return plan.definition.fields
    .filter((f) => f.dataType !== 'bitfield' && keep(f))
    .map((f) => fieldValue(f, values, lan, signedField(plan.definition.kind, f.key)));
}

/** Fault and warning codes of the latest upload with their level and text. */
export function faultsOf(plan: ProtocolPlan | undefined, codes: readonly string[], lan: Language): FaultOut[] {
  return codes.map((code) => {
    const bit = plan?.bit(code);
    return { code, level: bit?.level ?? 'fault', text: bit ? bit[lan] : code };
  });
}

/** The enum label of a field's value, or null. */
export function enumLabel(plan: ProtocolPlan | undefined, key: string, values: Values, lan: Language): string | null {
  const f = plan?.field(key);
  const v = num(values[key]);
  if (!f || v === null) return null;
  return f.enum?.[v]?.[lan] ?? null;
}

const inputKeyRe = /^(pv|string)(\d+)(Voltage|Current|Power)$/;

/** The PV inputs the protocol has, in input order: MPPT inputs first, then strings. */
export function pvInputsOf(plan: ProtocolPlan | undefined): { kind: 'mppt' | 'string'; index: number; prefix: string }[] {
  if (!plan) return [];
  const seen = new Map<string, { kind: 'mppt' | 'string'; index: number; prefix: string }>();
  for (const f of plan.definition.fields) {
    const m = inputKeyRe.exec(f.key);
    if (!m || f.group !== 'realtime') continue;
    const prefix = `${m[1]}${m[2]}`;
    if (!seen.has(prefix)) seen.set(prefix, { kind: m[1] === 'pv' ? 'mppt' : 'string', index: Number(m[2]), prefix });
  }
  return [...seen.values()].sort((a, b) => (a.kind === b.kind ? a.index - b.index : a.kind === 'mppt' ? -1 : 1));
}

/**
 * The PV inputs the device has: a protocol maps the most MPPTs its family has, and a device that
 * reports `mpptCount` has only that many.
 */
export function pvInputsPresent(plan: ProtocolPlan | undefined, values: Values | null | undefined) {
  const count = num(values?.mpptCount);
  const inputs = pvInputsOf(plan);
  return count !== null && count > 0 ? inputs.filter((i) => i.kind !== 'mppt' || i.index <= count) : inputs;
}

export function pvInputs(plan: ProtocolPlan | undefined, values: Values): PvInputOut[] {
  return pvInputsPresent(plan, values).map(({ kind, index, prefix }) => ({
    index,
    name: `${kind === 'mppt' ? 'PV' : 'S'}${index}`,
    kind,
    voltage: num(values[`${prefix}Voltage`]),
    current: num(values[`${prefix}Current`]),
    power: num(values[`${prefix}Power`]),
  }));
}

/** Keys of the per-phase fields with one of the prefixes ('' = no prefix), by phase number. */
export function phaseKeys(
  plan: ProtocolPlan | undefined,
  prefixes: readonly string[],
): { phase: number; voltage?: string; current?: string; power?: string }[] {
  if (!plan) return [];
  const phases = new Map<number, { phase: number; voltage?: string; current?: string; power?: string }>();
  const re = new RegExp(`^(${prefixes.filter(Boolean).join('|')})?(voltage|current|activePower|power)L(\\d)$`, 'i');
  for (const f of plan.definition.fields) {
    if (f.group !== 'realtime') continue;
    const m = re.exec(f.key);
    if (!m) continue;
    const prefix = (m[1] ?? '').toLowerCase();
    if (!prefixes.some((p) => p.toLowerCase() === prefix)) continue;
    const n = Number(m[3]);
    const entry = phases.get(n) ?? { phase: n };
    const quantity = m[2]!.toLowerCase();
    if (quantity === 'voltage') entry.voltage = f.key;
    else if (quantity === 'current') entry.current = f.key;
    else entry.power ??= f.key;
    phases.set(n, entry);
  }
  if (phases.size === 0) {
    // A single-phase device names its output without a phase: acVoltage, acCurrent.
    for (const p of prefixes.filter(Boolean)) {
      const voltage = plan.field(`${p}Voltage`)?.key;
      const current = plan.field(`${p}Current`)?.key;
      if (voltage || current) return [{ phase: 1, voltage, current }];
    }
  }
  return [...phases.values()].sort((a, b) => a.phase - b.phase);
}

export function phasesOf(
  plan: ProtocolPlan | undefined,
  values: Values,
  prefixes: readonly string[],
  singlePhasePower: number | null = null,
): PhaseOut[] {
  const keys = phaseKeys(plan, prefixes);
  return keys.map((k) => ({
    phase: `L${k.phase}`,
    voltage: k.voltage ? num(values[k.voltage]) : null,
    current: k.current ? num(values[k.current]) : null,
    power: k.power ? num(values[k.power]) : keys.length === 1 ? singlePhasePower : null,
  }));
}

/** Counters are kWh in the protocols; the API speaks Wh. */
export const kwhToWh = (kwh: number | null) => (kwh === null ? null : Math.round(kwh * 1_000_000) / 1000);

/** The first of `keys` with a number. */
export function firstNum(values: Values, keys: readonly string[]): number | null {
  for (const k of keys) {
    const v = num(values[k]);
    if (v !== null) return v;
  }
  return null;
}

/** Lifetime generation counter keys (as ingest reads them into `pv_total_wh`). */
export const PV_TOTAL_KEYS = ['pvEnergyTotal', 'energyTotal'] as const;
export const TEMPERATURE_KEYS = ['inverterTemperature', 'temperature'] as const;

/** Battery packs present in the values: the master's own and its slaves (`slavePackCount`). */
export function packIndexes(plan: ProtocolPlan | undefined, values: Values): number[] {
  if (!plan) return [];
  const indexes = new Set<number>();
  for (const f of plan.definition.fields) {
    const m = /^pack(\d+)\./.exec(f.key);
    if (m) indexes.add(Number(m[1]));
  }
  const all = [...indexes].sort((a, b) => a - b);
  const slaves = num(values.slavePackCount);
  if (slaves !== null) return all.filter((n) => n <= slaves + 1);
  // Without a count: the packs that reported anything.
  return all.filter((n) => Object.keys(values).some((k) => k.startsWith(`pack${n}.`)));
}
