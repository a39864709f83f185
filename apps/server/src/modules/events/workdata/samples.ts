/**
 * Reading a device's samples: keyset pages on (device_id, ts) — the primary key, so every page is
 * an index range whatever its position — with the chosen values of each row: stored columns as
 * they are, other parameters decoded from the row's register blocks (`raw`, JSON
 * [[fc, addr, "hex"], …]) with the protocol's compiled decoder. `raw` is read only when a
 * chosen parameter needs it. Signed power is turned into the one convention here (the
 * parameter's `sign`), so the table, the chart, the events' readings and the download read it alike.
 */
import type { RegisterBlock } from '@sunfleet/protocols';
import type { Db } from '../../../db/index.ts';
import { sampleAtOrBefore, sampleCount, samplesPage } from '../../../energy/samples.ts';
import { inConvention } from '../../devices/signed-power.ts';
import type { DeviceParams, ResolvedParam } from './params.ts';

export type Value = number | string | null;
export interface SampleRow {
  ts: number;
  values: Value[];
}

const HEX = new Int8Array(128).fill(-1);
for (let i = 0; i < 16; i++) {
  HEX['0123456789abcdef'.charCodeAt(i)] = i;
  HEX['0123456789ABCDEF'.charCodeAt(i)] = i;
}

/** The register blocks of a stored `raw`; malformed input gives no blocks (all values null). */
export function parseRaw(raw: string): RegisterBlock[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  const blocks: RegisterBlock[] = [];
  for (const b of parsed) {
    if (!Array.isArray(b) || typeof b[0] !== 'number' || typeof b[1] !== 'number' || typeof b[2] !== 'string') continue;
    const hex = b[2];
    const count = hex.length >> 2;
    const registers = new Array<number>(count);
    for (let i = 0, c = 0; i < count; i++, c += 4) {
      registers[i] =
        ((HEX[hex.charCodeAt(c)]! << 12) |
          (HEX[hex.charCodeAt(c + 1)]! << 8) |
          (HEX[hex.charCodeAt(c + 2)]! << 4) |
          HEX[hex.charCodeAt(c + 3)]!) &
        0xffff;
    }
    blocks.push({ functionCode: b[0], address: b[1], registers });
  }
  return blocks;
}

/** Scaled register values carry float noise (230.10000000000002): six decimals are plenty. */
const tidy = (v: unknown): Value => {
  if (typeof v === 'number') return Number.isFinite(v) ? (Number.isInteger(v) ? v : Math.round(v * 1e6) / 1e6) : null;
  return typeof v === 'string' ? v : null;
};

export class SampleReader {
  readonly needsRaw: boolean;
  private readonly columns: string[];

  constructor(
    private readonly params: DeviceParams,
    private readonly chosen: readonly ResolvedParam[],
    private readonly deviceId: number,
  ) {
    this.needsRaw = chosen.some((p) => p.column === null);
    this.columns = [...new Set(chosen.flatMap((p) => (p.column ? [p.column] : [])))];
  }

  /** The columns read: the chosen stored ones, and `raw` when a chosen parameter is decoded. */
  private selected(): string[] {
    return this.needsRaw ? [...this.columns, 'raw'] : this.columns;
  }

  /** Rows with `from ≤ ts < to` and `ts > after`, oldest first, at most `limit`. */
  async page(db: Db, from: number, to: number, after: number | null, limit: number): Promise<SampleRow[]> {
    const rows = await samplesPage(db, this.params.table, this.deviceId, this.selected(), { from, to, after }, limit);
    return rows.map((r) => this.toRow(r));
  }

  /** The newest row at or before `at` and after `notBefore`, or null. */
  async at(db: Db, at: number, notBefore: number): Promise<SampleRow | null> {
    const row = await sampleAtOrBefore(db, this.params.table, this.deviceId, this.selected(), at, notBefore);
    return row ? this.toRow(row) : null;
  }

  /** Rows in the range. */
  count(db: Db, from: number, to: number): Promise<number> {
    return sampleCount(db, this.params.table, this.deviceId, from, to);
  }

  private toRow(r: Record<string, unknown>): SampleRow {
    let decoded: Record<string, unknown> | null = null;
    if (this.needsRaw && this.params.plan && typeof r.raw === 'string') {
      decoded = this.params.plan.decode(parseRaw(r.raw)).values;
    }
    const values = this.chosen.map((p) => {
      const v = p.column ? tidy(r[p.column]) : decoded ? tidy(decoded[p.info.key]) : null;
      return typeof v === 'number' ? inConvention(v, p.sign) : v;
    });
    return { ts: Number(r.ts), values };
  }
}
