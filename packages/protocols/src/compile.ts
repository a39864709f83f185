// Turns a definition into flat lookup tables once, so that decoding a frame is a tight loop over
// typed arrays: no map lookups, no string building, no per-field closures allocated per call.
import {
  assertValidDefinition,
  type BitDefinition,
  type DataType,
  type FieldDefinition,
  type FunctionCode,
  type ProtocolDefinition,
  wireAddress,
} from './definition.ts';

export const TypeCode = {
  U16: 0,
  S16: 1,
  U32: 2,
  S32: 3,
  U64: 4,
  S64: 5,
  Float32: 6,
  Float64: 7,
  Text: 8,
  Hex: 9,
  Bitfield: 10,
  Enum: 11,
} as const;
export type TypeCode = (typeof TypeCode)[keyof typeof TypeCode];

const typeCodes: Record<DataType, TypeCode> = {
  u16: TypeCode.U16,
  s16: TypeCode.S16,
  u32: TypeCode.U32,
  s32: TypeCode.S32,
  u64: TypeCode.U64,
  s64: TypeCode.S64,
  float32: TypeCode.Float32,
  float64: TypeCode.Float64,
  string: TypeCode.Text,
  hex: TypeCode.Hex,
  bitfield: TypeCode.Bitfield,
  enum: TypeCode.Enum,
};

/** The registers of one function code that the definition touches, copied in from each frame. */
export interface RegisterTable {
  readonly functionCode: FunctionCode;
  /** Wire address of words[0]. */
  readonly start: number;
  readonly words: Uint16Array;
  /** stamp[i] === generation when words[i] came from the frame being decoded. */
  readonly stamp: Uint32Array;
  /** mapped[i] === 1 when words[i] belongs to a field (a table spans the gaps between fields too). */
  readonly mapped: Uint8Array;
}

export interface CompiledField {
  readonly index: number;
  readonly key: string;
  readonly field: FieldDefinition;
  readonly table: RegisterTable;
  /** Offset of the field's first register in its table. */
  readonly at: number;
  readonly wire: number;
  readonly count: number;
  readonly type: TypeCode;
  readonly wordSwap: boolean;
  readonly byteSwap: boolean;
  /** skipBytes 1 on a 16-bit number: the value is the low byte. */
  readonly lowByte: boolean;
  readonly skipBytes: number;
  /** scale split so that 0.1 divides by 10 (exact) instead of multiplying by 0.1 (not exact). */
  readonly multiplier: number;
  readonly divisor: number;
  readonly offset: number;
  /** Index of the scale factor field, or -1. */
  readonly sf: number;
  /** Not-implemented patterns, `count` words each, most significant first; null when none. */
  readonly sentinels: Uint16Array | null;
  readonly nanIsNull: boolean;
  readonly required: boolean;
  /** Fault code reported for each bit of a bitfield (unmapped bits: "<key>.bit<n>"). */
  readonly bitCodes: readonly string[] | null;
}

export interface CompiledDefinition {
  readonly definition: ProtocolDefinition;
  readonly fields: readonly CompiledField[];
  readonly byKey: ReadonlyMap<string, CompiledField>;
  /** Fields other fields use as scale factor: decoded first. */
  readonly scaleFactorFields: readonly CompiledField[];
  readonly tables: readonly RegisterTable[];
  readonly table3: RegisterTable | null;
  readonly table4: RegisterTable | null;
  readonly bits: ReadonlyMap<string, BitDefinition & { field: string; bit: number }>;
}

export function compileDefinition(definition: ProtocolDefinition): CompiledDefinition {
  assertValidDefinition(definition);
  const table3 = buildTable(definition, 3);
  const table4 = buildTable(definition, 4);
  const keyIndex = new Map(definition.fields.map((field, index) => [field.key, index]));
  const fields = definition.fields.map((field, index): CompiledField => {
    const table = (field.functionCode === 3 ? table3 : table4)!;
    const wire = wireAddress(definition, field);
    const { multiplier, divisor } = splitScale(field.scale ?? 1);
    const skipBytes = field.skipBytes ?? 0;
    const type = typeCodes[field.dataType];
    return {
      index,
      key: field.key,
      field,
      table,
      at: wire - table.start,
      wire,
      count: field.count,
      type,
      wordSwap: field.wordSwap === true,
      byteSwap: field.byteSwap === true,
      lowByte: skipBytes === 1 && field.count === 1 && type !== TypeCode.Text && type !== TypeCode.Hex,
      skipBytes,
      multiplier,
      divisor,
      offset: field.offset ?? 0,
      sf: field.scaleFactorField === undefined ? -1 : keyIndex.get(field.scaleFactorField)!,
      sentinels: sentinelPatterns(field),
      nanIsNull: field.notImplemented === 'sunspec',
      required: field.required === true,
      bitCodes: field.dataType === 'bitfield' ? bitCodes(field) : null,
    };
  });
  const scaleFactorIndexes = new Set(fields.filter((f) => f.sf >= 0).map((f) => f.sf));
  const bits = new Map<string, BitDefinition & { field: string; bit: number }>();
  for (const field of definition.fields) {
    for (const [bit, meaning] of Object.entries(field.bits ?? {})) {
      bits.set(meaning.code, { ...meaning, field: field.key, bit: Number(bit) });
    }
  }
  return {
    definition,
    fields,
    byKey: new Map(fields.map((f) => [f.key, f])),
    scaleFactorFields: [...scaleFactorIndexes].sort((a, b) => a - b).map((i) => fields[i]!),
    tables: [table3, table4].filter((t): t is RegisterTable => t !== null),
    table3,
    table4,
    bits,
  };
}

function buildTable(definition: ProtocolDefinition, functionCode: FunctionCode): RegisterTable | null {
  let start = Number.POSITIVE_INFINITY;
  let end = Number.NEGATIVE_INFINITY;
  for (const field of definition.fields) {
    if (field.functionCode !== functionCode) continue;
    const wire = wireAddress(definition, field);
    start = Math.min(start, wire);
    end = Math.max(end, wire + field.count);
  }
  if (start > end) return null;
  const mapped = new Uint8Array(end - start);
  for (const field of definition.fields) {
    if (field.functionCode === functionCode)
      mapped.fill(1, wireAddress(definition, field) - start, wireAddress(definition, field) - start + field.count);
  }
  return { functionCode, start, words: new Uint16Array(end - start), stamp: new Uint32Array(end - start), mapped };
}

function splitScale(scale: number): { multiplier: number; divisor: number } {
  if (Math.abs(scale) < 1) {
    const reciprocal = Math.round(1 / scale);
    if (Math.abs(reciprocal * scale - 1) < 1e-12) return { multiplier: 1, divisor: reciprocal };
  }
  return { multiplier: scale, divisor: 1 };
}

const sunspecSentinels: Partial<Record<DataType, readonly number[]>> = {
  u16: [0xffff],
  s16: [0x8000],
  enum: [0xffff],
  u32: [0xffff, 0xffff],
  s32: [0x8000, 0],
  u64: [0xffff, 0xffff, 0xffff, 0xffff],
  s64: [0x8000, 0, 0, 0],
};

function sentinelPatterns(field: FieldDefinition): Uint16Array | null {
  let patterns: readonly (readonly number[])[];
  if (field.notImplemented === 'sunspec') {
    if (field.dataType === 'enum' || field.dataType === 'bitfield') patterns = [new Array(field.count).fill(0xffff)];
    else {
      const pattern = sunspecSentinels[field.dataType];
      patterns = pattern ? [pattern] : [];
    }
  } else patterns = field.notImplemented ?? [];
  if (patterns.length === 0) return null;
  return Uint16Array.from(patterns.flat());
}

function bitCodes(field: FieldDefinition): string[] {
  const codes: string[] = [];
  for (let bit = 0; bit < field.count * 16; bit++) codes.push(field.bits?.[bit]?.code ?? `${field.key}.bit${bit}`);
  return codes;
}
