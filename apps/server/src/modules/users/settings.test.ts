/** Personal settings (user/personalized) and abnormal-event notifications (user/notify*). */

import { ErrorCode } from '@sunfleet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeIn, signedIn, userRow } from '../../../test/account.ts';
import { invalidInput } from '../../../test/envelopes.ts';
import { startServer, type TestServer, uniqueAccount } from '../../../test/harness.ts';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

const signIn = (opts: Parameters<TestServer['user']>[0] = {}) => signedIn(s, opts);

describe('GET/POST /api/v1/user/personalized', () => {
  it('saves settings one key at a time and gives them back; null removes a key', async () => {
    const me = await signIn();
    expect((await s.call(me.access, 'GET', '/api/v1/user/personalized')).body).toEqual({
      code: ErrorCode.ok,
      msg: 'ok',
      data: {},
    });
    const menu = { hidden: ['firmware'], order: [3, 1, 2], dense: true };
    await s.call(me.access, 'POST', '/api/v1/user/personalized', { key: 'menu', value: menu });
    const saved = await s.call(me.access, 'POST', '/api/v1/user/personalized', {
      key: 'plants.columns',
      value: ['name', 'capacity'],
    });
    expect(saved.body).toEqual({ code: ErrorCode.ok, msg: 'ok', data: { menu, 'plants.columns': ['name', 'capacity'] } });
    expect((await s.call(me.access, 'GET', '/api/v1/user/personalized')).body.data).toEqual({
      menu,
      'plants.columns': ['name', 'capacity'],
    });
    await s.call(me.access, 'POST', '/api/v1/user/personalized', { key: 'menu', value: null });
    expect((await s.call(me.access, 'GET', '/api/v1/user/personalized')).body.data).toEqual({
      'plants.columns': ['name', 'capacity'],
    });
  });

  it("keeps each user's settings apart", async () => {
    const a = await signIn();
    const b = await signIn();
    await s.call(a.access, 'POST', '/api/v1/user/personalized', { key: 'theme', value: 'dark' });
    expect((await s.call(b.access, 'GET', '/api/v1/user/personalized')).body.data).toEqual({});
  });

  it('refuses a value over 16 KB with code 4 and keeps what was saved', async () => {
    const me = await signIn();
    await s.call(me.access, 'POST', '/api/v1/user/personalized', { key: 'k', value: 'small' });
    // 16 KB of JSON counted in bytes: 6,000 three-byte characters are 18 KB.
    for (const value of ['x'.repeat(16 * 1024), '€'.repeat(6000)]) {
      const res = await s.call(me.access, 'POST', '/api/v1/user/personalized', { key: 'k', value });
      expect(res.body).toEqual(invalidInput('body.value must be at most 16 KB'));
    }
    expect((await s.call(me.access, 'GET', '/api/v1/user/personalized')).body.data).toEqual({ k: 'small' });
    const fits = await s.call(me.access, 'POST', '/api/v1/user/personalized', { key: 'k', value: 'x'.repeat(16 * 1024 - 2) });
    expect(fits.body.code).toBe(ErrorCode.ok);
  });

  it('refuses a 65th key with code 4', async () => {
    const me = await signIn();
    const full = Object.fromEntries(Array.from({ length: 64 }, (_, i) => [`k${i}`, i]));
    await s.db
      .updateTable('users')
      .set({ personalized: JSON.stringify(full) })
      .where('id', '=', me.id)
      .execute();
    const res = await s.call(me.access, 'POST', '/api/v1/user/personalized', { key: 'one-more', value: 1 });
    expect(res.body).toEqual(invalidInput('body.key: at most 64 settings'));
    expect(JSON.parse((await userRow(s, me.id)).personalized)).toEqual(full);
    // Replacing an existing key is fine at the limit.
    expect((await s.call(me.access, 'POST', '/api/v1/user/personalized', { key: 'k1', value: 'new' })).body.code).toBe(
      ErrorCode.ok,
    );
  });

  it.each([
    [{ key: '', value: 1 }, 'body.key must not be empty'],
    [{ key: 'k'.repeat(65), value: 1 }, 'body.key must be at most 64 characters'],
    [{ key: 'has space', value: 1 }, 'body.key has an invalid format'],
    [{ value: 1 }, 'body.key is required'],
  ])('refuses %o with code 4', async (body, message) => {
    const me = await signIn();
    const res = await s.call(me.access, 'POST', '/api/v1/user/personalized', body);
    expect(res.body).toEqual(invalidInput(`${message}`));
    expect((await userRow(s, me.id)).personalized).toBe('{}');
  });
});

describe('notifications: GET user/notify/code, POST user/notify, GET user/notify/enable', () => {
  const notifyCode = async (access: string, to: string, email?: string) => {
    const next = s.smtp.waitFor(to);
    const res = await s.call(access, 'GET', `/api/v1/user/notify/code${email ? `?email=${encodeURIComponent(email)}` : ''}`);
    expect(res.body).toEqual({ code: ErrorCode.ok, msg: 'ok', data: null });
    return codeIn(await next);
  };
  const other = (code: string) => (code === '000000' ? '111111' : '000000');

  it("mails a code to the account's address; with it notifications switch on, and off again", async () => {
    const me = await signIn();
    expect((await s.call(me.access, 'GET', '/api/v1/user/notify/enable')).body.data).toEqual({ enabled: false, email: null });
    const code = await notifyCode(me.access, me.account);
    const on = await s.call(me.access, 'POST', '/api/v1/user/notify', { enable: true, code });
    expect(on.body).toEqual({ code: ErrorCode.ok, msg: 'ok', data: { enabled: true, email: me.account } });
    expect((await s.call(me.access, 'GET', '/api/v1/user/notify/enable')).body.data).toEqual({
      enabled: true,
      email: me.account,
    });
    expect(((await s.call(me.access, 'GET', '/api/v1/user')).body.data as { notifyEnabled: boolean }).notifyEnabled).toBe(true);
    const off = await s.call(me.access, 'POST', '/api/v1/user/notify', { enable: false });
    expect(off.body.data).toEqual({ enabled: false, email: me.account });
    expect((await s.call(me.access, 'GET', '/api/v1/user/notify/enable')).body.data).toMatchObject({ enabled: false });
  });

  it('confirms another address with the code mailed to it', async () => {
    const me = await signIn();
    const alerts = uniqueAccount('alerts');
    const code = await notifyCode(me.access, alerts, alerts);
    // The code is for that address only.
    expect((await s.call(me.access, 'POST', '/api/v1/user/notify', { enable: true, code })).body.code).toBe(ErrorCode.codeWrong);
    const on = await s.call(me.access, 'POST', '/api/v1/user/notify', { enable: true, email: alerts, code });
    expect(on.body.data).toEqual({ enabled: true, email: alerts });
  });

  it('answers 5 for a wrong or missing code and 6 for an expired one, staying off', async () => {
    const me = await signIn();
    const code = await notifyCode(me.access, me.account);
    expect((await s.call(me.access, 'POST', '/api/v1/user/notify', { enable: true, code: other(code) })).body).toEqual({
      code: ErrorCode.codeWrong,
      msg: 'The verification code is wrong',
      data: null,
    });
    expect((await s.call(me.access, 'POST', '/api/v1/user/notify', { enable: true })).body.code).toBe(ErrorCode.codeWrong);
    await s.db
      .updateTable('verification_codes')
      .set({ expires_at: Date.now() - 1 })
      .where('account', '=', `${me.id}:${me.account}`)
      .execute();
    expect((await s.call(me.access, 'POST', '/api/v1/user/notify', { enable: true, code })).body.code).toBe(
      ErrorCode.codeExpired,
    );
    expect((await userRow(s, me.id)).notify_enabled).toBe(0);
  });

  it("one user's code does not switch on another user's notifications", async () => {
    const a = await signIn();
    const b = await signIn();
    const shared = uniqueAccount('shared');
    const code = await notifyCode(a.access, shared, shared);
    expect((await s.call(b.access, 'POST', '/api/v1/user/notify', { enable: true, email: shared, code })).body.code).toBe(
      ErrorCode.codeWrong,
    );
  });

  it('refuses a bad address or code format with code 4, and sends nothing', async () => {
    const me = await signIn();
    const before = s.smtp.messages.length;
    const bad = await s.call(me.access, 'GET', '/api/v1/user/notify/code?email=nope');
    expect(bad.body).toEqual(invalidInput('querystring.email must be a valid e-mail address'));
    const badCode = await s.call(me.access, 'POST', '/api/v1/user/notify', { enable: true, code: '12' });
    expect(badCode.body).toEqual(invalidInput('body.code must be 6 digits'));
    const noFlag = await s.call(me.access, 'POST', '/api/v1/user/notify', {});
    expect(noFlag.body).toEqual(invalidInput('body.enable is required'));
    expect(s.smtp.messages.length).toBe(before);
  });

  it('a read-only account cannot change notifications (2)', async () => {
    const me = await signIn({ readOnly: true });
    expect((await s.call(me.access, 'POST', '/api/v1/user/notify', { enable: false })).body.code).toBe(ErrorCode.noPermission);
  });
});
