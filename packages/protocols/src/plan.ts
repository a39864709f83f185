// compile(definition) → a ProtocolPlan: the one object the server (decode, writes, reads) and
// the simulator (encode) hold per protocol.
import { type CompiledDefinition, compileDefinition } from './compile.ts';
import { type DecodedFrame, FrameDecoder, isUnmappedBlock, type RegisterBlock } from './decode.ts';
import type { BitDefinition, FieldDefinition, ProtocolDefinition } from './definition.ts';
import {
  type EncodeOptions,
  encodeBlocks,
  encodeWrite,
  encodeWrites,
  type InputValue,
  type RegisterRange,
  type RegisterWrite,
  readRanges,
  type SelectOptions,
} from './encode.ts';

export interface BitMeaning extends BitDefinition {
  /** Key of the bitfield the bit belongs to. */
  field: string;
  bit: number;
}

export class ProtocolPlan {
  readonly definition: ProtocolDefinition;
  private readonly compiled: CompiledDefinition;
  private readonly decoder: FrameDecoder;

  constructor(definition: ProtocolDefinition) {
    this.definition = definition;
    this.compiled = compileDefinition(definition);
    this.decoder = new FrameDecoder(this.compiled);
  }

  /** Register blocks of one upload → values, set fault bits and missing required fields. Not re-entrant-safe across threads; synchronous. */
  decode(blocks: readonly RegisterBlock[]): DecodedFrame {
    return this.decoder.decode(blocks);
  }

  /** Index of the first block that reads none of the map's registers, or -1 when every block reads some. */
  unmappedBlock(blocks: readonly RegisterBlock[]): number {
    for (let i = 0; i < blocks.length; i++) if (isUnmappedBlock(this.compiled, blocks[i]!)) return i;
    return -1;
  }

  /** Values → register blocks (contiguous per function code, at most 125 registers each). */
  encode(values: Readonly<Record<string, InputValue>>, options?: EncodeOptions): RegisterBlock[] {
    return encodeBlocks(this.compiled, values, options);
  }

  /** The Modbus write that sets one writable field; throws on read-only fields and out-of-range values. */
  encodeField(key: string, value: InputValue, scaleFactor?: number): RegisterWrite {
    return encodeWrite(this.compiled, key, value, scaleFactor);
  }

  /** The writes that set several writable fields, e.g. a remote setting group. */
  encodeWrites(values: Readonly<Record<string, InputValue>>, scaleFactors?: Readonly<Record<string, number>>): RegisterWrite[] {
    return encodeWrites(this.compiled, values, scaleFactors);
  }

  /** The reads that cover the selected groups, e.g. ['realtime'] or ['setting:batt']. */
  readRanges(options?: SelectOptions): RegisterRange[] {
    return readRanges(this.compiled, options);
  }

  field(key: string): FieldDefinition | undefined {
    return this.compiled.byKey.get(key)?.field;
  }

  /** What a code in `faults` means: level, en/es text, field and bit. */
  bit(code: string): BitMeaning | undefined {
    return this.compiled.bits.get(code);
  }

  /** Setting groups of the definition ('batt', 'workMode' ...), in definition order. */
  settingGroups(): string[] {
    const groups = new Set<string>();
    for (const field of this.definition.fields) if (field.group.startsWith('setting:')) groups.add(field.group.slice(8));
    return [...groups];
  }
}

export function compile(definition: ProtocolDefinition): ProtocolPlan {
  return new ProtocolPlan(definition);
}
