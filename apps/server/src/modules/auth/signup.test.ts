/** Registration and password reset by e-mailed code, and /anonymous/ip. */

import { ErrorCode } from '@sunfleet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countUsers, expireCodes, requestCode, userRow } from '../../../test/account.ts';
import { invalidInput } from '../../../test/envelopes.ts';
import { PASSWORD, startServer, type TestServer, uniqueAccount } from '../../../test/harness.ts';
import { buildApp } from '../../app.ts';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

const signup = (body: Record<string, unknown>) => s.call(null, 'POST', '/anonymous/signup', body);
const reset = (body: Record<string, unknown>) => s.call(null, 'POST', '/anonymous/resetPwd', body);
const login = (username: string, password: string) =>
  s.call(null, 'POST', '/oauth/token', { grant_type: 'password', username, password });
const refresh = (token: string) => s.call(null, 'POST', '/oauth/token', { grant_type: 'refresh_token', refresh_token: token });
const other = (code: string) => (code === '000000' ? '111111' : '000000');

describe('POST /anonymous/signup', () => {
  it('registers an end user with the mailed code; the new account signs in', async () => {
    const account = uniqueAccount('reg');
    const { code } = await requestCode(s, account, 'signup');
    const res = await signup({ account, password: 'Sun-Power1', code, nickname: '  Sunny  ', lan: 'es' });
    expect(res.body).toMatchObject({ code: ErrorCode.ok, data: { userId: expect.any(Number) } });
    const { userId } = res.body.data as { userId: number };
    const row = await userRow(s, userId);
    expect(row).toMatchObject({ account, kind: 'end_user', nickname: 'Sunny', language: 'es', company_id: null, read_only: 0 });
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    const me = await s.login(account, 'Sun-Power1');
    expect(me.userId).toBe(userId);
    const profile = await s.call(me.access, 'GET', '/api/v1/user');
    expect(profile.body.data).toMatchObject({ account, kind: 'end_user', role: 'Propietario' });
  });

  it('takes the address in any case and stores it in lower case', async () => {
    const account = uniqueAccount('Case');
    const { code } = await requestCode(s, account, 'signup');
    const res = await signup({ account: account.toUpperCase(), password: 'Sun-Power1', code });
    expect(res.body.code).toBe(ErrorCode.ok);
    expect(await countUsers(s, account.toLowerCase())).toBe(1);
  });

  it('a used code cannot be used again (5)', async () => {
    const account = uniqueAccount('twice');
    const { code } = await requestCode(s, account, 'signup');
    expect((await signup({ account, password: 'Sun-Power1', code })).body.code).toBe(ErrorCode.ok);
    await s.db.deleteFrom('users').where('account', '=', account).execute();
    expect((await signup({ account, password: 'Sun-Power1', code })).body).toEqual({
      code: ErrorCode.codeWrong,
      msg: 'The verification code is wrong',
      data: null,
    });
    expect(await countUsers(s, account)).toBe(0);
  });

  it('answers 5 for a wrong code and 6 for an expired one, writing nothing', async () => {
    const account = uniqueAccount('bad');
    const { code } = await requestCode(s, account, 'signup');
    expect((await signup({ account, password: 'Sun-Power1', code: other(code) })).body.code).toBe(ErrorCode.codeWrong);
    await expireCodes(s, account);
    expect((await signup({ account, password: 'Sun-Power1', code })).body.code).toBe(ErrorCode.codeExpired);
    expect(await countUsers(s, account)).toBe(0);
  });

  it('answers 103 when the address was registered meanwhile', async () => {
    const account = uniqueAccount('dup');
    const { code } = await requestCode(s, account, 'signup');
    await s.user({ account });
    expect((await signup({ account, password: 'Sun-Power1', code })).body).toEqual({
      code: ErrorCode.accountRegistered,
      msg: 'This account is already registered',
      data: null,
    });
    expect(await countUsers(s, account)).toBe(1);
  });

  it.each([
    [{ account: 'not-an-email' }, 'body.account must be a valid e-mail address'],
    [{ account: 'a@b' }, 'body.account must be a valid e-mail address'],
    [{ password: 'short' }, 'body.password must be at least 6 characters'],
    [{ password: 'seventeen-chars-x' }, 'body.password must be at most 16 characters'],
    [{ password: 'has space1' }, 'body.password must be 6 to 16 characters without spaces'],
    [{ code: '12345' }, 'body.code must be 6 digits'],
    [{ code: 'abcdef' }, 'body.code must be 6 digits'],
    [{ code: undefined }, 'body.code is required'],
    [{ password: undefined }, 'body.password is required'],
    [{ nickname: 'Sun<script>' }, 'body.nickname must not contain any of these characters'],
    [{ nickname: 'Ｓｕｎ＃' }, 'body.nickname must not contain any of these characters'],
  ])('refuses %o with code 4 naming the field and rule, writing nothing and keeping the code', async (bad, message) => {
    const account = uniqueAccount('val');
    const { code } = await requestCode(s, account, 'signup');
    const body = { account, password: 'Sun-Power1', code, ...bad };
    const res = await signup(JSON.parse(JSON.stringify(body)));
    expect(res.body.code).toBe(ErrorCode.validation);
    expect(res.body.msg).toContain(`Invalid input: ${message}`);
    expect(res.body.data).toEqual(invalidInput(message).data);
    expect(await countUsers(s, account)).toBe(0);
    expect(await s.db.selectFrom('users').select('id').where('account', '=', String(body.account)).execute()).toHaveLength(0);
    // The code was not spent on the bad request.
    expect((await signup({ account, password: 'Sun-Power1', code })).body.code).toBe(ErrorCode.ok);
  });
});

describe('POST /anonymous/resetPwd', () => {
  it('sets a new password with the mailed code, revokes every session, and the old password stops working', async () => {
    const u = await s.user();
    const a = await s.login(u.account);
    const b = await s.login(u.account);
    const { code } = await requestCode(s, u.account, 'reset');
    expect((await reset({ account: u.account, password: 'N3w-secret', code })).body).toEqual({
      code: ErrorCode.ok,
      msg: 'ok',
      data: null,
    });
    for (const session of [a, b]) {
      expect((await s.call(session.access, 'GET', '/api/v1/user')).status).toBe(401);
      expect((await refresh(session.refresh)).status).toBe(401);
    }
    expect((await login(u.account, PASSWORD)).body.code).toBe(ErrorCode.wrongCredentials);
    expect((await login(u.account, 'N3w-secret')).body.code).toBe(ErrorCode.ok);
    // The code was used up.
    expect((await reset({ account: u.account, password: 'Other-pw1', code })).body.code).toBe(ErrorCode.codeWrong);
    expect((await login(u.account, 'N3w-secret')).body.code).toBe(ErrorCode.ok);
  });

  it('answers an unknown account exactly like a wrong code (5)', async () => {
    const u = await s.user();
    const { code } = await requestCode(s, u.account, 'reset');
    const wrongCode = await reset({ account: u.account, password: 'N3w-secret', code: other(code) });
    const unknown = await reset({ account: uniqueAccount('ghost'), password: 'N3w-secret', code });
    expect(wrongCode).toEqual({
      status: 200,
      body: { code: ErrorCode.codeWrong, msg: 'The verification code is wrong', data: null },
    });
    expect(unknown).toEqual(wrongCode);
    expect((await login(u.account, PASSWORD)).body.code).toBe(ErrorCode.ok);
  });

  it('answers 6 for an expired code and leaves the password', async () => {
    const u = await s.user();
    const { code } = await requestCode(s, u.account, 'reset');
    await expireCodes(s, u.account);
    expect((await reset({ account: u.account, password: 'N3w-secret', code })).body.code).toBe(ErrorCode.codeExpired);
    expect((await login(u.account, PASSWORD)).body.code).toBe(ErrorCode.ok);
  });

  it('a sign-up code does not reset a password', async () => {
    const u = await s.user();
    const account = uniqueAccount('x');
    const { code } = await requestCode(s, account, 'signup');
    expect((await reset({ account, password: 'N3w-secret', code })).body.code).toBe(ErrorCode.codeWrong);
    expect((await reset({ account: u.account, password: 'N3w-secret', code })).body.code).toBe(ErrorCode.codeWrong);
  });

  it.each([
    [{ password: 'a b c d e' }, 'body.password must be 6 to 16 characters without spaces'],
    [{ password: 'Tab\tchar1' }, 'body.password must be 6 to 16 characters without spaces'],
    [{ password: 'short' }, 'body.password must be at least 6 characters'],
    [{ password: 'seventeen-chars-x' }, 'body.password must be at most 16 characters'],
    [{ account: 'nope' }, 'body.account must be a valid e-mail address'],
    [{ code: '1' }, 'body.code must be 6 digits'],
  ])('refuses %o with code 4, changing nothing', async (bad, message) => {
    const u = await s.user();
    const { code } = await requestCode(s, u.account, 'reset');
    const before = await userRow(s, u.id);
    const res = await reset({ account: u.account, password: 'N3w-secret', code, ...bad });
    expect(res.body).toEqual(invalidInput(`${message}`));
    expect(await userRow(s, u.id)).toEqual(before);
  });
});

describe('GET /anonymous/ip', () => {
  it("answers the caller's address and ignores X-Forwarded-For by default", async () => {
    const res = await s.app.inject({
      method: 'GET',
      url: '/anonymous/ip',
      remoteAddress: '203.0.113.7',
      headers: { 'x-forwarded-for': '198.51.100.1' },
    });
    expect(res.json()).toEqual({ code: ErrorCode.ok, msg: 'ok', data: { ip: '203.0.113.7' } });
  });

  it('behind TRUST_PROXY=1 takes the address the proxy saw, not one the client wrote', async () => {
    const app = await buildApp({ ...s.app.deps, config: { ...s.config, trustProxy: 1 } });
    try {
      const res = await app.inject({
        method: 'GET',
        url: '/anonymous/ip',
        remoteAddress: '10.0.0.2',
        // The client forged the first entry; the proxy appended the real peer.
        headers: { 'x-forwarded-for': '1.2.3.4, 198.51.100.9' },
      });
      expect(res.json().data).toEqual({ ip: '198.51.100.9' });
    } finally {
      await app.close();
    }
  });
});
