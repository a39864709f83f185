/**
 * Statement time limits on PostgreSQL: a statement past the API's limit is cancelled and its
 * request answers 503 at once instead of waiting for the store; reports and imports run under
 * the long limit, and the connection goes back to the pool with the API's.
 */

import { ErrorCode } from '@sunfleet/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/harness.ts';
import { isStoreUnavailable } from './faults.ts';
import { createDb, type Store } from './index.ts';
import { withLongStatements } from './timeouts.ts';

const pgUrl = process.env.TEST_DATABASE_URL;
if (!pgUrl) console.warn('SKIPPED: statement time limits — PostgreSQL only (TEST_DATABASE_URL)');

const sleep = (seconds: number) => sql`select pg_sleep(${seconds})`;
const failure = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e,
  );

describe.skipIf(!pgUrl)('statement time limits (PostgreSQL)', () => {
  let store: Store;
  let s: TestServer;
  beforeAll(async () => {
    // One connection: every query below runs on the one withLongStatements raised and put back.
    store = createDb({ databaseUrl: pgUrl!, poolSize: 1, statementTimeoutMs: 300, longStatementTimeoutMs: 3000 });
    s = await startServer(
      {},
      (app) => {
        app.get('/test/slow', async () => {
          await sleep(5).execute(app.deps.db);
          return { code: ErrorCode.ok, msg: 'ok', data: null };
        });
      },
      {},
      { databaseUrl: null, statementTimeoutMs: 300 },
    );
  });
  afterAll(async () => {
    await store?.db.destroy();
    await s?.close();
  });

  it('cancels a statement past the limit: a store fault that passes (57014)', async () => {
    const started = Date.now();
    const error = await failure(sleep(5).execute(store.db));
    expect(Date.now() - started).toBeLessThan(2000);
    expect((error as { code?: string }).code).toBe('57014');
    expect(isStoreUnavailable(error)).toBe(true);
  });

  it('a request whose query runs past the limit answers 503 at once', async () => {
    const started = Date.now();
    const res = await s.app.inject({ method: 'GET', url: '/test/slow' });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ code: ErrorCode.storeUnavailable, data: null });
  });

  it('reports and imports run under the long limit; the connection goes back with the short one', async () => {
    await withLongStatements(store.db, (db) => sleep(0.6).execute(db));
    const long = await failure(withLongStatements(store.db, (db) => sleep(5).execute(db)));
    expect((long as { code?: string }).code).toBe('57014');
    const shown = await sql<{ statement_timeout: string }>`show statement_timeout`.execute(store.db);
    expect(shown.rows[0]!.statement_timeout).toBe('300ms');
    expect(isStoreUnavailable(await failure(sleep(0.6).execute(store.db)))).toBe(true);
  }, 15_000);
});
