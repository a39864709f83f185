// Register blocks → named values. The hot path: copy each block into the compiled register
// tables (stamping which words arrived), then read every field at its precomputed offset.
import { type CompiledDefinition, type CompiledField, TypeCode } from './compile.ts';

/** One Modbus read as a gateway uploads it: function code 3 or 4, wire address, words. */
export interface RegisterBlock {
  functionCode: number;
  address: number;
  registers: readonly number[];
}

export type FieldValue = number | string | null;

export interface DecodedFrame {
  /** Every field of the definition: null when absent from the frame or "not implemented". */
  values: Record<string, FieldValue>;
  /** Codes of the bitfield bits that are set, lowest bit first, fields in definition order. */
  faults: string[];
  /** Required fields whose registers were not in the frame. */
  missing: string[];
}

const POW10 = Array.from({ length: 23 }, (_, i) => 10 ** i);
const view = new DataView(new ArrayBuffer(8));
const textBytes = new Uint8Array(256);
const utf8 = new TextDecoder('utf-8');
const HEX = Array.from({ length: 256 }, (_, i) => `0x${i.toString(16).toUpperCase().padStart(2, '0')}`);

export class FrameDecoder {
  private generation = 0;
  private readonly scaleFactors: Float64Array;
  private readonly emptyValues: () => Record<string, FieldValue>;

  constructor(private readonly compiled: CompiledDefinition) {
    this.scaleFactors = new Float64Array(compiled.fields.length);
    // Objects grown key by key past a dozen properties drop to slow dictionary mode, which cost
    // more than all the decoding. An object literal with every key (quoted by JSON.stringify)
    // gives every result one fast, fixed shape.
    const literal = compiled.fields.map((f) => `${JSON.stringify(f.key)}: null`).join(', ');
    this.emptyValues = new Function(`return { ${literal} };`) as () => Record<string, FieldValue>;
  }

  decode(blocks: readonly RegisterBlock[]): DecodedFrame {
    const generation = this.load(blocks);
    const scaleFactors = this.scaleFactors;
    for (const f of this.compiled.scaleFactorFields) {
      scaleFactors[f.index] = isPresent(f, generation) && !isSentinel(f) ? (word(f, 0) << 16) >> 16 : Number.NaN;
    }
    const values: Record<string, FieldValue> = this.emptyValues();
    const faults: string[] = [];
    const missing: string[] = [];
    for (const f of this.compiled.fields) {
      if (!isPresent(f, generation)) {
        if (f.required) missing.push(f.key);
      } else if (f.sentinels === null || !isSentinel(f)) values[f.key] = readField(f, scaleFactors, faults);
    }
    return { values, faults, missing };
  }

  private load(blocks: readonly RegisterBlock[]): number {
    if (++this.generation > 0xfffffff0) {
      for (const table of this.compiled.tables) table.stamp.fill(0);
      this.generation = 1;
    }
    const generation = this.generation;
    const { table3, table4 } = this.compiled;
    for (const block of blocks) {
      const table = block.functionCode === 3 ? table3 : block.functionCode === 4 ? table4 : null;
      if (table === null) continue;
      const registers = block.registers;
      const from = block.address - table.start;
      const first = from < 0 ? -from : 0;
      const last = Math.min(registers.length, table.words.length - from);
      const words = table.words;
      const stamp = table.stamp;
      for (let i = first; i < last; i++) {
        words[from + i] = registers[i]! & 0xffff;
        stamp[from + i] = generation;
      }
    }
    return generation;
  }
}

function isPresent(f: CompiledField, generation: number): boolean {
  const stamp = f.table.stamp;
  for (let i = f.at, end = f.at + f.count; i < end; i++) if (stamp[i] !== generation) return false;
  return true;
}

/** The k-th register of the field, most significant first, after word and byte swapping. */
export function word(f: CompiledField, k: number): number {
  const w = f.table.words[f.wordSwap ? f.at + f.count - 1 - k : f.at + k]!;
  return f.byteSwap ? ((w & 0xff) << 8) | (w >>> 8) : w;
}

function isSentinel(f: CompiledField): boolean {
  const patterns = f.sentinels;
  if (patterns === null) return false;
  const count = f.count;
  for (let p = 0; p < patterns.length; p += count) {
    let k = 0;
    while (k < count && word(f, k) === patterns[p + k]) k++;
    if (k === count) return true;
  }
  return false;
}

function readField(f: CompiledField, scaleFactors: Float64Array, faults: string[]): FieldValue {
  let raw: number;
  switch (f.type) {
    case TypeCode.U16:
      raw = f.lowByte ? word(f, 0) & 0xff : word(f, 0);
      break;
    case TypeCode.S16:
      raw = f.lowByte ? (word(f, 0) << 24) >> 24 : (word(f, 0) << 16) >> 16;
      break;
    case TypeCode.U32:
      raw = word(f, 0) * 0x10000 + word(f, 1);
      break;
    case TypeCode.S32:
      raw = (word(f, 0) << 16) | word(f, 1);
      break;
    case TypeCode.U64:
      raw = (word(f, 0) * 0x10000 + word(f, 1)) * 0x100000000 + (word(f, 2) * 0x10000 + word(f, 3));
      break;
    case TypeCode.S64:
      raw = ((word(f, 0) << 16) | word(f, 1)) * 0x100000000 + (word(f, 2) * 0x10000 + word(f, 3));
      break;
    case TypeCode.Float32:
      view.setUint16(0, word(f, 0));
      view.setUint16(2, word(f, 1));
      raw = view.getFloat32(0);
      if (f.nanIsNull && Number.isNaN(raw)) return null;
      break;
    case TypeCode.Float64:
      for (let k = 0; k < 4; k++) view.setUint16(k * 2, word(f, k));
      raw = view.getFloat64(0);
      if (f.nanIsNull && Number.isNaN(raw)) return null;
      break;
    case TypeCode.Enum:
      return f.count === 1 ? (f.lowByte ? word(f, 0) & 0xff : word(f, 0)) : word(f, 0) * 0x10000 + word(f, 1);
    case TypeCode.Bitfield:
      return readBits(f, faults);
    case TypeCode.Text:
      return readText(f);
    default:
      return readHex(f);
  }
  return scaled(f, raw, scaleFactors);
}

function scaled(f: CompiledField, raw: number, scaleFactors: Float64Array): number | null {
  let multiplier = f.multiplier;
  let divisor = f.divisor;
  if (f.sf >= 0) {
    const exponent = scaleFactors[f.sf]!;
    if (!(exponent >= -22 && exponent <= 22)) return null; // absent, not implemented or absurd
    if (exponent < 0) divisor *= POW10[-exponent]!;
    else multiplier *= POW10[exponent]!;
  }
  let value = raw;
  if (multiplier !== 1) value *= multiplier;
  if (divisor !== 1) value /= divisor;
  return value + f.offset;
}

function readBits(f: CompiledField, faults: string[]): number {
  const codes = f.bitCodes!;
  let value = 0;
  for (let k = 0; k < f.count; k++) value = value * 0x10000 + word(f, k);
  for (let k = f.count - 1; k >= 0; k--) {
    let w = word(f, k);
    const base = (f.count - 1 - k) * 16;
    while (w !== 0) {
      const lowest = w & -w;
      faults.push(codes[base + 31 - Math.clz32(lowest)]!);
      w ^= lowest;
    }
  }
  return value;
}

/** Bytes of the field after swaps, minus skipped bytes, into the shared scratch buffer. */
function fieldBytes(f: CompiledField): number {
  let n = 0;
  for (let k = 0; k < f.count; k++) {
    const w = word(f, k);
    textBytes[n++] = w >>> 8;
    textBytes[n++] = w & 0xff;
  }
  return n;
}

function readText(f: CompiledField): string {
  const length = fieldBytes(f);
  let end = f.skipBytes;
  let ascii = true;
  while (end < length && textBytes[end] !== 0) {
    if (textBytes[end]! >= 0x80) ascii = false;
    end++;
  }
  while (end > f.skipBytes && textBytes[end - 1] === 0x20) end--;
  if (!ascii) return utf8.decode(textBytes.subarray(f.skipBytes, end));
  let text = '';
  for (let i = f.skipBytes; i < end; i++) text += String.fromCharCode(textBytes[i]!);
  return text;
}

function readHex(f: CompiledField): string {
  const length = fieldBytes(f);
  const parts: string[] = [];
  for (let i = f.skipBytes; i < length; i++) parts.push(HEX[textBytes[i]!]!);
  return parts.join(' ');
}

/**
 * Whether a block reads none of the definition's registers (another function code, an address
 * range the map does not have, or only the gaps between its fields): such a block is not a read
 * of this device's map, and decoding it would yield a frame without values.
 */
export function isUnmappedBlock(compiled: CompiledDefinition, block: RegisterBlock): boolean {
  const table = block.functionCode === 3 ? compiled.table3 : block.functionCode === 4 ? compiled.table4 : null;
  if (table === null) return true;
  const from = Math.max(block.address - table.start, 0);
  const to = Math.min(block.address - table.start + block.registers.length, table.mapped.length);
  for (let i = from; i < to; i++) if (table.mapped[i] === 1) return false;
  return true;
}

/** Why a block from the wire cannot be decoded, or null when it is well formed. */
export function registerBlockProblem(block: unknown): string | null {
  if (typeof block !== 'object' || block === null) return 'block is not an object';
  const { functionCode, address, registers } = block as Partial<RegisterBlock>;
  if (functionCode !== 3 && functionCode !== 4) return 'functionCode must be 3 or 4';
  if (!Number.isInteger(address) || address! < 0 || address! > 0xffff) return 'address must be 0..65535';
  if (!Array.isArray(registers) || registers.length === 0) return 'registers must be a non-empty array';
  if (address! + registers.length > 0x10000) return 'registers run past address 65535';
  for (const r of registers) if (!Number.isInteger(r) || r < 0 || r > 0xffff) return 'registers must be integers 0..65535';
  return null;
}
