// Values → registers: the simulator builds its virtual devices' register banks with this, and
// remote settings turn one writable field into the registers a gateway writes.
import { type CompiledDefinition, type CompiledField, TypeCode } from './compile.ts';
import type { RegisterBlock } from './decode.ts';
import { type FieldDefinition, type FieldGroup, MAX_READ_REGISTERS } from './definition.ts';

export type InputValue = number | string | null | undefined;

export interface SelectOptions {
  /** Only fields of these groups (default: every field). */
  groups?: readonly FieldGroup[];
  /** Unused registers allowed inside one block before it is split (default 8). */
  maxGap?: number;
}

export interface EncodeOptions extends SelectOptions {
  /** Bit codes to set on top of the bitfield values (how the simulator raises a fault). */
  faults?: readonly string[];
}

/** A range a gateway should read. */
export interface RegisterRange {
  functionCode: 3 | 4;
  address: number;
  count: number;
}

/** A Modbus write: function 6 (one register) or 16 (several). */
export interface RegisterWrite {
  functionCode: 6 | 16;
  address: number;
  registers: number[];
}

const utf8 = new TextEncoder();
const view = new DataView(new ArrayBuffer(8));

export function encodeBlocks(
  compiled: CompiledDefinition,
  values: Readonly<Record<string, InputValue>>,
  options: EncodeOptions = {},
): RegisterBlock[] {
  const faultBits = bitsByField(compiled, options.faults ?? []);
  const blocks: RegisterBlock[] = [];
  for (const range of groupRanges(compiled, options)) {
    const registers = new Array<number>(range.count).fill(0);
    for (const f of range.fields) {
      const words = fieldWords(f, values[f.key], scaleFactorOf(compiled, f, values), faultBits.get(f.index));
      for (let k = 0; k < words.length; k++) registers[f.wire - range.address + k] = words[k]!;
    }
    blocks.push({ functionCode: range.functionCode, address: range.address, registers });
  }
  return blocks;
}

export function readRanges(compiled: CompiledDefinition, options: SelectOptions = {}): RegisterRange[] {
  return groupRanges(compiled, options).map(({ functionCode, address, count }) => ({ functionCode, address, count }));
}

/** The write for one writable field, after checking access, type, enum membership and limits. */
export function encodeWrite(compiled: CompiledDefinition, key: string, value: InputValue, scaleFactor = 0): RegisterWrite {
  const f = compiled.byKey.get(key);
  if (!f) throw new Error(`unknown field "${key}"`);
  checkWritable(f.field, value);
  const registers = fieldWords(f, value, scaleFactor);
  return { functionCode: registers.length === 1 ? 6 : 16, address: f.wire, registers };
}

/** Writes for several fields (a setting group), contiguous fields merged into one write. */
export function encodeWrites(
  compiled: CompiledDefinition,
  values: Readonly<Record<string, InputValue>>,
  scaleFactors: Readonly<Record<string, number>> = {},
): RegisterWrite[] {
  const writes = Object.keys(values)
    .map((key) => {
      const sfKey = compiled.byKey.get(key)?.field.scaleFactorField;
      return encodeWrite(compiled, key, values[key], sfKey === undefined ? 0 : (scaleFactors[sfKey] ?? 0));
    })
    .sort((a, b) => a.address - b.address);
  const merged: RegisterWrite[] = [];
  for (const write of writes) {
    const last = merged.at(-1);
    if (last && last.address + last.registers.length === write.address && last.registers.length + write.registers.length <= 123) {
      last.registers.push(...write.registers);
      last.functionCode = 16;
    } else merged.push({ ...write, registers: [...write.registers] });
  }
  return merged;
}

function checkWritable(field: FieldDefinition, value: InputValue): void {
  if (field.access !== 'rw') throw new Error(`field "${field.key}" is not writable`);
  if (field.dataType === 'string' || field.dataType === 'hex') {
    if (typeof value !== 'string') throw new TypeError(`field "${field.key}" needs a string`);
    return;
  }
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new TypeError(`field "${field.key}" needs a number`);
  if (field.enum && !(value in field.enum)) throw new RangeError(`field "${field.key}" has no option ${value}`);
  if ((field.min !== undefined && value < field.min) || (field.max !== undefined && value > field.max)) {
    throw new RangeError(`field "${field.key}" must be within ${field.min ?? '-∞'}..${field.max ?? '∞'}`);
  }
}

interface FieldRange extends RegisterRange {
  fields: CompiledField[];
}

function groupRanges(compiled: CompiledDefinition, options: SelectOptions): FieldRange[] {
  const maxGap = options.maxGap ?? 8;
  const groups = options.groups;
  const selected = compiled.fields
    .filter((f) => !groups || groups.includes(f.field.group))
    .sort((a, b) => a.field.functionCode - b.field.functionCode || a.wire - b.wire);
  const ranges: FieldRange[] = [];
  let current: FieldRange | undefined;
  for (const f of selected) {
    const end = f.wire + f.count;
    if (
      current &&
      current.functionCode === f.field.functionCode &&
      f.wire <= current.address + current.count + maxGap &&
      end - current.address <= MAX_READ_REGISTERS
    ) {
      current.count = Math.max(current.count, end - current.address);
      current.fields.push(f);
    } else {
      current = { functionCode: f.field.functionCode, address: f.wire, count: f.count, fields: [f] };
      ranges.push(current);
    }
  }
  return ranges;
}

function scaleFactorOf(compiled: CompiledDefinition, f: CompiledField, values: Readonly<Record<string, InputValue>>): number {
  if (f.sf < 0) return 0;
  const exponent = values[compiled.fields[f.sf]!.key];
  return typeof exponent === 'number' && Number.isInteger(exponent) ? exponent : 0;
}

function bitsByField(compiled: CompiledDefinition, codes: readonly string[]): Map<number, number[]> {
  const byField = new Map<number, number[]>();
  for (const code of codes) {
    const bit = compiled.bits.get(code);
    if (!bit) throw new Error(`unknown fault code "${code}"`);
    const index = compiled.byKey.get(bit.field)!.index;
    byField.set(index, [...(byField.get(index) ?? []), bit.bit]);
  }
  return byField;
}

/** The field's registers in wire order. */
export function fieldWords(
  f: CompiledField,
  value: InputValue,
  scaleFactor: number,
  extraBits: readonly number[] = [],
): number[] {
  const absent = value === null || value === undefined;
  // Bits to set make the bitfield present: they start from no bits, not from its "not available" sentinel.
  const logical = absent
    ? f.type === TypeCode.Bitfield && extraBits.length > 0
      ? new Array<number>(f.count).fill(0)
      : absentWords(f)
    : logicalWords(f, value, scaleFactor);
  if (f.type === TypeCode.Bitfield) {
    for (const bit of extraBits) logical[f.count - 1 - (bit >> 4)]! |= 1 << (bit & 15);
  }
  const wire = new Array<number>(f.count);
  for (let k = 0; k < f.count; k++) {
    const w = logical[k]! & 0xffff;
    wire[f.wordSwap ? f.count - 1 - k : k] = f.byteSwap ? ((w & 0xff) << 8) | (w >>> 8) : w;
  }
  return wire;
}

function absentWords(f: CompiledField): number[] {
  if (f.sentinels !== null) return Array.from(f.sentinels.subarray(0, f.count));
  if (f.nanIsNull && f.type === TypeCode.Float32) return [0x7fc0, 0];
  if (f.nanIsNull && f.type === TypeCode.Float64) return [0x7ff8, 0, 0, 0];
  return new Array<number>(f.count).fill(0);
}

function logicalWords(f: CompiledField, value: number | string, scaleFactor: number): number[] {
  if (f.type === TypeCode.Text) return textWords(f, utf8.encode(String(value)));
  if (f.type === TypeCode.Hex) return textWords(f, hexBytes(String(value)));
  const input = Number(value);
  if (f.type === TypeCode.Enum || f.type === TypeCode.Bitfield) return integerWords(f.count, Math.round(input), false);
  let raw = (input - f.offset) * f.divisor;
  if (f.multiplier !== 1) raw /= f.multiplier;
  if (scaleFactor !== 0) raw = scaleFactor > 0 ? raw / 10 ** scaleFactor : raw * 10 ** -scaleFactor;
  switch (f.type) {
    case TypeCode.Float32:
      view.setFloat32(0, raw);
      return [view.getUint16(0), view.getUint16(2)];
    case TypeCode.Float64:
      view.setFloat64(0, raw);
      return [view.getUint16(0), view.getUint16(2), view.getUint16(4), view.getUint16(6)];
    case TypeCode.U16:
      return [clamp(raw, 0, f.lowByte ? 0xff : 0xffff)];
    case TypeCode.S16:
      return [clamp(raw, f.lowByte ? -0x80 : -0x8000, f.lowByte ? 0x7f : 0x7fff) & (f.lowByte ? 0xff : 0xffff)];
    default:
      return integerWords(f.count, Math.round(raw), f.type === TypeCode.S32 || f.type === TypeCode.S64);
  }
}

function clamp(raw: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, Math.round(raw)));
}

/** A whole number as `count` registers, most significant first, clamped to the type's range. */
function integerWords(count: number, raw: number, signed: boolean): number[] {
  const bits = BigInt(count * 16);
  const min = signed ? -(1n << (bits - 1n)) : 0n;
  const max = signed ? (1n << (bits - 1n)) - 1n : (1n << bits) - 1n;
  let big = BigInt(Number.isFinite(raw) ? raw : 0);
  big = big < min ? min : big > max ? max : big;
  big = BigInt.asUintN(count * 16, big);
  const words = new Array<number>(count);
  for (let k = count - 1; k >= 0; k--) {
    words[k] = Number(big & 0xffffn);
    big >>= 16n;
  }
  return words;
}

function textWords(f: CompiledField, bytes: Uint8Array): number[] {
  const buffer = new Uint8Array(f.count * 2);
  buffer.set(bytes.subarray(0, buffer.length - f.skipBytes), f.skipBytes);
  const words: number[] = [];
  for (let i = 0; i < buffer.length; i += 2) words.push((buffer[i]! << 8) | buffer[i + 1]!);
  return words;
}

function hexBytes(text: string): Uint8Array {
  return Uint8Array.from(text.split(/\s+/).filter(Boolean), (token) => Number.parseInt(token.replace(/^0x/i, ''), 16) & 0xff);
}
