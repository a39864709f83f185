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
  /** The PostgreSQL pool under `db` (null on SQLite). */
  pool: Store['pool'];
  close(): Promise<void>;
}

export async function openTestStore(poolSize = 4): Promise<TestStore> {
  const pgUrl = process.env.TEST_DATABASE_URL || null;
  const schema = pgUrl ? `t_${randomBytes(6).toString('hex')}` : undefined;
  if (pgUrl && schema) {
    const { db: admin } = createDb({ databaseUrl: pgUrl, poolSize: 1 });
    await sql`create schema ${sql.id(schema)}`.execute(admin);
    await admin.destroy();
  }
  const { db, dialect, pool } = createDb({ databaseUrl: pgUrl, pgSchema: schema, poolSize });
  await migrate(db);
  return {
    db,
    dialect,
    pool,
    async close() {
      await db.destroy();
      if (pgUrl && schema) {
        const { db: admin } = createDb({ databaseUrl: pgUrl, poolSize: 1 });
        await sql`drop schema ${sql.id(schema)} cascade`.execute(admin);
        await admin.destroy();
      }
    },
  };
}
