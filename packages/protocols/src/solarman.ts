// Converts a Solarman / ha-solarman inverter map (the parsed YAML object) into a protocol
// definition. Solarman lists the registers of a multi-register value low word first
// (value += reg << 16*i), which is our wordSwap. Items we cannot express are reported, not guessed.
import type { BitLevel, DataType, DeviceKind, FieldDefinition, FieldGroup, ProtocolDefinition } from './definition.ts';

export interface SolarmanLookup {
  key?: number | readonly number[] | string;
  bit?: number;
  value: string;
}

export interface SolarmanItem {
  name: string;
  rule?: number;
  registers?: readonly number[];
  scale?: number | readonly number[];
  offset?: number;
  uom?: string;
  platform?: string;
  lookup?: readonly SolarmanLookup[];
  sensors?: unknown;
  mask?: number;
  bit?: number;
  divide?: number;
  code?: number;
}

export interface SolarmanMap {
  info?: { manufacturer?: string; model?: string };
  parameters: readonly { group: string; code?: number; items: readonly SolarmanItem[] }[];
}

export interface SolarmanOptions {
  id: string;
  kind?: DeviceKind;
  /** Which entry of a per-variant scale list ([0.1, 0.1, 1]) to use. */
  scaleVariant?: number;
}

export interface SolarmanConversion {
  definition: ProtocolDefinition;
  skipped: { name: string; reason: string }[];
}

const writablePlatforms = new Set(['number', 'select', 'switch', 'datetime', 'time']);

export function fromSolarmanMap(map: SolarmanMap, options: SolarmanOptions): SolarmanConversion {
  const fields: FieldDefinition[] = [];
  const skipped: { name: string; reason: string }[] = [];
  const used = new Map<number, string>();
  const keys = new Set<string>();
  for (const group of map.parameters) {
    for (const item of group.items) {
      const result = itemField(item, group.group, group.code, options);
      if (typeof result === 'string') {
        skipped.push({ name: item.name, reason: result });
        continue;
      }
      const registers = item.registers!;
      const clash = registers.map((r) => used.get(result.functionCode * 0x10000 + r)).find((owner) => owner !== undefined);
      if (clash !== undefined) {
        skipped.push({ name: item.name, reason: `shares registers with "${clash}"` });
        continue;
      }
      for (const r of registers) used.set(result.functionCode * 0x10000 + r, item.name);
      result.key = uniqueKey(result.key, keys);
      fields.push(result);
    }
  }
  const label = [map.info?.manufacturer, map.info?.model].filter(Boolean).join(' ') || options.id;
  return {
    definition: { id: options.id, name: { en: label, es: label }, version: '1', kind: options.kind ?? 'inverter', fields },
    skipped,
  };
}

function itemField(
  item: SolarmanItem,
  groupName: string,
  groupCode: number | undefined,
  options: SolarmanOptions,
): FieldDefinition | string {
  const registers = item.registers;
  if (item.sensors) return 'composite of several sensors';
  if (!registers || registers.length === 0) return 'no registers (computed)';
  if (registers.some((r, i) => r !== registers[0]! + i)) return 'registers not contiguous ascending';
  if (item.mask !== undefined || item.bit !== undefined || item.divide !== undefined) return 'masked or divided register';
  const rule = item.rule ?? 1;
  let dataType: DataType;
  if (rule === 5) dataType = 'string';
  else if (rule >= 1 && rule <= 4) {
    const bitLookup = item.lookup?.some((l) => l.bit !== undefined);
    const valueLookup = item.lookup?.some((l) => typeof l.key === 'number' || Array.isArray(l.key));
    const signed = rule === 2 || rule === 4;
    if (bitLookup) dataType = 'bitfield';
    else if (valueLookup && !signed && registers.length <= 2) dataType = 'enum';
    else if (registers.length === 1) dataType = signed ? 's16' : 'u16';
    else if (registers.length === 2) dataType = signed ? 's32' : 'u32';
    else if (registers.length === 4) dataType = signed ? 's64' : 'u64';
    else return `rule ${rule} over ${registers.length} registers`;
  } else return `rule ${rule} (${rule === 0 ? 'computed' : 'version, date or time formatting'})`;

  let scale = item.scale ?? 1;
  if (Array.isArray(scale)) scale = scale[options.scaleVariant ?? 0] ?? scale[0]!;
  const writable = writablePlatforms.has(item.platform ?? '');
  const group: FieldGroup = writable ? `setting:${camel(groupName)}` : /^info$/i.test(groupName) ? 'info' : 'realtime';
  const key = camel(item.name) || `register${registers[0]}`;
  const name = item.name || key;
  const field: FieldDefinition = {
    key,
    name: { en: name, es: name },
    functionCode: (item.code ?? groupCode ?? 3) === 4 ? 4 : 3,
    address: registers[0]!,
    count: registers.length,
    dataType,
    group,
    ...(registers.length > 1 && dataType !== 'string' ? { wordSwap: true } : {}),
    ...(item.uom ? { unit: item.uom } : {}),
    ...(writable ? { access: 'rw' as const } : {}),
  };
  if (dataType !== 'string' && dataType !== 'enum' && dataType !== 'bitfield') {
    if (scale !== 1) field.scale = scale as number;
    // ha-solarman: value = (raw - offset) × scale
    if (item.offset) field.offset = -item.offset * (scale as number);
  }
  if (dataType === 'enum') {
    const entries: [number, { en: string; es: string }][] = [];
    for (const lookup of item.lookup ?? []) {
      const values = Array.isArray(lookup.key) ? lookup.key : typeof lookup.key === 'number' ? [lookup.key] : [];
      for (const v of values) entries.push([v, { en: lookup.value, es: lookup.value }]);
    }
    field.enum = Object.fromEntries(entries);
  }
  if (dataType === 'bitfield') {
    const level: BitLevel = /fault/i.test(item.name) ? 'fault' : 'warning';
    const codes = new Set<string>();
    field.bits = Object.fromEntries(
      (item.lookup ?? [])
        .filter((l) => l.bit !== undefined && l.bit < registers.length * 16)
        .map((l) => [l.bit!, { code: uniqueKey(`${key}.${camel(l.value)}`, codes), level, en: l.value, es: l.value }]),
    );
  }
  return field;
}

function camel(text: string): string {
  const words = text
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter(Boolean);
  return words
    .map((w, i) => (i === 0 ? w.charAt(0).toLowerCase() + w.slice(1) : w.charAt(0).toUpperCase() + w.slice(1)))
    .join('');
}

function uniqueKey(key: string, keys: Set<string>): string {
  let unique = key;
  for (let n = 2; keys.has(unique); n++) unique = `${key}${n}`;
  keys.add(unique);
  return unique;
}
