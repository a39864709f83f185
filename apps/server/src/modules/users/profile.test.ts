/** One's own profile and password: GET user, POST user/{id}, POST user/{id}/pwd. */

import { ErrorCode } from '@sunfleet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedIn, userRow } from '../../../test/account.ts';
import { invalidInput } from '../../../test/envelopes.ts';
import { PASSWORD, startServer, type TestServer } from '../../../test/harness.ts';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

const signIn = (opts: Parameters<TestServer['user']>[0] = {}) => signedIn(s, opts);
const refresh = (token: string) => s.call(null, 'POST', '/oauth/token', { grant_type: 'refresh_token', refresh_token: token });

describe('GET /api/v1/user', () => {
  it('gives the profile with the role in the language asked for', async () => {
    const me = await signIn();
    const en = await s.call(me.access, 'GET', '/api/v1/user');
    expect(en.body).toEqual({
      code: ErrorCode.ok,
      msg: 'ok',
      data: {
        id: me.id,
        account: me.account,
        kind: 'end_user',
        role: 'Owner',
        nickname: null,
        name: null,
        gender: null,
        phone: null,
        avatar: null,
        company: null,
        temperatureUnit: 'C',
        language: 'en',
        readOnly: false,
        notifyEnabled: false,
      },
    });
    const es = await s.call(me.access, 'GET', '/api/v1/user?lan=es');
    expect((es.body.data as { role: string }).role).toBe('Propietario');
  });

  it("shows a company user's role and company brand; a company administrator's role in Spanish", async () => {
    const t = Date.now();
    const company = await s.db
      .insertInto('companies')
      .values({ name: `Co ${t}`, theme_color: null, created_at: t, updated_at: t })
      .returning('id')
      .executeTakeFirstOrThrow();
    const role = await s.db
      .insertInto('company_roles')
      .values({ company_id: company.id, name: 'Técnico', created_at: t })
      .returning('id')
      .executeTakeFirstOrThrow();
    const worker = await signIn({ kind: 'company_user', companyId: company.id, roleId: role.id });
    const res = await s.call(worker.access, 'GET', '/api/v1/user?lan=es');
    expect(res.body.data).toMatchObject({
      kind: 'company_user',
      role: 'Técnico',
      company: { id: company.id, name: `Co ${t}`, themeColor: '#00cc00', logoUrl: null, iconUrl: null },
    });
    const admin = await signIn({ kind: 'company_admin', companyId: company.id });
    expect(((await s.call(admin.access, 'GET', '/api/v1/user?lan=es')).body.data as { role: string }).role).toBe(
      'Administrador de la empresa',
    );
  });

  it('never sends the password hash, sessions or other secrets', async () => {
    const me = await signIn();
    await s.db.updateTable('users').set({ notify_email: 'alerts@example.com' }).where('id', '=', me.id).execute();
    const res = await s.app.inject({ method: 'GET', url: '/api/v1/user', headers: { authorization: `Bearer ${me.access}` } });
    const row = await userRow(s, me.id);
    expect(res.body).not.toContain(row.password_hash);
    expect(res.body).not.toMatch(/password|argon2|hash|session|refresh|personalized|agent_company/i);
    expect(res.body).not.toContain(me.refresh);
  });
});

describe('POST /api/v1/user/:id', () => {
  it('updates and trims one’s own profile', async () => {
    const me = await signIn();
    const res = await s.call(me.access, 'POST', `/api/v1/user/${me.id}`, {
      nickname: '  Sunny  ',
      name: ' Ana  Ruiz ',
      gender: 'female',
      phone: '+34 600-000-000',
      temperatureUnit: 'F',
      language: 'es',
    });
    expect(res.body).toMatchObject({
      code: ErrorCode.ok,
      data: {
        nickname: 'Sunny',
        name: 'Ana  Ruiz',
        gender: 'female',
        phone: '+34 600-000-000',
        temperatureUnit: 'F',
        language: 'es',
      },
    });
    expect(await userRow(s, me.id)).toMatchObject({
      nickname: 'Sunny',
      name: 'Ana  Ruiz',
      temperature_unit: 'F',
      language: 'es',
    });
    // Blank clears a text field; omitted fields stay.
    const cleared = await s.call(me.access, 'POST', `/api/v1/user/${me.id}`, { nickname: '   ' });
    expect(cleared.body.data).toMatchObject({ nickname: null, name: 'Ana  Ruiz', gender: 'female' });
  });

  it('also takes the form-encoded body the portal sends by default', async () => {
    const me = await signIn();
    const res = await s.app.inject({
      method: 'POST',
      url: `/api/v1/user/${me.id}`,
      headers: { authorization: `Bearer ${me.access}`, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'nickname=Form%20Name&temperatureUnit=F',
    });
    expect(res.json()).toMatchObject({ code: ErrorCode.ok, data: { nickname: 'Form Name', temperatureUnit: 'F' } });
  });

  it("refuses another user's id with code 2 and changes nothing", async () => {
    const victim = await s.user();
    const before = await userRow(s, victim.id);
    const me = await signIn();
    const res = await s.call(me.access, 'POST', `/api/v1/user/${victim.id}`, { nickname: 'Hacked' });
    expect(res.body).toEqual({ code: ErrorCode.noPermission, msg: 'You do not have permission for this', data: null });
    expect(await userRow(s, victim.id)).toEqual(before);
    expect((await userRow(s, me.id)).nickname).toBeNull();
  });

  it.each([
    ['kind', 'sysadmin'],
    ['company_id', 1],
    ['role_id', 1],
    ['read_only', 0],
    ['account', 'other@example.com'],
    ['enabled', 1],
    ['password_hash', 'x'],
    ['id', 1],
    ['companyId', 1],
  ])('refuses the privileged field %s with code 4 and writes nothing', async (fieldName, value) => {
    const me = await signIn();
    const before = await userRow(s, me.id);
    const res = await s.call(me.access, 'POST', `/api/v1/user/${me.id}`, { nickname: 'Changed', [fieldName]: value });
    expect(res.body).toEqual(invalidInput(`body.${fieldName} is not allowed`));
    expect(await userRow(s, me.id)).toEqual(before);
  });

  it.each([
    [{ nickname: 'Sun#1' }, 'body.nickname must not contain any of these characters'],
    [{ nickname: 'a/b' }, 'body.nickname must not contain any of these characters'],
    [{ name: 'Ｎａｍｅ＜' }, 'body.name must not contain any of these characters'],
    [{ nickname: 'x'.repeat(33) }, 'body.nickname must be at most 32 characters'],
    [{ gender: 'other' }, 'body.gender must be one of: male, female, null'],
    [{ temperatureUnit: 'K' }, 'body.temperatureUnit must be one of: C, F'],
    [{ language: 'fr' }, 'body.language must be one of: en, es'],
    [{ phone: 'call me' }, 'body.phone has an invalid format'],
  ])('refuses %o with code 4 naming the field and rule, writing nothing', async (body, message) => {
    const me = await signIn();
    const before = await userRow(s, me.id);
    const res = await s.call(me.access, 'POST', `/api/v1/user/${me.id}`, body);
    expect(res.body.code).toBe(ErrorCode.validation);
    expect(res.body.msg).toContain(`Invalid input: ${message}`);
    expect(await userRow(s, me.id)).toEqual(before);
  });

  it('refuses a read-only account with code 2', async () => {
    const me = await signIn({ readOnly: true });
    const before = await userRow(s, me.id);
    const res = await s.call(me.access, 'POST', `/api/v1/user/${me.id}`, { nickname: 'Visitor' });
    expect(res.body.code).toBe(ErrorCode.noPermission);
    expect(await userRow(s, me.id)).toEqual(before);
  });

  it('refuses a bad id with code 4', async () => {
    const me = await signIn();
    for (const id of ['abc', '0', '-1']) {
      const res = await s.call(me.access, 'POST', `/api/v1/user/${id}`, { nickname: 'x' });
      expect(res.body.code, id).toBe(ErrorCode.validation);
      expect(res.body.msg).toMatch(/^Invalid input: params\.id must be/);
    }
  });
});

describe('POST /api/v1/user/:id/pwd', () => {
  it('answers 108 for a wrong old password and keeps the password', async () => {
    const me = await signIn();
    const res = await s.call(me.access, 'POST', `/api/v1/user/${me.id}/pwd`, { oldPassword: 'Wrong123', password: 'N3w-secret' });
    expect(res.body).toEqual({ code: ErrorCode.oldPasswordWrong, msg: 'The old password is wrong', data: null });
    await s.login(me.account, PASSWORD);
  });

  it('changes the password: other sessions end, this one stays, the new password signs in', async () => {
    const me = await signIn();
    const other = await s.login(me.account);
    const res = await s.call(me.access, 'POST', `/api/v1/user/${me.id}/pwd`, { oldPassword: PASSWORD, password: 'N3w-secret' });
    expect(res.body).toEqual({ code: ErrorCode.ok, msg: 'ok', data: null });
    expect((await s.call(other.access, 'GET', '/api/v1/user')).status).toBe(401);
    expect((await refresh(other.refresh)).status).toBe(401);
    expect((await s.call(me.access, 'GET', '/api/v1/user')).body.code).toBe(ErrorCode.ok);
    expect((await refresh(me.refresh)).body.code).toBe(ErrorCode.ok);
    const old = await s.call(null, 'POST', '/oauth/token', { grant_type: 'password', username: me.account, password: PASSWORD });
    expect(old.body.code).toBe(ErrorCode.wrongCredentials);
    await s.login(me.account, 'N3w-secret');
  });

  it.each([
    [{ password: 'a b c d e' }, 'body.password must be 6 to 16 characters without spaces'],
    [{ password: '12345' }, 'body.password must be at least 6 characters'],
    [{ password: 'seventeen-chars-x' }, 'body.password must be at most 16 characters'],
    [{ password: undefined }, 'body.password is required'],
    [{ oldPassword: undefined }, 'body.oldPassword is required'],
  ])('refuses %o with code 4 and keeps the old password', async (bad, message) => {
    const me = await signIn();
    const body = JSON.parse(JSON.stringify({ oldPassword: PASSWORD, password: 'N3w-secret', ...bad }));
    const res = await s.call(me.access, 'POST', `/api/v1/user/${me.id}/pwd`, body);
    expect(res.body).toEqual(invalidInput(`${message}`));
    await s.login(me.account, PASSWORD);
  });

  it("refuses another user's id with code 2", async () => {
    const victim = await s.user();
    const me = await signIn();
    const res = await s.call(me.access, 'POST', `/api/v1/user/${victim.id}/pwd`, {
      oldPassword: PASSWORD,
      password: 'N3w-secret',
    });
    expect(res.body.code).toBe(ErrorCode.noPermission);
    await s.login(victim.account, PASSWORD);
    await s.login(me.account, PASSWORD);
  });

  it('refuses a read-only account with code 2', async () => {
    const me = await signIn({ readOnly: true });
    const res = await s.call(me.access, 'POST', `/api/v1/user/${me.id}/pwd`, { oldPassword: PASSWORD, password: 'N3w-secret' });
    expect(res.body.code).toBe(ErrorCode.noPermission);
    await s.login(me.account, PASSWORD);
  });
});
