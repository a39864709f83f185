/** Rate limits on sign-in, the anonymous calls and code sending (on in production, off elsewhere in tests). */

import { ErrorCode } from '@sunfleet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getCode } from '../../../test/account.ts';
import { startServer, type TestServer, uniqueAccount } from '../../../test/harness.ts';
import { parsePrometheus } from '../../../test/prometheus.ts';
import { buildApp } from '../../app.ts';
import { countedAddress } from './code-limits.ts';
import { accountChecksOverall, accountChecksPerClient } from './routes.ts';

let s: TestServer;
beforeAll(async () => {
  s = await startServer({ rateLimits: true });
});
afterAll(() => s.close());

const tooMany = {
  status: 429,
  body: { code: ErrorCode.tooManyRequests, msg: 'Too many requests, please try again later', data: null },
};

describe('rate limits', () => {
  it('allows 5 codes for one account in 10 minutes; the 6th is HTTP 429 with code 3', async () => {
    const account = uniqueAccount('spam');
    for (let i = 0; i < 5; i++) expect((await getCode(s, account, 'signup')).body.code, `call ${i + 1}`).toBe(ErrorCode.ok);
    expect(await getCode(s, account, 'signup')).toEqual(tooMany);
    // The same address in other letters is the same account.
    expect(await getCode(s, account.toUpperCase(), 'reset')).toEqual(tooMany);
    // Another account from the same address still gets its code.
    expect((await getCode(s, uniqueAccount('other'), 'signup')).body.code).toBe(ErrorCode.ok);
  });

  it('counts codes per mailbox: dots and plus-suffixes folded, whatever client asks', async () => {
    const ask = (account: string, remoteAddress: string, type = 'reset') =>
      s.app.inject({
        method: 'GET',
        url: `/anonymous/getCode?account=${encodeURIComponent(account)}&type=${type}`,
        remoteAddress,
      });
    const tag = uniqueAccount('').split('@')[0]!.replaceAll('.', '');
    const forms = [
      `ma.ry${tag}@example.com`,
      `mary${tag}+a@example.com`,
      `M.A.R.Y${tag}+b@Example.com`,
      `mary${tag}@example.com`,
    ];
    for (let i = 0; i < 5; i++) {
      const res = await ask(forms[i % forms.length]!, `198.51.100.${50 + i}`, i % 2 ? 'signup' : 'reset');
      expect(res.statusCode, `code ${i + 1}`).toBe(200);
    }
    const sixth = await ask(`m.ary${tag}+z@example.com`, '198.51.100.99');
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json()).toEqual(tooMany.body);
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(500);
    // A signed-in user asking a notification code for that mailbox is counted with them.
    const u = await s.user();
    const { access } = await s.login(u.account);
    expect((await s.call(access, 'GET', `/api/v1/user/notify/code?email=mary${tag}%40example.com`)).status).toBe(429);
    // Another mailbox is not affected.
    expect((await ask(`maria${tag}@example.com`, '198.51.100.99')).statusCode).toBe(200);
  });

  it('caps the codes one client address may ask for, across every address', async () => {
    const ask = (account: string, remoteAddress: string) =>
      s.app.inject({ method: 'GET', url: `/anonymous/getCode?account=${account}&type=signup`, remoteAddress });
    for (let i = 0; i < 30; i++) expect((await ask(uniqueAccount('c'), '198.51.100.70')).statusCode, `code ${i + 1}`).toBe(200);
    const over = await ask(uniqueAccount('c'), '198.51.100.70');
    expect(over.statusCode).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(3000);
    expect((await ask(uniqueAccount('c'), '198.51.100.71')).statusCode).toBe(200);
  });

  it('folds an address for counting only', () => {
    expect(countedAddress(' A.Lice+news@Example.COM ')).toBe('alice@example.com');
    expect(countedAddress('alice@exa.mple.com')).toBe('alice@exa.mple.com');
    expect(countedAddress('a+b+c@x.org')).toBe('a@x.org');
  });

  it('allows 20 sign-in attempts a minute from one address; the 21st is HTTP 429 with code 3', async () => {
    // A different account each time: this is the client address's limit, not an account's back-off.
    const attempt = (remoteAddress: string) =>
      s.app.inject({
        method: 'POST',
        url: '/oauth/token',
        remoteAddress,
        payload: { grant_type: 'password', username: uniqueAccount('guess'), password: 'Wrong-pass1' },
      });
    for (let i = 0; i < 20; i++)
      expect((await attempt('198.51.100.20')).json().code, `attempt ${i + 1}`).toBe(ErrorCode.wrongCredentials);
    const blocked = await attempt('198.51.100.20');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual(tooMany.body);
    expect(blocked.headers['retry-after']).toBeDefined();
    // Another client address is counted apart.
    expect((await attempt('198.51.100.21')).json().code).toBe(ErrorCode.wrongCredentials);
  });

  it('counts in the store, so that two server processes share one limit', async () => {
    const second = await buildApp(s.app.deps);
    await second.ready();
    try {
      const url = `/anonymous/checkAccount?account=${uniqueAccount('two')}`;
      const probe = (app: typeof second, i: number) =>
        app.inject({ method: 'GET', url, remoteAddress: '198.51.100.40' }).then((r) => [i, r.statusCode]);
      const answers = [];
      for (let i = 0; i < accountChecksPerClient.max; i++) answers.push(await probe(i % 2 ? second : s.app, i));
      expect(answers.every(([, status]) => status === 200)).toBe(true);
      expect((await probe(second, 30))[1]).toBe(429);
      expect((await probe(s.app, 31))[1]).toBe(429);
    } finally {
      await second.close();
    }
  });

  it('limits checkAccount, the one call that tells whether an account exists: 10 per client address in 10 minutes, counted in /metrics', async () => {
    const probe = (remoteAddress = '198.51.100.30') =>
      s.app.inject({ method: 'GET', url: `/anonymous/checkAccount?account=${uniqueAccount('probe')}`, remoteAddress });
    const refused = async () => {
      const scrape = await s.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' });
      const family = parsePrometheus(scrape.body).get('sunfleet_http_rate_limited_total');
      return family?.samples.find((x) => x.labels.route === '/anonymous/checkAccount')?.value ?? 0;
    };
    const before = await refused();
    for (let i = 0; i < 10; i++) expect((await probe()).statusCode, `look-up ${i + 1}`).toBe(200);
    for (let i = 0; i < 30; i++) expect((await probe()).statusCode).toBe(429);
    expect(await refused()).toBe(before + 30);
    // Another client address has its own count.
    expect((await probe('198.51.100.31')).statusCode).toBe(200);
  });

  it('limits checkAccount from all addresses together; a refused client does not use up the others’ look-ups', async () => {
    const fresh = await startServer({ rateLimits: true });
    try {
      const probe = (remoteAddress: string) =>
        fresh.app.inject({ method: 'GET', url: `/anonymous/checkAccount?account=${uniqueAccount('many')}`, remoteAddress });
      // One client refused over and over counts only its allowed look-ups overall.
      for (let i = 0; i < 50; i++) await probe('203.0.113.250');
      // The rest of the overall allowance, each look-up from an address of its own.
      for (let n = accountChecksPerClient.max; n < accountChecksOverall.max; n++)
        expect((await probe(`10.0.${n >> 8}.${n & 255}`)).statusCode, `look-up ${n + 1}`).toBe(200);
      const over = await probe('192.0.2.1');
      expect(over.statusCode).toBe(429);
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(500);
    } finally {
      await fresh.close();
    }
  });

  it('limits password changes per account: guessing the old password with a stolen token stops at 10', async () => {
    const u = await s.user();
    const { access } = await s.login(u.account);
    const change = () => s.call(access, 'POST', `/api/v1/user/${u.id}/pwd`, { oldPassword: 'Guess-123', password: 'N3w-secret' });
    for (let i = 0; i < 10; i++) expect((await change()).body.code).toBe(ErrorCode.oldPasswordWrong);
    expect(await change()).toEqual(tooMany);
  });

  it('limits notification codes per signed-in user, whatever address they are sent to', async () => {
    const u = await s.user();
    const { access } = await s.login(u.account);
    const ask = (email: string) => s.call(access, 'GET', `/api/v1/user/notify/code?email=${encodeURIComponent(email)}`);
    for (let i = 0; i < 5; i++) expect((await ask(uniqueAccount('n'))).body.code).toBe(ErrorCode.ok);
    expect(await ask(uniqueAccount('n'))).toEqual(tooMany);
    // Another user from the same client address is not affected.
    const v = await s.user();
    const other = await s.login(v.account);
    expect((await s.call(other.access, 'GET', '/api/v1/user/notify/code')).body.code).toBe(ErrorCode.ok);
  });
});
