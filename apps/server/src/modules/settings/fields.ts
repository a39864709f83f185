/**
 * A device's setting groups from its protocol definition: which family and groups it supports,
 * each group's fields as the API describes them, and the check of values to write against their
 * fields (range, step, enumeration, writable). Everything comes from the definition: a field the
 * protocol package adds to a group is described, read, checked and written without a change here.
 */
import { type SettingFamily, settingFamily, type settingsApi } from '@sunfleet/contracts';
import type { FieldDefinition, ProtocolPlan } from '@sunfleet/protocols';
import { protocolPlan } from '@sunfleet/protocols';
import type { Static } from 'typebox';

export type SettingValue = number | string;
export type ReadValues = Record<string, number | string | null>;
type FieldData = Static<typeof settingsApi.SettingField>;

export interface Support {
  family: SettingFamily;
  /** The family's groups the protocol has fields for, in the family's order. */
  groups: string[];
}

/** The setting family and groups of a protocol; null when it names no family. */
export function supportOf(protocolId: string): Support | null {
  const plan = protocolPlan(protocolId);
  const id = plan?.definition.settingFamily;
  const family = id ? settingFamily(id) : undefined;
  if (!plan || !family) return null;
  const present = new Set(plan.settingGroups());
  return { family, groups: family.groups.filter((g) => present.has(g)) };
}

export const groupFields = (plan: ProtocolPlan, group: string): FieldDefinition[] =>
  plan.definition.fields.filter((f) => f.group === `setting:${group}`);

const integerTypes = new Set(['u16', 's16', 'u32', 's32', 'u64', 's64']);
const rawLimits: Record<string, [number, number]> = {
  u16: [0, 0xffff],
  s16: [-0x8000, 0x7fff],
  u32: [0, 0xffffffff],
  s32: [-0x80000000, 0x7fffffff],
};

const kindOf = (f: FieldDefinition): FieldData['type'] =>
  f.dataType === 'string' || f.dataType === 'hex' ? 'text' : f.dataType === 'enum' ? 'enum' : 'number';

/**
 * The smallest change of a field: its declared step, else what its register can hold (an
 * integer register holds whole multiples of its scale); none for floats and SunSpec fields whose
 * scale is a run-time exponent.
 */
export function stepOf(f: FieldDefinition): number | null {
  if (f.step !== undefined) return f.step;
  if (!integerTypes.has(f.dataType) || f.scaleFactorField !== undefined) return null;
  return f.scale ?? 1;
}

export function describeField(f: FieldDefinition, value: number | string | null): FieldData {
  const type = kindOf(f);
  return {
    key: f.key,
    name: { en: f.name.en, es: f.name.es },
    unit: f.unit ?? null,
    type,
    min: f.min ?? null,
    max: f.max ?? null,
    step: type === 'number' ? stepOf(f) : null,
    enumeration: f.enum
      ? Object.entries(f.enum)
          .map(([v, text]) => ({ value: Number(v), en: text.en, es: text.es }))
          .sort((a, b) => a.value - b.value)
      : null,
    writable: f.access === 'rw',
    value,
  };
}

/** What a field allows, as the refusal says it. */
function allowed(f: FieldDefinition): string {
  if (f.enum)
    return `one of ${Object.entries(f.enum)
      .map(([v, t]) => `${v} (${t.en})`)
      .join(', ')}`;
  if (kindOf(f) === 'text') return `a text of at most ${f.count * 2 - (f.skipBytes ?? 0)} bytes`;
  const step = stepOf(f);
  const range = `${f.min ?? '−∞'}..${f.max ?? '∞'}${f.unit ? ` ${f.unit}` : ''}`;
  return step === null ? range : `${range} in steps of ${step}`;
}

function problemOf(f: FieldDefinition, value: SettingValue): string | null {
  const type = kindOf(f);
  if (type === 'text') {
    const bytes = Buffer.byteLength(String(value));
    return bytes <= f.count * 2 - (f.skipBytes ?? 0) ? null : 'too long';
  }
  if (typeof value !== 'number' || !Number.isFinite(value)) return 'not a number';
  if (type === 'enum') return f.enum && Object.hasOwn(f.enum, String(value)) ? null : `${value} is not an option`;
  if ((f.min !== undefined && value < f.min) || (f.max !== undefined && value > f.max)) return `${value} is out of range`;
  const step = stepOf(f);
  if (step !== null) {
    const k = (value - (f.min ?? 0)) / step;
    if (Math.abs(k - Math.round(k)) > 1e-6) return `${value} is not a whole step`;
  }
  const limits = rawLimits[f.dataType];
  if (limits && f.scaleFactorField === undefined) {
    const raw = Math.round((value - (f.offset ?? 0)) / (f.scale ?? 1));
    if (raw < limits[0] || raw > limits[1]) return `${value} does not fit the register`;
  }
  return null;
}

/**
 * Every problem of `values` as a write to `group`, one sentence per field naming it and what it
 * allows: an unknown or read-only field, a value off its range, step or enumeration. Empty when
 * all may be written.
 */
export function valueProblems(plan: ProtocolPlan, group: string, values: Readonly<Record<string, SettingValue>>): string[] {
  const fields = new Map(groupFields(plan, group).map((f) => [f.key, f]));
  const keys = Object.keys(values);
  if (keys.length === 0) return ['values: nothing to write'];
  const problems: string[] = [];
  for (const key of keys) {
    const f = fields.get(key);
    if (!f) {
      problems.push(`${key}: not a field of the group ${group}`);
      continue;
    }
    if (f.access !== 'rw') {
      problems.push(`${key}: read only`);
      continue;
    }
    // A text field's value may arrive as a number (form and JSON clients alike): it is its text.
    const value = kindOf(f) === 'text' ? String(values[key]) : values[key]!;
    const problem = problemOf(f, value);
    if (problem) problems.push(`${key} (${f.name.en}): ${problem}; allowed ${allowed(f)}`);
  }
  return problems;
}

/** Values as the field wants them (a text field's number as its text). */
export function normalise(plan: ProtocolPlan, values: Readonly<Record<string, SettingValue>>): Record<string, SettingValue> {
  const out: Record<string, SettingValue> = {};
  for (const [key, value] of Object.entries(values)) {
    const f = plan.field(key);
    out[key] = f && kindOf(f) === 'text' ? String(value) : value;
  }
  return out;
}

/** A value read back equals the one written (numbers within rounding of their decoding). */
export function sameValue(a: number | string | null | undefined, b: number | string | null | undefined): boolean {
  if (typeof a === 'number' && typeof b === 'number') return Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(a), Math.abs(b));
  if (a === null || a === undefined || b === null || b === undefined) return a === b || (a == null && b == null);
  return String(a) === String(b);
}
