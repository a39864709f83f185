// SunSpec devices read through the same decoder: a SunSpec information model (the JSON format
// of sunspec/models) becomes a protocol definition at the address where the device's model
// chain puts it. Scale factors become scaleFactorField references; sentinels become nulls.

import type { RegisterBlock } from '../decode.ts';
import type { BitLevel, DataType, FieldDefinition, FieldGroup, ProtocolDefinition } from '../definition.ts';

export interface SunSpecSymbol {
  name: string;
  value: number;
  label?: string;
}

export interface SunSpecPoint {
  name: string;
  type: string;
  size: number;
  sf?: string | number;
  units?: string;
  label?: string;
  access?: string;
  mandatory?: string;
  static?: string;
  symbols?: readonly SunSpecSymbol[];
}

export interface SunSpecGroup {
  name: string;
  type?: string;
  count?: number | string;
  label?: string;
  points?: readonly SunSpecPoint[];
  groups?: readonly SunSpecGroup[];
}

export interface SunSpecModel {
  id: number;
  group: SunSpecGroup;
}

export interface SunSpecModelOptions {
  /** Model length L as the device reports it: sizes the repeating groups (MPPT modules ...). */
  length?: number;
  /** Put before every key when several models share one definition, e.g. "m101.". */
  keyPrefix?: string;
}

/** SunSpec "SunS" marker: 0x5375 0x6E53. */
export const SUNS_MARKER = [0x5375, 0x6e53] as const;
/** Where SunSpec devices put the marker, most common first. */
export const SUNSPEC_BASES = [40000, 0, 50000] as const;

const types: Record<string, { dataType: DataType; notImplemented?: FieldDefinition['notImplemented'] }> = {
  uint16: { dataType: 'u16', notImplemented: 'sunspec' },
  int16: { dataType: 's16', notImplemented: 'sunspec' },
  sunssf: { dataType: 's16', notImplemented: 'sunspec' },
  count: { dataType: 'u16' },
  raw16: { dataType: 'u16' },
  uint32: { dataType: 'u32', notImplemented: 'sunspec' },
  int32: { dataType: 's32', notImplemented: 'sunspec' },
  uint64: { dataType: 'u64', notImplemented: 'sunspec' },
  int64: { dataType: 's64', notImplemented: 'sunspec' },
  // Accumulators: 0 means "not accumulated".
  acc16: { dataType: 'u16', notImplemented: [[0]] },
  acc32: { dataType: 'u32', notImplemented: [[0, 0]] },
  acc64: { dataType: 'u64', notImplemented: [[0, 0, 0, 0]] },
  bitfield16: { dataType: 'bitfield', notImplemented: 'sunspec' },
  bitfield32: { dataType: 'bitfield', notImplemented: 'sunspec' },
  bitfield64: { dataType: 'bitfield', notImplemented: 'sunspec' },
  enum16: { dataType: 'enum', notImplemented: 'sunspec' },
  enum32: { dataType: 'enum', notImplemented: 'sunspec' },
  float32: { dataType: 'float32', notImplemented: 'sunspec' },
  float64: { dataType: 'float64', notImplemented: 'sunspec' },
  string: { dataType: 'string' },
  ipaddr: { dataType: 'u32', notImplemented: [[0, 0]] },
  ipv6addr: { dataType: 'hex' },
  eui48: { dataType: 'hex' },
};

const groupSize = (group: SunSpecGroup): number =>
  (group.points ?? []).reduce((sum, p) => sum + p.size, 0) +
  (group.groups ?? []).reduce((sum, g) => sum + groupSize(g) * (typeof g.count === 'number' && g.count > 0 ? g.count : 1), 0);

/** The fields of one model whose ID register is at wire address `address`. */
export function sunspecModelFields(model: SunSpecModel, address: number, options: SunSpecModelOptions = {}): FieldDefinition[] {
  const fields: FieldDefinition[] = [];
  const prefix = options.keyPrefix ?? '';
  const modelGroup = `setting:${model.group.name}` as const;
  let cursor = address;

  const addGroup = (group: SunSpecGroup, path: string, scope: ReadonlyMap<string, string>) => {
    const local = new Map(scope);
    for (const point of group.points ?? []) local.set(point.name, `${prefix}${path}${point.name}`);
    for (const point of group.points ?? []) {
      const field = pointField(point, cursor, `${prefix}${path}${point.name}`, local, modelGroup);
      if (field) fields.push(field);
      cursor += point.size;
    }
    for (const child of group.groups ?? []) {
      const repeats = repeatCount(child, model, options.length);
      const indexed = child.count !== undefined && child.count !== 1;
      for (let i = 0; i < repeats; i++) addGroup(child, `${path}${child.name}${indexed ? i + 1 : ''}.`, local);
    }
  };
  addGroup(model.group, '', new Map());
  return fields;
}

function repeatCount(group: SunSpecGroup, model: SunSpecModel, length: number | undefined): number {
  if (typeof group.count === 'number' && group.count > 0) return group.count;
  if (group.count === undefined) return 1;
  // count 0 or a point name: as many instances as the model length leaves room for.
  if (length === undefined) return 0;
  const fixed = groupSize({ ...model.group, groups: (model.group.groups ?? []).filter((g) => g !== group) });
  return Math.max(0, Math.floor((length + 2 - fixed) / groupSize(group)));
}

function pointField(
  point: SunSpecPoint,
  address: number,
  key: string,
  scope: ReadonlyMap<string, string>,
  settingGroup: FieldGroup,
): FieldDefinition | null {
  const type = types[point.type];
  if (point.type === 'pad' || !type) return null;
  const writable = point.access === 'RW';
  const label = point.label ?? point.name;
  const field: FieldDefinition = {
    key,
    name: { en: label, es: label },
    functionCode: 3,
    address,
    count: point.size,
    dataType: type.dataType,
    group: writable ? settingGroup : point.static === 'S' ? 'info' : 'realtime',
    ...(type.notImplemented ? { notImplemented: type.notImplemented } : {}),
    ...(point.units ? { unit: point.units } : {}),
    ...(writable ? { access: 'rw' as const } : {}),
    ...(point.mandatory === 'M' ? { required: true } : {}),
  };
  if (typeof point.sf === 'number') field.scale = 10 ** point.sf;
  else if (typeof point.sf === 'string') {
    const sfKey = scope.get(point.sf);
    if (sfKey) field.scaleFactorField = sfKey;
  }
  if (type.dataType === 'enum' && point.symbols) {
    field.enum = Object.fromEntries(point.symbols.map((s) => [s.value, { en: s.label ?? s.name, es: s.label ?? s.name }]));
  }
  if (type.dataType === 'bitfield' && point.symbols) {
    const level: BitLevel = /evt|alm|alrm|flt/i.test(point.name) ? 'fault' : 'info';
    field.bits = Object.fromEntries(
      point.symbols.map((s) => [s.value, { code: `${key}.${s.name}`, level, en: s.label ?? s.name, es: s.label ?? s.name }]),
    );
  }
  return field;
}

/** One model as a definition of its own. */
export function fromSunSpecModel(model: SunSpecModel, address: number, options: SunSpecModelOptions = {}): ProtocolDefinition {
  const label = model.group.label ?? model.group.name;
  return {
    id: `sunspec-${model.id}`,
    name: { en: `SunSpec ${model.id} ${label}`, es: `SunSpec ${model.id} ${label}` },
    version: '1',
    kind: kindOfModel(model.id),
    fields: sunspecModelFields(model, address, options),
  };
}

export interface SunSpecModelLocation {
  id: number;
  /** Wire address of the model's ID register. */
  address: number;
  /** L: registers after ID and L. */
  length: number;
}

/** Several models of one device in one definition, keys prefixed "m<id>." ("m<id>_2." for a repeat). */
export function sunspecDeviceDefinition(
  id: string,
  models: readonly { model: SunSpecModel; location: SunSpecModelLocation }[],
): ProtocolDefinition {
  const seen = new Map<number, number>();
  const fields = models.flatMap(({ model, location }) => {
    const n = (seen.get(model.id) ?? 0) + 1;
    seen.set(model.id, n);
    const keyPrefix = n === 1 ? `m${model.id}.` : `m${model.id}_${n}.`;
    return sunspecModelFields(model, location.address, { length: location.length, keyPrefix });
  });
  const main = models.find(({ model }) => model.id !== 1)?.model.id ?? 1;
  return { id, name: { en: `SunSpec device ${id}`, es: `Equipo SunSpec ${id}` }, version: '1', kind: kindOfModel(main), fields };
}

function kindOfModel(id: number): ProtocolDefinition['kind'] {
  if (id >= 200 && id < 300) return 'meter';
  if (id >= 300 && id < 400) return 'weather';
  if (id === 124 || (id >= 800 && id < 900)) return 'battery';
  return 'inverter';
}

export type RegisterReader = (address: number, count: number) => readonly number[] | undefined;

/** Walks the model chain: "SunS", then ID + L headers until ID 0xFFFF. */
export function walkSunSpecChain(read: RegisterReader, bases: readonly number[] = SUNSPEC_BASES): SunSpecModelLocation[] {
  for (const base of bases) {
    const marker = read(base, 2);
    if (marker?.[0] !== SUNS_MARKER[0] || marker[1] !== SUNS_MARKER[1]) continue;
    const models: SunSpecModelLocation[] = [];
    let address = base + 2;
    while (models.length < 256 && address + 2 <= 0x10000) {
      const header = read(address, 2);
      if (!header || header[0] === undefined || header[1] === undefined || header[0] === 0xffff) break;
      models.push({ id: header[0], address, length: header[1] });
      address += 2 + header[1];
    }
    return models;
  }
  return [];
}

/** A reader over uploaded holding-register blocks (function code 3). */
export function blockReader(blocks: readonly RegisterBlock[]): RegisterReader {
  return (address, count) => {
    for (const block of blocks) {
      const from = address - block.address;
      if (block.functionCode === 3 && from >= 0 && from + count <= block.registers.length) {
        return block.registers.slice(from, from + count);
      }
    }
    return undefined;
  };
}
