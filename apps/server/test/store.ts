/**
 * A private store for tests that need the database but not the HTTP app: in-memory SQLite,
 * or a fresh schema in the PostgreSQL database of TEST_DATABASE_URL (dropped on close).
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { createDb, type Db, type Dialect, migrate, type Store } from '../src/db/index.ts';

export interface TestStore {
  db: Db;
  dialect: Dialect;
  /** PostgreSQL: a DATABASE_URL that reaches this store's schema (for a server child process). */
  databaseUrl: string | null;
  /** The PostgreSQL pool under `db` (null on SQLite). */
  pool: Store['pool'];
  close(): Promise<void>;
}

/** A new, empty schema `<prefix>_<random hex>` in the PostgreSQL database at `url`. */
export async function createSchema(url: string, prefix = 't'): Promise<string> {
  const schema = `${prefix}_${randomBytes(6).toString('hex')}`;
  const { db: admin } = createDb({ databaseUrl: url, poolSize: 1 });
  await sql`create schema ${sql.id(schema)}`.execute(admin);
  await admin.destroy();
  return schema;
}

/** The schema and everything in it gone. */
export async function dropSchema(url: string, schema: string): Promise<void> {
  const { db: admin } = createDb({ databaseUrl: url, poolSize: 1 });
  await sql`drop schema ${sql.id(schema)} cascade`.execute(admin);
  await admin.destroy();
}

export async function openTestStore(poolSize = 4): Promise<TestStore> {
  const pgUrl = process.env.TEST_DATABASE_URL || null;
  const schema = pgUrl ? await createSchema(pgUrl) : undefined;
  const { db, dialect, pool } = createDb({ databaseUrl: pgUrl, pgSchema: schema, poolSize });
  await migrate(db);
  return {
    db,
    dialect,
    databaseUrl: pgUrl && schema ? withSearchPath(pgUrl, schema) : null,
    pool,
    async close() {
      await db.destroy();
      if (pgUrl && schema) await dropSchema(pgUrl, schema);
    },
  };
}

/** The URL with `options=-c search_path=<schema>` (node-postgres passes `options` to the server). */
function withSearchPath(url: string, schema: string): string {
  const u = new URL(url);
  u.searchParams.set('options', `-c search_path=${schema}`);
  return u.toString();
}
