/**
 * Statement time limits (PostgreSQL): every statement ends after the pool's limit (API queries,
 * DATABASE_STATEMENT_TIMEOUT), so a query on a hung or overloaded server fails (SQLSTATE 57014,
 * the 503 path of db/faults.ts) instead of holding its request and connection for ever. Reports
 * and imports read or write more and run under the longer limit (DATABASE_LONG_STATEMENT_TIMEOUT)
 * through `withLongStatements`. SQLite has no statement limit (one writer, in this process).
 */
import { PostgresAdapter, sql } from 'kysely';
import type { Db } from './index.ts';

/** The long limit (ms; 0: none) of each PostgreSQL store, as createDb was given it. */
const longLimits = new WeakMap<Db, number>();

export function setLongStatementLimit(db: Db, ms: number): void {
  longLimits.set(db, ms);
}

/** `select set_config(…)` text: a whole number of milliseconds, 0 for no limit. */
const limitText = (ms: number) => String(Math.max(0, Math.round(ms)));

/**
 * Run `work` on one connection whose statement limit is the long one (or `ms`), put back to the
 * pool's own limit afterwards. On SQLite, or a store without limits, `work` runs on `db` as it is.
 */
export async function withLongStatements<T>(db: Db, work: (db: Db) => Promise<T>, ms?: number): Promise<T> {
  const long = ms ?? longLimits.get(db);
  if (long === undefined || !(db.getExecutor().adapter instanceof PostgresAdapter)) return work(db);
  return db.connection().execute(async (conn) => {
    await sql`select set_config('statement_timeout', ${limitText(long)}, false)`.execute(conn);
    try {
      return await work(conn);
    } finally {
      // Back to the limit the connection started with (the pool's).
      await sql`reset statement_timeout`.execute(conn);
    }
  });
}
