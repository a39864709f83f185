/** A company's accounts: list, detail, add (multipart with avatar), edit, take out, check; codes 104, 106, 803; other companies' ids. */
import { companyGrantable, ErrorCode } from '@sunfleet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PNG_1PX } from '../../../test/account.ts';
import { startServer, type TestServer } from '../../../test/harness.ts';
import { now } from '../../db/index.ts';

let s: TestServer;
let companyA: number;
let companyB: number;
let admin: { id: number; access: string };
let roleA: number;
let roleA2: number;
let roleB: number;
let userB: number;

async function company(name: string) {
  const t = now();
  return (
    await s.db
      .insertInto('companies')
      .values({ name, permissions: JSON.stringify(companyGrantable), created_at: t, updated_at: t })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
}
const role = async (companyId: number, name: string, permissions: string[] = ['station.view']) =>
  (
    await s.db
      .insertInto('company_roles')
      .values({ company_id: companyId, name, permissions: JSON.stringify(permissions), created_at: now() })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;

/** A multipart form of text fields and an optional file. */
function form(fields: Record<string, string>, file?: { field: string; name: string; type: string; bytes: Buffer }) {
  const boundary = `----sf${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields))
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  if (file)
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
      file.bytes,
      Buffer.from('\r\n'),
    );
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

async function add(access: string, fields: Record<string, string>, file?: Parameters<typeof form>[1]) {
  const body = form(fields, file);
  const res = await s.app.inject({
    method: 'POST',
    url: '/api/v1/company/user/add',
    headers: { authorization: `Bearer ${access}`, 'content-type': body.contentType },
    payload: body.payload,
  });
  return res.json() as { code: number; msg: string; data: { id: number; avatar: string | null; roleId: number | null } | null };
}
const countAudit = async () =>
  Number(
    (
      await s.db
        .selectFrom('admin_audit')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

beforeAll(async () => {
  s = await startServer();
  companyA = await company('Alpha');
  companyB = await company('Beta');
  roleA = await role(companyA, 'Tech');
  roleA2 = await role(companyA, 'Lead', ['company.management', 'company.user', 'company.user.edit']);
  roleB = await role(companyB, 'Beta tech');
  const a = await s.user({ kind: 'company_admin', companyId: companyA });
  admin = { id: a.id, access: (await s.login(a.account)).access };
  userB = (await s.user({ kind: 'company_user', companyId: companyB, roleId: roleB })).id;
});
afterAll(() => s.close());

describe('adding accounts', () => {
  it('adds an account with a role and an avatar; it signs in with the company role; the record has no password', async () => {
    const res = await add(
      admin.access,
      {
        account: 'Nuria@Example.com',
        password: 'secret12',
        name: 'Nuria',
        phone: '+34 600',
        gender: 'female',
        roleId: String(roleA),
      },
      { field: 'avatar', name: 'n.png', type: 'image/png', bytes: PNG_1PX },
    );
    expect(res).toMatchObject({
      code: ErrorCode.ok,
      data: { account: 'nuria@example.com', kind: 'company_user', roleId: roleA, roleName: 'Tech' },
    });
    expect(res.data!.avatar).toMatch(/^\/uploads\/avatars\/[a-f0-9]{32}\.png$/);
    const login = await s.login('nuria@example.com', 'secret12');
    const perms = await s.call(login.access, 'GET', '/api/v1/permission');
    expect(JSON.stringify(perms.body.data)).toContain('station.view');
    const rec = await s.db
      .selectFrom('admin_audit')
      .selectAll()
      .where('entity', '=', 'user')
      .where('entity_id', '=', String(res.data!.id))
      .executeTakeFirstOrThrow();
    expect(rec).toMatchObject({ action: 'create', company_id: companyA, actor_user_id: admin.id });
    expect(rec.after_values).not.toMatch(/password|hash|secret12/);
  });

  it('answers 106 for an account in a company and 104 for any other existing account, in check and add', async () => {
    const owner = await s.user();
    const inB = await s.db.selectFrom('users').select('account').where('id', '=', userB).executeTakeFirstOrThrow();
    expect(
      (await s.call(admin.access, 'GET', `/api/v1/company/user/check?account=${encodeURIComponent(inB.account)}`)).body.code,
    ).toBe(106);
    expect(
      (await s.call(admin.access, 'GET', `/api/v1/company/user/check?account=${encodeURIComponent(owner.account)}`)).body.code,
    ).toBe(104);
    expect((await s.call(admin.access, 'GET', '/api/v1/company/user/check?account=free%40example.com')).body.code).toBe(
      ErrorCode.ok,
    );
    const audits = await countAudit();
    expect((await add(admin.access, { account: inB.account, password: 'secret12' })).code).toBe(ErrorCode.accountInCompany);
    expect((await add(admin.access, { account: owner.account.toUpperCase(), password: 'secret12' })).code).toBe(
      ErrorCode.accountExists,
    );
    expect(await countAudit()).toBe(audits);
  });

  it('refuses bad fields (4) naming the field, a role of another company (404), a non-image avatar (4); nothing written', async () => {
    const users = async () =>
      Number(
        (
          await s.db
            .selectFrom('users')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await users();
    const bad = await add(admin.access, { account: 'x@example.com', password: '123' });
    expect(bad.code).toBe(ErrorCode.validation);
    expect(bad.msg).toContain('password');
    expect((await add(admin.access, { account: 'not-an-email', password: 'secret12' })).code).toBe(ErrorCode.validation);
    expect((await add(admin.access, { account: 'x@example.com', password: 'secret12', name: 'n'.repeat(65) })).code).toBe(
      ErrorCode.validation,
    );
    expect((await add(admin.access, { account: 'x@example.com', password: 'secret12', companyId: String(companyB) })).code).toBe(
      4,
    );
    expect((await add(admin.access, { account: 'x@example.com', password: 'secret12', roleId: String(roleB) })).code).toBe(
      ErrorCode.notFound,
    );
    const svg = { field: 'avatar', name: 'a.png', type: 'image/png', bytes: Buffer.from('<svg/>') };
    expect((await add(admin.access, { account: 'x@example.com', password: 'secret12' }, svg)).code).toBe(ErrorCode.validation);
    const json = await s.call(admin.access, 'POST', '/api/v1/company/user/add', {
      account: 'x@example.com',
      password: 'secret12',
    });
    expect(json.body.code).toBe(ErrorCode.validation);
    expect(await users()).toBe(before);
    // 64 characters of name pass.
    expect((await add(admin.access, { account: 'long@example.com', password: 'secret12', name: 'n'.repeat(64) })).code).toBe(
      ErrorCode.ok,
    );
  });
});

describe('listing, editing and taking out', () => {
  it("lists only the company's accounts, filters by keyword and role, pages", async () => {
    const list = await s.call(admin.access, 'GET', '/api/v1/company/user/list?size=100');
    const data = list.body.data as { total: number; list: Array<{ id: number; account: string; companyId?: number }> };
    expect(data.list.some((u) => u.id === userB)).toBe(false);
    expect(data.list.some((u) => u.id === admin.id)).toBe(true);
    expect(data.total).toBe(data.list.length);
    const found = (await s.call(admin.access, 'GET', '/api/v1/company/user/list?keyword=NURIA')).body.data as typeof data;
    expect(found.list.map((u) => u.account)).toEqual(['nuria@example.com']);
    const byRole = (await s.call(admin.access, 'GET', `/api/v1/company/user/list?roleId=${roleA}`)).body.data as typeof data;
    expect(byRole.list.map((u) => u.account)).toEqual(['nuria@example.com']);
    const page = (await s.call(admin.access, 'GET', '/api/v1/company/user/list?page=2&size=1')).body.data as typeof data;
    expect(page.list).toHaveLength(1);
    expect(page.total).toBe(data.total);
    // A keyword with LIKE wildcards matches them literally.
    for (const k of ['%25', '%5C']) {
      const none = (await s.call(admin.access, 'GET', `/api/v1/company/user/list?keyword=${k}`)).body.data as typeof data;
      expect(none.total, k).toBe(0);
    }
    const underscore = (await s.call(admin.access, 'GET', '/api/v1/company/user/list?keyword=_&size=100')).body
      .data as typeof data;
    expect(underscore.list.length).toBeGreaterThan(0);
    expect(underscore.list.every((u) => u.account.includes('_'))).toBe(true);
  });

  it("another company's account answers 404 on detail, edit and delete, and is not changed", async () => {
    const before = await s.db.selectFrom('users').selectAll().where('id', '=', userB).executeTakeFirstOrThrow();
    expect((await s.call(admin.access, 'GET', `/api/v1/company/user/${userB}/`)).body).toMatchObject({
      code: ErrorCode.notFound,
      data: null,
    });
    expect((await s.call(admin.access, 'POST', `/api/v1/company/user/edit/${userB}`, { name: 'Taken' })).body.code).toBe(
      ErrorCode.notFound,
    );
    expect((await s.call(admin.access, 'POST', `/api/v1/company/user/delete/${userB}`)).body.code).toBe(ErrorCode.notFound);
    expect(await s.db.selectFrom('users').selectAll().where('id', '=', userB).executeTakeFirstOrThrow()).toEqual(before);
  });

  it('edits an account and its role, recording before and after; 803 for one’s own role', async () => {
    const nuria = await s.db
      .selectFrom('users')
      .select('id')
      .where('account', '=', 'nuria@example.com')
      .executeTakeFirstOrThrow();
    const res = await s.call(admin.access, 'POST', `/api/v1/company/user/edit/${nuria.id}`, { name: 'Nuria G', roleId: roleA2 });
    expect(res.body).toMatchObject({ code: ErrorCode.ok, data: { name: 'Nuria G', roleId: roleA2, roleName: 'Lead' } });
    const rec = await s.db
      .selectFrom('admin_audit')
      .selectAll()
      .where('entity', '=', 'user')
      .where('entity_id', '=', String(nuria.id))
      .where('action', '=', 'edit')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(rec.before_values!)).toMatchObject({ name: 'Nuria', roleId: roleA });
    expect(JSON.parse(rec.after_values!)).toMatchObject({ name: 'Nuria G', roleId: roleA2 });

    // Nuria now holds "Lead" (may edit users): her own role stays, her own name may change.
    const nuriaToken = (await s.login('nuria@example.com', 'secret12')).access;
    expect((await s.call(nuriaToken, 'POST', `/api/v1/company/user/edit/${nuria.id}`, { roleId: roleA })).body.code).toBe(
      ErrorCode.ownRoleLocked,
    );
    expect(
      (await s.call(nuriaToken, 'POST', `/api/v1/company/user/edit/${nuria.id}`, { roleId: roleA2, name: 'N' })).body.code,
    ).toBe(0);
    // Nor may anyone re-role the company administrator.
    expect((await s.call(nuriaToken, 'POST', `/api/v1/company/user/edit/${admin.id}`, { roleId: roleA })).body.code).toBe(
      ErrorCode.noPermission,
    );
    expect((await s.call(admin.access, 'POST', `/api/v1/company/user/edit/${admin.id}`, { roleId: roleA })).body.code).toBe(
      ErrorCode.ownRoleLocked,
    );
    // A role of another company: as if it did not exist.
    expect((await s.call(admin.access, 'POST', `/api/v1/company/user/edit/${nuria.id}`, { roleId: roleB })).body.code).toBe(
      ErrorCode.notFound,
    );
    expect((await s.call(admin.access, 'POST', `/api/v1/company/user/edit/${nuria.id}`, { phone: 'abc' })).body.code).toBe(
      ErrorCode.validation,
    );
  });

  it('taking an account out leaves a plain account: no company, no role, sessions ended; the administrator stays', async () => {
    const gone = await s.user({ kind: 'company_user', companyId: companyA, roleId: roleA });
    const session = (await s.login(gone.account)).access;
    expect((await s.call(admin.access, 'POST', `/api/v1/company/user/delete/${admin.id}`)).body.code).toBe(
      ErrorCode.noPermission,
    );
    expect((await s.call(admin.access, 'POST', `/api/v1/company/user/delete/${gone.id}`)).body.code).toBe(ErrorCode.ok);
    const row = await s.db.selectFrom('users').selectAll().where('id', '=', gone.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ company_id: null, role_id: null, kind: 'end_user' });
    expect((await s.call(session, 'GET', '/api/v1/user')).status).toBe(401);
    expect((await s.call(admin.access, 'GET', `/api/v1/company/user/${gone.id}/`)).body.code).toBe(ErrorCode.notFound);
    const rec = await s.db
      .selectFrom('admin_audit')
      .selectAll()
      .where('entity', '=', 'user')
      .where('entity_id', '=', String(gone.id))
      .executeTakeFirstOrThrow();
    expect(rec).toMatchObject({ action: 'delete', company_id: companyA });
    // Once out, the account may join another company.
    expect(
      (await s.call(admin.access, 'GET', `/api/v1/company/user/check?account=${encodeURIComponent(gone.account)}`)).body.code,
    ).toBe(104);
  });

  it('a company user without the user permissions is refused (2)', async () => {
    const plain = (await s.login((await s.user({ kind: 'company_user', companyId: companyA, roleId: roleA })).account)).access;
    expect((await s.call(plain, 'GET', '/api/v1/company/user/list')).body.code).toBe(ErrorCode.noPermission);
    expect((await add(plain, { account: 'y@example.com', password: 'secret12' })).code).toBe(ErrorCode.noPermission);
  });
});
