/**
 * Two server processes over one store (each its own app and its own connections to the same
 * PostgreSQL schema or SQLite file): a limit reached through one is honoured by the other.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ErrorCode, errorText } from '@sunfleet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, startServer, type TestServer, uniqueAccount } from '../../test/harness.ts';
import { accountChecksPerClient } from '../modules/auth/routes.ts';

let a: TestServer;
let b: TestServer;
let dir: string;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sunfleet-two-processes-'));
  a = await startServer({ rateLimits: true }, undefined, {}, { databaseUrl: null, sqliteFile: path.join(dir, 'store.db') });
  b = await startServer(
    { rateLimits: true, jwtSecret: a.config.jwtSecret },
    undefined,
    {},
    { databaseUrl: null, sameStoreAs: a },
  );
});
afterAll(async () => {
  await b?.close();
  await a?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const tooMany = { code: ErrorCode.tooManyRequests, msg: errorText(ErrorCode.tooManyRequests, 'en'), data: null };

describe('limits across server processes', () => {
  it('a route limit reached through one process is refused by the other', async () => {
    const url = `/anonymous/checkAccount?account=${uniqueAccount('two')}`;
    const probe = (s: TestServer, address: string) => s.app.inject({ method: 'GET', url, remoteAddress: address });
    // checkAccount: its calls per address in 10 minutes, all made through the first process.
    for (let i = 0; i < accountChecksPerClient.max; i++)
      expect((await probe(a, '198.51.100.60')).statusCode, `call ${i + 1}`).toBe(200);
    const refused = await probe(b, '198.51.100.60');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual(tooMany);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await probe(a, '198.51.100.60')).statusCode).toBe(429);
    // Another address is counted apart, in either process.
    expect((await probe(b, '198.51.100.61')).statusCode).toBe(200);
  });

  it('the sign-in back-off earned through one process holds in the other', async () => {
    const u = await a.user();
    const signIn = (s: TestServer, password: string) =>
      s.app.inject({ method: 'POST', url: '/oauth/token', payload: { grant_type: 'password', username: u.account, password } });
    for (let i = 0; i < 5; i++) expect((await signIn(a, 'Wrong-pass1')).json().code).toBe(ErrorCode.wrongCredentials);
    // The right password, through the other process, still waits for the back-off.
    const waiting = await signIn(b, PASSWORD);
    expect(waiting.statusCode).toBe(429);
    expect(waiting.json()).toEqual(tooMany);
    expect(Number(waiting.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });
});
