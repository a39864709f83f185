/**
 * Multi-row statements for the batch writer, written once as SQL text and run with
 * `CompiledQuery.raw` (building a 2,000-row insert through the Kysely builder cost about as much
 * as running it: ~5 ms). `values (…),(…)` in statements of up to 500 rows, within the bind
 * limits (SQLite 32,766, PostgreSQL 65,535), measured faster than passing the rows as one JSON
 * or array parameter on both stores; on SQLite prepared once when the caller has the connection.
 */
import { CompiledQuery, type Kysely } from 'kysely';
import type { Dialect } from '../../db/index.ts';
import type { Database } from '../../db/schema.ts';
import { getOrAdd } from './maps.ts';

const BIND_LIMIT: Record<Dialect, number> = { sqlite: 32_766, postgres: 65_535 };
/** SQLite rows per statement: big enough to amortise a statement, small enough to keep SQL text short. */
const MAX_ROWS = 500;

export interface RowStatementSpec {
  /** Target table and columns, e.g. `insert into t (a, b)`. */
  into: string;
  /** SQL type of each column, in order (documents the row; PostgreSQL infers them from the target). */
  types: readonly string[];
  /** Text after the rows, e.g. ` on conflict (a) do nothing returning a`. */
  tail?: string;
}

/**
 * The better-sqlite3 connection under the Kysely instance, when the caller has it: statements are
 * then prepared once and kept (through Kysely each run prepares its SQL again: measured, 5% of
 * ingest). Only used inside the batch's Kysely transaction, which holds that one connection.
 */
export interface RawSqlite {
  prepare(sql: string): RawStatement;
}
interface RawStatement {
  readonly reader: boolean;
  all(params: unknown[]): unknown[];
  run(params: unknown[]): unknown;
}

/** Rows × columns, row-major, as a JSON array of arrays. */
function rowsJson(params: readonly unknown[], width: number): string {
  const rows: unknown[][] = [];
  for (let i = 0; i < params.length; i += width) rows.push(params.slice(i, i + width) as unknown[]);
  return JSON.stringify(rows);
}

export class RowStatement {
  private readonly texts = new Map<number, string>();
  private readonly prepared = new Map<number, RawStatement>();
  private readonly width: number;
  private readonly rowsPerStatement: number;

  constructor(
    private readonly dialect: Dialect,
    private readonly spec: RowStatementSpec,
    private readonly raw: RawSqlite | null = null,
  ) {
    this.width = spec.types.length;
    this.rowsPerStatement = Math.min(MAX_ROWS, Math.floor(BIND_LIMIT[dialect] / this.width));
  }

  private text(rows: number): string {
    return getOrAdd(this.texts, rows, () => {
      const list: string[] = [];
      for (let r = 0, n = 0; r < rows; r++) {
        const row: string[] = [];
        for (let c = 0; c < this.width; c++) row.push(this.dialect === 'postgres' ? `$${++n}` : '?');
        list.push(`(${row.join(',')})`);
      }
      return `${this.spec.into} values ${list.join(',')}${this.spec.tail ?? ''}`;
    });
  }

  /** Run over `params` (rows × columns, row-major); returns the rows of every RETURNING. */
  async run<R = Record<string, unknown>>(db: Kysely<Database>, params: readonly unknown[]): Promise<R[]> {
    if (params.length === 0) return [];
    if (this.raw) return this.runPrepared<R>(params);
    const rows = params.length / this.width;
    const out: R[] = [];
    for (let from = 0; from < rows; from += this.rowsPerStatement) {
      const count = Math.min(this.rowsPerStatement, rows - from);
      const slice = from === 0 && count === rows ? params : params.slice(from * this.width, (from + count) * this.width);
      const result = await db.executeQuery<R>(CompiledQuery.raw(this.text(count), slice as unknown[]));
      for (const row of result.rows) out.push(row);
    }
    return out;
  }

  /** Full-size statements, then the rest in power-of-two sizes, so that few statements are ever prepared. */
  private runPrepared<R>(params: readonly unknown[]): R[] {
    const width = this.width;
    const rows = params.length / width;
    const out: R[] = [];
    let from = 0;
    while (from < rows) {
      let count = Math.min(this.rowsPerStatement, rows - from);
      if (count < this.rowsPerStatement) count = 2 ** Math.floor(Math.log2(count));
      const stmt = getOrAdd(this.prepared, count, () => this.raw!.prepare(this.text(count)));
      const slice = params.slice(from * width, (from + count) * width) as unknown[];
      if (stmt.reader) for (const row of stmt.all(slice)) out.push(row as R);
      else stmt.run(slice);
      from += count;
    }
    return out;
  }
}

export interface KeyedUpdateSpec {
  table: string;
  /** Key column first, then the value columns, with their SQL types. */
  columns: readonly (readonly [name: string, type: string])[];
  /** The SET list, given how to refer to a column's new value. */
  set: (value: (column: string) => string) => string;
}

/**
 * Update many rows by primary key (rare: status changes). PostgreSQL: one `update … from` the
 * rows given as one JSON parameter (typed by the casts). SQLite: one
 * prepared single-row update per row, because its planner runs `update … from` as a scan of the
 * whole target table (measured: 6.5 ms per 500 rows of 100k).
 */
export class KeyedUpdate {
  private readonly many: string | null = null;
  private readonly one: string | null = null;
  private readonly order: number[] = [];
  private readonly width: number;
  private prepared: RawStatement | null = null;

  constructor(
    dialect: Dialect,
    spec: KeyedUpdateSpec,
    private readonly raw: RawSqlite | null = null,
  ) {
    const [key] = spec.columns[0]!;
    this.width = spec.columns.length;
    if (dialect === 'postgres') {
      const rows = spec.columns.map(([c, type], i) => `(e->>${i})::${type} as ${c}`).join(', ');
      const aliased = `select ${rows} from json_array_elements($1::json) e`;
      this.many = `update ${spec.table} set ${spec.set((c) => `v.${c}`)} from (${aliased}) v where ${spec.table}.${key} = v.${key}`;
    } else {
      // Plain `?` in order of use (better-sqlite3 refuses to bind an array to reused `?NNN`).
      const index = new Map(spec.columns.map(([c], i) => [c, i]));
      const set = spec.set((c) => {
        this.order.push(index.get(c)!);
        return '?';
      });
      this.order.push(0);
      this.one = `update ${spec.table} set ${set} where ${key} = ?`;
    }
  }

  async run(db: Kysely<Database>, params: readonly unknown[]): Promise<void> {
    if (params.length === 0) return;
    if (this.many) {
      await db.executeQuery(CompiledQuery.raw(this.many, [rowsJson(params, this.width)]));
      return;
    }
    if (this.raw && !this.prepared) this.prepared = this.raw.prepare(this.one!);
    for (let i = 0; i < params.length; i += this.width) {
      const row = this.order.map((k) => params[i + k]);
      if (this.prepared) this.prepared.run(row);
      else await db.executeQuery(CompiledQuery.raw(this.one!, row));
    }
  }
}
