/** The per-account sign-in back-off: slows guessing from any number of client addresses, never locks the owner out. */

import { ErrorCode } from '@sunfleet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, startServer, type TestServer } from '../../../test/harness.ts';
import { backoffWaitMs, signInKey } from './sign-in-backoff.ts';

let s: TestServer;
beforeAll(async () => {
  s = await startServer({ rateLimits: true });
});
afterAll(() => s.close());

let ip = 0;
/** Every attempt from another client address: the back-off must not depend on it. */
const attempt = (username: string, password: string) =>
  s.app.inject({
    method: 'POST',
    url: '/oauth/token',
    remoteAddress: `203.0.113.${++ip % 250}`,
    payload: { grant_type: 'password', username, password },
  });

/** Move the account's last failure `ms` into the past (instead of waiting). */
const age = async (account: string, ms: number) => {
  const row = await s.db
    .selectFrom('throttles')
    .select('last_at')
    .where('key', '=', signInKey(account))
    .executeTakeFirstOrThrow();
  await s.db
    .updateTable('throttles')
    .set({ last_at: Number(row.last_at) - ms })
    .where('key', '=', signInKey(account))
    .execute();
};

describe('sign-in back-off', () => {
  it('waits 2 s after the 5th failure, doubling per failure, at most 5 minutes', () => {
    expect([0, 4, 5, 6, 7, 12, 13, 40].map(backoffWaitMs)).toEqual([0, 0, 2000, 4000, 8000, 256_000, 300_000, 300_000]);
  });

  it('after 5 failures refuses the next attempt with 429 and the wait, even with the right password, from any address', async () => {
    const u = await s.user();
    for (let i = 0; i < 5; i++)
      expect((await attempt(u.account, 'Wrong-pass1')).json().code, `failure ${i + 1}`).toBe(ErrorCode.wrongCredentials);
    const refused = await attempt(u.account.toUpperCase(), PASSWORD);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      code: ErrorCode.tooManyRequests,
      msg: 'Too many requests, please try again later',
      data: null,
    });
    expect(Number(refused.headers['retry-after'])).toBeOneOf([1, 2]);
    // Another account is not slowed.
    const v = await s.user();
    expect((await attempt(v.account, PASSWORD)).json().code).toBe(ErrorCode.ok);
  });

  it('the right password after the wait signs in, and a success forgets the failures', async () => {
    const u = await s.user();
    for (let i = 0; i < 5; i++) await attempt(u.account, 'Wrong-pass1');
    await age(u.account, 2000);
    const ok = await attempt(u.account, PASSWORD);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().code).toBe(ErrorCode.ok);
    for (let i = 0; i < 5; i++)
      expect((await attempt(u.account, 'Wrong-pass1')).json().code, `failure ${i + 1}`).toBe(ErrorCode.wrongCredentials);
    expect((await attempt(u.account, 'Wrong-pass1')).statusCode).toBe(429);
  });

  it('each failure after the wait doubles the next wait; refused attempts do not count', async () => {
    const u = await s.user();
    for (let i = 0; i < 5; i++) await attempt(u.account, 'Wrong-pass1');
    for (let i = 0; i < 3; i++) expect((await attempt(u.account, 'Wrong-pass1')).statusCode).toBe(429);
    await age(u.account, 2000);
    expect((await attempt(u.account, 'Wrong-pass1')).json().code).toBe(ErrorCode.wrongCredentials); // the 6th failure
    const next = await attempt(u.account, PASSWORD);
    expect(next.statusCode).toBe(429);
    expect(Number(next.headers['retry-after'])).toBeOneOf([3, 4]);
    await age(u.account, 3000);
    expect(Number((await attempt(u.account, PASSWORD)).headers['retry-after'])).toBe(1);
    await age(u.account, 1000);
    expect((await attempt(u.account, PASSWORD)).json().code).toBe(ErrorCode.ok);
  });

  it('lets one of several simultaneous attempts through when the wait is over', async () => {
    const u = await s.user();
    for (let i = 0; i < 5; i++) await attempt(u.account, 'Wrong-pass1');
    await age(u.account, 2000);
    const burst = await Promise.all(Array.from({ length: 8 }, () => attempt(u.account, 'Wrong-pass1')));
    expect(burst.map((r) => r.statusCode).sort()).toEqual([200, 429, 429, 429, 429, 429, 429, 429]);
  });

  it('forgets failures 15 minutes after the last one', async () => {
    const u = await s.user();
    for (let i = 0; i < 5; i++) await attempt(u.account, 'Wrong-pass1');
    await age(u.account, 15 * 60_000);
    for (let i = 0; i < 5; i++)
      expect((await attempt(u.account, 'Wrong-pass1')).json().code, `failure ${i + 1}`).toBe(ErrorCode.wrongCredentials);
  });
});
