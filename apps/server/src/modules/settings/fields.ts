/**
 * A device's setting groups as the API shows them: which family and groups it supports and each
 * group's fields with their values. Which groups a protocol has, their fields, reads, decoding
 * and the check of values to write are the protocol package's (`supportedSettings`,
 * `settingGroupFields`, `validateSettingValues`, …): a field it adds to a group is described,
 * read, checked and written without a change here.
 */
import { type SettingFamily, settingFamily, type settingsApi } from '@sunfleet/contracts';
import { type FieldDefinition, settingGroupFields, stepOf, supportedSettings } from '@sunfleet/protocols';
import type { Static } from 'typebox';

export type SettingValue = number | string;
export type ReadValues = Record<string, number | string | null>;
type FieldData = Static<typeof settingsApi.SettingField>;
type FieldDefinitionData = Static<typeof settingsApi.SettingFieldDefinition>;

export interface Support {
  family: SettingFamily;
  /** The family's groups the protocol has fields for, in the family's order. */
  groups: string[];
}

/** The setting family and groups of a protocol; null when it names no family. */
export function supportOf(protocolId: string): Support | null {
  const supported = supportedSettings(protocolId);
  const family = supported ? settingFamily(supported.family) : undefined;
  if (!supported || !family) return null;
  return { family, groups: family.groups.filter((g) => supported.groups.includes(g)) };
}

const kindOf = (f: FieldDefinition): FieldData['type'] =>
  f.dataType === 'string' || f.dataType === 'hex' ? 'text' : f.dataType === 'enum' ? 'enum' : 'number';

/** A field as the API defines it (label, unit, range, step, enumeration, writable). */
export function defineField(f: FieldDefinition): FieldDefinitionData {
  const type = kindOf(f);
  return {
    key: f.key,
    name: { en: f.name.en, es: f.name.es },
    unit: f.unit ?? null,
    type,
    min: f.min ?? null,
    max: f.max ?? null,
    step: type === 'number' ? (stepOf(f) ?? null) : null,
    enumeration: f.enum
      ? Object.entries(f.enum)
          .map(([v, text]) => ({ value: Number(v), en: text.en, es: text.es }))
          .sort((a, b) => a.value - b.value)
      : null,
    writable: f.access === 'rw',
  };
}

export function describeField(f: FieldDefinition, value: number | string | null): FieldData {
  return { ...defineField(f), value };
}

/** The definitions of a protocol's supported groups, in `groups` order (known without reading the device). */
export function defineGroups(protocolId: string, groups: readonly string[]) {
  return groups.map((group) => ({ group, fields: (settingGroupFields(protocolId, group) ?? []).map(defineField) }));
}

/** A group's fields, each with the value read (null where the device has none). */
export function describeGroup(protocolId: string, group: string, values: ReadValues): FieldData[] {
  return (settingGroupFields(protocolId, group) ?? []).map((f) => describeField(f, values[f.key] ?? null));
}

/** A value read back equals the one written (numbers within rounding of their decoding). */
export function sameValue(a: number | string | null | undefined, b: number | string | null | undefined): boolean {
  if (typeof a === 'number' && typeof b === 'number') return Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(a), Math.abs(b));
  if (a === null || a === undefined || b === null || b === undefined) return a === b || (a == null && b == null);
  return String(a) === String(b);
}
