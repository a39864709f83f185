// Remote settings over a shipped protocol: which setting family and groups a device supports,
// a group's fields, the reads that fetch a group and their decoding, and the validation that
// turns requested values into register writes — or into the problems, one per bad value, and
// then nothing is written.
import type { RegisterBlock } from './decode.ts';
import type { FieldDefinition, LocalizedText } from './definition.ts';
import { protocolPlan } from './definitions/index.ts';
import type { RegisterRange, RegisterWrite } from './encode.ts';

export interface SupportedSettings {
  /** The setting family (`mt`, `gy`, `dyStore`, `dyStore3p`, `asw`, `uneet`, `dyGrid`). */
  family: string;
  /** The groups, in the definition's register order. */
  groups: string[];
}

export type SettingProblemCode = 'noValues' | 'unknownField' | 'readOnly' | 'notANumber' | 'outOfRange' | 'offStep' | 'notInEnum';

export interface SettingProblem {
  field: string;
  code: SettingProblemCode;
  /** One sentence naming the field and what it allows. */
  message: string;
  min?: number;
  max?: number;
  step?: number;
  /** The allowed options of an enumeration. */
  options?: number[];
}

export type SettingValidation =
  | { ok: true; values: Record<string, number>; writes: RegisterWrite[] }
  | { ok: false; problems: SettingProblem[] };

/** The device's setting family and groups, or null when its protocol has none (or is unknown). */
export function supportedSettings(protocolId: string): SupportedSettings | null {
  const plan = protocolPlan(protocolId);
  const family = plan?.definition.settingFamily;
  if (!plan || !family) return null;
  return { family, groups: plan.settingGroups() };
}

/** The fields of one setting group, in register order; null for an unknown protocol or group. */
export function settingGroupFields(protocolId: string, group: string): FieldDefinition[] | null {
  const plan = protocolPlan(protocolId);
  if (!plan) return null;
  const fields = groupFields(plan.definition.fields, group);
  return fields.length === 0 ? null : fields;
}

/**
 * The Modbus reads that fetch one group, or several at once (a family read whole: nearby
 * registers of different groups share a read), at most 125 registers each; null when the
 * protocol lacks any of the groups.
 */
export function settingGroupReads(protocolId: string, group: string | readonly string[]): RegisterRange[] | null {
  const plan = protocolPlan(protocolId);
  const groups = typeof group === 'string' ? [group] : group;
  const present = plan?.settingGroups() ?? [];
  if (!plan || groups.length === 0 || groups.some((g) => !present.includes(g))) return null;
  return plan.readRanges({ groups: groups.map((g) => `setting:${g}` as const) });
}

/**
 * A group's values from the blocks a read returned: every field of the group, null when its
 * registers were not in the reply or hold the "not available" value.
 */
export function decodeSettingGroup(
  protocolId: string,
  group: string,
  blocks: readonly RegisterBlock[],
): Record<string, number | string | null> | null {
  const plan = protocolPlan(protocolId);
  const fields = plan ? groupFields(plan.definition.fields, group) : [];
  if (!plan || fields.length === 0) return null;
  const { values } = plan.decode(blocks);
  return Object.fromEntries(fields.map((f) => [f.key, values[f.key] ?? null]));
}

/**
 * Check every requested value of one group against its field (writable, a number, within
 * min..max, on the step from min, one of the options); all good → the register writes, merged
 * where contiguous; otherwise every problem and no writes.
 */
export function validateSettingValues(
  protocolId: string,
  group: string,
  values: Readonly<Record<string, unknown>>,
): SettingValidation {
  const plan = protocolPlan(protocolId);
  const fields = plan ? groupFields(plan.definition.fields, group) : [];
  if (!plan || fields.length === 0) throw new Error(`protocol "${protocolId}" has no setting group "${group}"`);
  const byKey = new Map(fields.map((f) => [f.key, f]));
  const problems: SettingProblem[] = [];
  const accepted: Record<string, number> = {};
  for (const key of Object.keys(values)) {
    const field = byKey.get(key);
    if (!field) {
      problems.push({ field: key, code: 'unknownField', message: `"${key}" is not a field of the ${group} group` });
      continue;
    }
    const problem = settingValueProblem(field, values[key]);
    if (problem) problems.push(problem);
    else accepted[key] = values[key] as number;
  }
  if (problems.length > 0) return { ok: false, problems };
  if (Object.keys(accepted).length === 0) {
    return { ok: false, problems: [{ field: '', code: 'noValues', message: `no value given for the ${group} group` }] };
  }
  return { ok: true, values: accepted, writes: plan.encodeWrites(accepted) };
}

/** Why this value cannot be written to the field, or null when it can. */
export function settingValueProblem(field: FieldDefinition, value: unknown): SettingProblem | null {
  const key = field.key;
  if (field.access !== 'rw') return { field: key, code: 'readOnly', message: `${key} is read-only` };
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    return { field: key, code: 'notANumber', message: `${key} must be a number` };
  }
  if (field.enum) {
    const options = Object.keys(field.enum).map(Number);
    if (!options.includes(value)) {
      return {
        field: key,
        code: 'notInEnum',
        message: `${key} must be one of ${describeOptions(field.enum)}`,
        options,
      };
    }
    return null;
  }
  const { min, max } = limits(field);
  const step = stepOf(field);
  const allowed = `${min ?? '−∞'}..${max ?? '∞'}${step ? ` in steps of ${step}` : ''}`;
  const detail = { ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}), ...(step ? { step } : {}) };
  if ((min !== undefined && value < min) || (max !== undefined && value > max)) {
    return { field: key, code: 'outOfRange', message: `${key} must be within ${allowed}`, ...detail };
  }
  if (step && !onStep(value - (min ?? 0), step)) {
    return { field: key, code: 'offStep', message: `${key} must be ${allowed}`, ...detail };
  }
  return null;
}

/**
 * The smallest change a field takes: its own step, else what its register can hold (one unit
 * of its scale; 1 for enumerations and unscaled integers). Undefined for floats and text.
 */
export function stepOf(field: FieldDefinition): number | undefined {
  if (field.step !== undefined) return field.step;
  if (field.dataType === 'float32' || field.dataType === 'float64' || field.dataType === 'string' || field.dataType === 'hex')
    return undefined;
  if (field.scaleFactorField !== undefined) return undefined;
  return Math.abs(field.scale ?? 1);
}

/** The field's limits: its own, else none. */
function limits(field: FieldDefinition): { min?: number; max?: number } {
  return { ...(field.min !== undefined ? { min: field.min } : {}), ...(field.max !== undefined ? { max: field.max } : {}) };
}

/** Whether `offset` is a whole number of steps, allowing for decimal rounding (0.3 / 0.1). */
function onStep(offset: number, step: number): boolean {
  const k = offset / step;
  return Math.abs(k - Math.round(k)) < 1e-6;
}

function describeOptions(options: Readonly<Record<number, LocalizedText>>): string {
  return Object.entries(options)
    .map(([value, label]) => `${value} (${label.en})`)
    .join(', ');
}

function groupFields(fields: readonly FieldDefinition[], group: string): FieldDefinition[] {
  const tag = `setting:${group}`;
  return fields.filter((f) => f.group === tag);
}

/** The values of a device's power switch field: what to write to turn it on or off. */
export function powerSwitchValues(protocolId: string): { on: number; off: number } | null {
  const field = protocolPlan(protocolId)?.field('powerSwitch');
  if (!field?.enum) return null;
  const find = (label: string) => Object.entries(field.enum!).find(([, text]) => text.en === label)?.[0];
  const on = find('On');
  const off = find('Off');
  return on === undefined || off === undefined ? null : { on: Number(on), off: Number(off) };
}
