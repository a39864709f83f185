// A protocol definition is a named register map: which Modbus registers a device exposes, how
// to turn their raw words into engineering values, and which of them may be written.

export type DeviceKind = 'inverter' | 'battery' | 'meter' | 'weather' | 'gateway';

/** 3 = holding registers (read/write), 4 = input registers (read only). */
export type FunctionCode = 3 | 4;

export type DataType =
  | 'u16'
  | 's16'
  | 'u32'
  | 's32'
  | 'u64'
  | 's64'
  | 'float32'
  | 'float64'
  | 'string'
  | 'hex'
  | 'bitfield'
  | 'enum';

/** realtime: telemetry of every upload; info: identity and nameplate; setting:<group>: a remote setting group. */
export type FieldGroup = 'realtime' | 'info' | `setting:${string}`;

export type BitLevel = 'fault' | 'warning' | 'info';

export interface LocalizedText {
  en: string;
  es: string;
}

export interface BitDefinition {
  /** Unique within the definition; this is what `decode` reports in `faults`. */
  code: string;
  level: BitLevel;
  en: string;
  es: string;
}

export interface FieldDefinition {
  key: string;
  name: LocalizedText;
  unit?: string;
  functionCode: FunctionCode;
  /** Register address as documented by the vendor; the wire address is `address - base`. */
  address: number;
  count: number;
  dataType: DataType;
  /** Swap the two bytes inside every register. */
  byteSwap?: boolean;
  /** Reverse the order of the registers (low word first, as Solarman maps list them). */
  wordSwap?: boolean;
  /** Address base of the vendor documentation (0, 1, 40001 ...). Overrides the definition's base. */
  base?: number;
  /** value = raw × scale × 10^sf + offset */
  scale?: number;
  offset?: number;
  /** Leading bytes to ignore: 1 on a 16-bit field reads the low byte only; any count on strings. */
  skipBytes?: number;
  /** A required field whose registers are absent from a frame is listed in `missing`. */
  required?: boolean;
  /** Key of an s16 field holding a power-of-ten exponent (SunSpec `*_SF`). */
  scaleFactorField?: string;
  /**
   * Raw values meaning "not implemented", decoded as null. 'sunspec' takes the SunSpec sentinel
   * of the data type (0xFFFF u16, 0x8000 s16, 0xFFFFFFFF u32, 0x80000000 s32, NaN float ...);
   * otherwise a list of register patterns, most significant register first.
   */
  notImplemented?: 'sunspec' | readonly (readonly number[])[];
  enum?: Readonly<Record<number, LocalizedText>>;
  /** Bit number (0 = least significant bit of the whole field) → meaning. */
  bits?: Readonly<Record<number, BitDefinition>>;
  access?: 'r' | 'rw';
  group: FieldGroup;
  /** Limits of a writable field, in engineering units. */
  min?: number;
  max?: number;
  /** Smallest change of a writable field, in engineering units (a value must be min + k × step). */
  step?: number;
}

export interface ProtocolDefinition {
  id: string;
  name: LocalizedText;
  version: string;
  kind: DeviceKind;
  /** Default address base of every field. */
  base?: number;
  /**
   * The remote-setting family this device speaks (`mt`, `gy`, `dyStore`, `dyStore3p`, `asw`,
   * `uneet`, `dyGrid`): its `setting:<group>` fields are that family's groups.
   */
  settingFamily?: string;
  fields: readonly FieldDefinition[];
}

/** Registers one Modbus read returns at most (function codes 3 and 4). */
export const MAX_READ_REGISTERS = 125;

const fixedCounts: Partial<Record<DataType, readonly number[]>> = {
  u16: [1],
  s16: [1],
  u32: [2],
  s32: [2],
  float32: [2],
  u64: [4],
  s64: [4],
  float64: [4],
  enum: [1, 2],
  bitfield: [1, 2, 3, 4],
};

export function wireAddress(definition: ProtocolDefinition, field: FieldDefinition): number {
  return field.address - (field.base ?? definition.base ?? 0);
}

export function isSettingGroup(group: string): group is `setting:${string}` {
  return group.startsWith('setting:') && group.length > 'setting:'.length;
}

/** Every problem found, one sentence each; an empty list means the definition is usable. */
export function validateDefinition(definition: ProtocolDefinition): string[] {
  const problems: string[] = [];
  if (!definition.id) problems.push('definition has no id');
  if (!definition.name?.en || !definition.name?.es) problems.push('definition name needs en and es');
  if (definition.fields.length === 0) problems.push('definition has no fields');
  const byKey = new Map<string, FieldDefinition>();
  for (const field of definition.fields) {
    if (byKey.has(field.key)) problems.push(`duplicate field key "${field.key}"`);
    byKey.set(field.key, field);
  }
  const bitCodes = new Set<string>();
  for (const field of definition.fields) {
    for (const problem of fieldProblems(definition, field, byKey)) problems.push(`${field.key}: ${problem}`);
    for (const bit of Object.values(field.bits ?? {})) {
      if (bitCodes.has(bit.code)) problems.push(`${field.key}: duplicate bit code "${bit.code}"`);
      bitCodes.add(bit.code);
    }
  }
  problems.push(...overlaps(definition));
  return problems;
}

export function assertValidDefinition(definition: ProtocolDefinition): void {
  const problems = validateDefinition(definition);
  if (problems.length > 0) {
    throw new Error(`invalid protocol definition "${definition.id}":\n  ${problems.join('\n  ')}`);
  }
}

function fieldProblems(
  definition: ProtocolDefinition,
  field: FieldDefinition,
  byKey: ReadonlyMap<string, FieldDefinition>,
): string[] {
  const problems: string[] = [];
  if (!field.key) problems.push('empty key');
  if (field.key === '__proto__') problems.push('"__proto__" cannot be a key');
  if (!field.name?.en || !field.name?.es) problems.push('name needs en and es');
  if (field.functionCode !== 3 && field.functionCode !== 4) problems.push(`function code ${field.functionCode} is not 3 or 4`);
  const wire = wireAddress(definition, field);
  if (!Number.isInteger(field.count) || field.count < 1 || field.count > MAX_READ_REGISTERS) {
    problems.push(`register count ${field.count} out of 1..${MAX_READ_REGISTERS}`);
  } else if (!Number.isInteger(wire) || wire < 0 || wire + field.count > 0x10000) {
    problems.push(`registers ${wire}..${wire + field.count - 1} out of the 0..65535 address space`);
  }
  const counts = fixedCounts[field.dataType];
  if (counts && !counts.includes(field.count)) problems.push(`${field.dataType} needs ${counts.join(' or ')} registers`);
  const skip = field.skipBytes ?? 0;
  const textual = field.dataType === 'string' || field.dataType === 'hex';
  if (!Number.isInteger(skip) || skip < 0) problems.push('skipBytes must be a whole number');
  else if (textual ? skip >= field.count * 2 : skip > 0 && !(skip === 1 && field.count === 1 && isSmallInteger(field)))
    problems.push(`skipBytes ${skip} not allowed on ${field.dataType} of ${field.count} registers`);
  if (field.scale !== undefined && (!Number.isFinite(field.scale) || field.scale === 0))
    problems.push('scale must be finite and not 0');
  if (field.offset !== undefined && !Number.isFinite(field.offset)) problems.push('offset must be finite');
  if (field.scaleFactorField !== undefined) {
    const sf = byKey.get(field.scaleFactorField);
    if (!sf) problems.push(`unknown scale factor field "${field.scaleFactorField}"`);
    else if (sf === field) problems.push('is its own scale factor');
    else if (sf.dataType !== 's16' || sf.scaleFactorField !== undefined || (sf.scale ?? 1) !== 1 || (sf.offset ?? 0) !== 0)
      problems.push(`scale factor field "${sf.key}" must be a plain s16`);
  }
  if (field.enum && field.dataType !== 'enum') problems.push('enum map on a field that is not an enum');
  if (field.bits) {
    if (field.dataType !== 'bitfield') problems.push('bit map on a field that is not a bitfield');
    for (const bit of Object.keys(field.bits).map(Number)) {
      if (!Number.isInteger(bit) || bit < 0 || bit >= field.count * 16) problems.push(`bit ${bit} outside the field`);
    }
  }
  if (Array.isArray(field.notImplemented)) {
    for (const pattern of field.notImplemented as readonly (readonly number[])[]) {
      if (pattern.length !== field.count) problems.push('notImplemented pattern length differs from the register count');
    }
  }
  if (field.group !== 'realtime' && field.group !== 'info' && !isSettingGroup(field.group))
    problems.push(`unknown group "${field.group}"`);
  if (field.access === 'rw' && field.functionCode !== 3)
    problems.push('writable fields must be holding registers (function code 3)');
  if (field.min !== undefined && field.max !== undefined && field.min > field.max) problems.push('min is above max');
  return problems;
}

function isSmallInteger(field: FieldDefinition): boolean {
  return field.dataType === 'u16' || field.dataType === 's16' || field.dataType === 'enum';
}

function overlaps(definition: ProtocolDefinition): string[] {
  const problems: string[] = [];
  const sorted = definition.fields
    .map((field) => ({ field, wire: wireAddress(definition, field) }))
    .sort((a, b) => a.field.functionCode - b.field.functionCode || a.wire - b.wire);
  let reach: { field: FieldDefinition; end: number } | undefined;
  for (const { field, wire } of sorted) {
    if (reach && reach.field.functionCode === field.functionCode && wire < reach.end) {
      problems.push(`${field.key}: overlaps ${reach.field.key} at register ${wire}`);
    }
    const end = wire + field.count;
    if (!reach || reach.field.functionCode !== field.functionCode || end > reach.end) reach = { field, end };
  }
  return problems;
}
