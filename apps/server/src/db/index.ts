/** The store: Kysely over SQLite (embedded default) or PostgreSQL (DATABASE_URL). */
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  type DatabaseConnection,
  type Driver,
  Kysely,
  type MigrationProvider,
  Migrator,
  PostgresAdapter,
  PostgresDialect,
  type SqliteDatabase,
  SqliteDialect,
  sql,
} from 'kysely';
import pg from 'pg';
import { migrations } from './migrations/index.ts';
import type { Database } from './schema.ts';
import { setLongStatementLimit, withLongStatements } from './timeouts.ts';
import { Turns } from './turns.ts';

export type Db = Kysely<Database>;
export type Dialect = 'sqlite' | 'postgres';

// int8 (bigint) columns hold epoch milliseconds, which fit a JS number.
pg.types.setTypeParser(20, Number);
// numeric/double come back as strings from pg for numeric; doubles are parsed already.
pg.types.setTypeParser(1700, Number);

export interface DbOptions {
  databaseUrl: string | null;
  /** SQLite file; ':memory:' for a private in-memory store. */
  sqliteFile?: string;
  /** PostgreSQL schema to use (tests give each file its own). */
  pgSchema?: string;
  poolSize?: number;
  /** PostgreSQL `application_name` of the pool's connections (to tell them apart in pg_stat_activity). */
  applicationName?: string;
  /** A connection failed outside a query (terminated while idle, the server restarting). */
  onConnectionError?: (error: Error) => void;
  /** PostgreSQL: a statement running longer is cancelled (ms; 0 or absent: no limit). */
  statementTimeoutMs?: number;
  /** PostgreSQL: the limit of reports and imports (db/timeouts.ts `withLongStatements`; 0: none). */
  longStatementTimeoutMs?: number;
}

/**
 * SQLite write-lock wait: short, because it blocks the event loop (every HTTP request waits
 * with it). A write that meets the lock fails with SQLITE_BUSY: the API answers 503, ingest
 * keeps the batch and retries.
 */
export const SQLITE_BUSY_TIMEOUT_MS = 20;
/** PostgreSQL: give up connecting after this long (a down server refuses at once; a black hole hangs). */
const PG_CONNECT_TIMEOUT_MS = 5000;

export interface Store {
  db: Db;
  dialect: Dialect;
  /** The better-sqlite3 connection under `db` (SQLite only): ingest prepares its hot statements on it. */
  sqlite: SQLite.Database | null;
  /** The SQLite file (null for PostgreSQL or an in-memory store). */
  sqliteFile: string | null;
  /** The PostgreSQL pool under `db` (null for SQLite): its state is exported as metrics. */
  pool: pg.Pool | null;
}

export function createDb(opts: DbOptions): Store {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: opts.databaseUrl,
      max: opts.poolSize ?? 10,
      connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS,
      keepAlive: true,
      ...(opts.applicationName ? { application_name: opts.applicationName } : {}),
      ...(opts.pgSchema ? { options: `-c search_path=${opts.pgSchema}` } : {}),
      ...(opts.statementTimeoutMs ? { statement_timeout: opts.statementTimeoutMs } : {}),
    });
    handleConnectionErrors(pool, opts.onConnectionError ?? (() => {}));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    if (opts.longStatementTimeoutMs !== undefined) setLongStatementLimit(db, opts.longStatementTimeoutMs);
    return {
      db,
      dialect: 'postgres',
      sqlite: null,
      sqliteFile: null,
      pool,
    };
  }
  const file = opts.sqliteFile ?? ':memory:';
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  return {
    db: new Kysely<Database>({ dialect: new FairSqliteDialect({ database: keepStatements(sqlite) }) }),
    dialect: 'sqlite',
    sqlite,
    sqliteFile: file === ':memory:' ? null : file,
    pool: null,
  };
}

/** better-sqlite3 under Kysely, each query on its turn (db/turns.ts). */
class FairSqliteDialect extends SqliteDialect {
  override createDriver(): Driver {
    const driver = super.createDriver();
    const turns = new Turns();
    const acquire = driver.acquireConnection.bind(driver);
    const release = driver.releaseConnection.bind(driver);
    driver.acquireConnection = async (): Promise<DatabaseConnection> => {
      await turns.acquire();
      return acquire();
    };
    driver.releaseConnection = async (connection: DatabaseConnection): Promise<void> => {
      await release(connection);
      turns.release();
    };
    return driver;
  }
}

/**
 * A connection the server cuts (pg_terminate_backend, a restart, a failover) emits 'error': on
 * the pool while idle, on the client while checked out between queries. Unheard, either ends
 * the process. Heard, the client is marked broken; the pool drops it on release and connects
 * anew for the next query. A query running at that moment fails with the error itself.
 */
function handleConnectionErrors(pool: pg.Pool, onError: (error: Error) => void): void {
  pool.on('error', (error) => onError(error));
  pool.on('connect', (client) => {
    client.on('error', (error) => onError(error));
  });
}

/**
 * The connection as Kysely sees it, with its prepared statements kept (the last 500 texts, least
 * recently used dropped). Kysely prepares every query anew: under the overview's load that was a
 * fifth of the API's CPU. A statement still being iterated (a stream not finished) is not reused.
 */
export function keepStatements(sqlite: SQLite.Database, size = 500): SqliteDatabase {
  const kept = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(text: string) {
      const found = kept.get(text);
      if (found && !found.busy) {
        kept.delete(text); // to the newest end
        kept.set(text, found);
        return found;
      }
      const statement = sqlite.prepare(text);
      kept.set(text, statement);
      if (kept.size > size) kept.delete(kept.keys().next().value as string);
      return statement;
    },
  };
}

const provider: MigrationProvider = { getMigrations: async () => migrations };

export async function migrate(db: Db): Promise<void> {
  // PostgreSQL: name the schema of the migration tables, or Kysely finds them in any schema of
  // the database (another test's, a leftover) and skips creating them in ours.
  const schema =
    db.getExecutor().adapter instanceof PostgresAdapter
      ? (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0]?.s
      : undefined;
  // A migration may rewrite a large table: no statement limit.
  const { error, results } = await withLongStatements(
    db,
    (conn) => new Migrator({ db: conn, provider, ...(schema ? { migrationTableSchema: schema } : {}) }).migrateToLatest(),
    0,
  );
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
}

export const now = () => Date.now();
/** JSON columns are text in both dialects. */
export const parseJson = <T>(text: string | null | undefined, fallback: T): T => {
  if (!text) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
};
