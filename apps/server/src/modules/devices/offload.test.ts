/**
 * Long reads off the event loop: on a SQLite file store `readAll` answers from its worker's own
 * connection what the query answers on the main one (including rows committed just before),
 * and passes errors back; elsewhere it runs the query as usual.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStore, type TestStore } from '../../../test/store.ts';
import { createDb, type Db, migrate, now } from '../../db/index.ts';
import { closeReader, readAll, readsOffLoop } from './offload.repo.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sunfleet-offload-'));
let file: Db;
let store: TestStore;
beforeAll(async () => {
  file = createDb({ databaseUrl: null, sqliteFile: path.join(dir, 'store.sqlite') }).db;
  await migrate(file);
  store = await openTestStore();
});
afterAll(async () => {
  await closeReader(file);
  await file.destroy();
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function addCompanies(db: Db, names: string[]) {
  const t = now();
  await db
    .insertInto('companies')
    .values(names.map((name) => ({ name, created_at: t, updated_at: t })))
    .execute();
}

describe('readAll', () => {
  it('reads a file store from its worker, seeing what was just committed', async () => {
    expect(await readsOffLoop(file)).toBe(true);
    await addCompanies(file, ['Alpha', 'Beta', 'Gamma']);
    const query = file.selectFrom('companies').select(['id', 'name']).where('name', '!=', 'Beta').orderBy('name');
    expect(await readAll(file, query)).toEqual(await query.execute());
    await addCompanies(file, ['Delta']);
    expect((await readAll(file, query)).map((r) => r.name)).toEqual(['Alpha', 'Delta', 'Gamma']);
    const counts = await Promise.all(
      [1, 2, 3].map(() =>
        readAll(
          file,
          file.selectFrom('companies').select((eb) => eb.fn.countAll<number>().as('n')),
        ),
      ),
    );
    expect(counts.map((c) => Number(c[0]!.n))).toEqual([4, 4, 4]);
  });

  it('passes an error back', async () => {
    await expect(readAll(file, file.selectFrom('companies').select(sql<number>`no_such_function(1)`.as('x')))).rejects.toThrow(
      /no_such_function/,
    );
  });

  it('runs the query as usual on the test store (in memory or PostgreSQL)', async () => {
    expect(await readsOffLoop(store.db)).toBe(false);
    await addCompanies(store.db, ['Solo']);
    const query = store.db.selectFrom('companies').select('name');
    expect(await readAll(store.db, query)).toEqual([{ name: 'Solo' }]);
  });
});
