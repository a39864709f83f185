/** Which store errors pass (HTTP 503, writers retry) and which are real faults; the reachability probe. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import type { KyselyPlugin } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openTestStore } from '../../test/store.ts';
import { isStoreUnavailable, StoreUnavailableError, storeReachable } from './faults.ts';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

/** The SQLITE_BUSY better-sqlite3 throws when another connection holds the write lock. */
function realBusyError(): unknown {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sunfleet-busy-'));
  const file = path.join(dir, 'busy.db');
  const a = new SQLite(file);
  const b = new SQLite(file);
  try {
    a.exec('create table t (x)');
    b.pragma('busy_timeout = 0');
    a.exec('begin immediate');
    try {
      b.exec('insert into t values (1)');
    } catch (e) {
      return e;
    }
    return null;
  } finally {
    a.close();
    b.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('isStoreUnavailable', () => {
  it('takes a lost, refused or terminated connection and a held lock as passing', () => {
    for (const e of [
      withCode('terminating connection due to administrator command', '57P01'),
      withCode('the database system is shutting down', '57P03'),
      withCode('connection failure', '08006'),
      withCode('sorry, too many clients already', '53300'),
      withCode('canceling statement due to statement timeout', '57014'),
      withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'),
      withCode('read ECONNRESET', 'ECONNRESET'),
      new Error('Connection terminated unexpectedly'),
      new Error('Connection terminated due to connection timeout'),
      new Error('timeout exceeded when trying to connect'),
      new Error('Client has encountered a connection error and is not queryable'),
      withCode('database is locked', 'SQLITE_BUSY'),
      withCode('database is locked', 'SQLITE_BUSY_SNAPSHOT'),
      withCode('database table is locked', 'SQLITE_LOCKED'),
      new StoreUnavailableError(),
      new Error('query failed', { cause: withCode('read ECONNRESET', 'ECONNRESET') }),
      new AggregateError([withCode('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED')], 'connect failed'),
    ]) {
      expect(isStoreUnavailable(e), `${(e as Error).message}`).toBe(true);
    }
  });

  it('takes the error better-sqlite3 throws for a held write lock as passing', () => {
    const e = realBusyError();
    expect((e as { code?: string })?.code).toMatch(/^SQLITE_BUSY/);
    expect(isStoreUnavailable(e)).toBe(true);
  });

  it('leaves real faults alone: constraints, syntax, a full disk, anything without a store code', () => {
    for (const e of [
      withCode('duplicate key value violates unique constraint', '23505'),
      withCode('syntax error at or near "selec"', '42601'),
      withCode('could not extend file: No space left on device', '53100'),
      withCode('UNIQUE constraint failed: users.account', 'SQLITE_CONSTRAINT_UNIQUE'),
      withCode('database or disk is full', 'SQLITE_FULL'),
      new Error('connection to db-primary.internal:5432 refused for user admin'),
      new TypeError('Cannot read properties of undefined'),
      'a string',
      null,
    ]) {
      expect(isStoreUnavailable(e), String((e as Error)?.message ?? e)).toBe(false);
    }
  });
});

describe('storeReachable', () => {
  it('is true for a store that answers, false for one that hangs (within the timeout)', async () => {
    const store = await openTestStore(2);
    try {
      expect(await storeReachable(store.db, 1000)).toBe(true);
      // Answers after 1.5 s (and so gives its connection back before the store closes).
      const hang: KyselyPlugin = {
        transformQuery: (args) => args.node,
        transformResult: (args) => new Promise((resolve) => setTimeout(() => resolve(args.result), 1500)),
      };
      const started = Date.now();
      expect(await storeReachable(store.db.withPlugin(hang), 200)).toBe(false);
      expect(Date.now() - started).toBeLessThan(1000);
      const refuse: KyselyPlugin = {
        transformQuery: () => {
          throw withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED');
        },
        transformResult: async (args) => args.result,
      };
      expect(await storeReachable(store.db.withPlugin(refuse), 1000)).toBe(false);
    } finally {
      await store.close();
    }
  });
});
