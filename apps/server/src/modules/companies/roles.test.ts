import { ErrorCode } from '@sunfleet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness.ts';
import { now } from '../../db/index.ts';

let s: TestServer;
let adminA: string;
let adminB: string;
let companyA: number;
let roleB: number;
const holds = [
  'station.view',
  'equip.view',
  'company.management',
  'company.role.list.view',
  'company.role.add',
  'company.role.edit',
  'company.role.delete',
];

async function company(name: string) {
  const t = now();
  return (
    await s.db
      .insertInto('companies')
      .values({ name, permissions: JSON.stringify(holds), created_at: t, updated_at: t })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
}

beforeAll(async () => {
  s = await startServer();
  companyA = await company('Alpha');
  const companyB = await company('Beta');
  adminA = (await s.login((await s.user({ kind: 'company_admin', companyId: companyA })).account)).access;
  adminB = (await s.login((await s.user({ kind: 'company_admin', companyId: companyB })).account)).access;
  const made = await s.call(adminB, 'POST', '/api/v1/company/role', { name: 'Beta tech', permissions: ['station.view'] });
  roleB = (made.body.data as { id: number }).id;
});
afterAll(() => s.close());

describe('company roles', () => {
  it('adds roles up to five, then answers 800 and writes nothing', async () => {
    for (let i = 1; i <= 5; i++) {
      const res = await s.call(adminA, 'POST', '/api/v1/company/role', { name: `Role ${i}`, permissions: ['station.view'] });
      expect(res.body).toMatchObject({
        code: ErrorCode.ok,
        data: { name: `Role ${i}`, permissions: ['station.view'], users: 0 },
      });
    }
    const sixth = await s.call(adminA, 'POST', '/api/v1/company/role', { name: 'Role 6', permissions: [] });
    expect(sixth.body).toMatchObject({ code: ErrorCode.roleLimit, data: null });
    const list = await s.call(adminA, 'GET', '/api/v1/company/roles');
    expect((list.body.data as unknown[]).length).toBe(5);
  });

  it('answers 801 for a name the company already has, in add, edit and check', async () => {
    await s.db.deleteFrom('company_roles').where('company_id', '=', companyA).where('name', '=', 'Role 5').execute();
    const dup = await s.call(adminA, 'POST', '/api/v1/company/role', { name: 'Role 1', permissions: [] });
    expect(dup.body.code).toBe(ErrorCode.roleExists);
    expect((await s.call(adminA, 'GET', '/api/v1/company/role/check?name=Role%201')).body.code).toBe(ErrorCode.roleExists);
    expect((await s.call(adminA, 'GET', '/api/v1/company/role/check?name=Fresh')).body.code).toBe(ErrorCode.ok);
    const roles = (await s.call(adminA, 'GET', '/api/v1/company/roles')).body.data as Array<{ id: number; name: string }>;
    const r2 = roles.find((r) => r.name === 'Role 2')!;
    const rename = await s.call(adminA, 'POST', `/api/v1/company/role/${r2.id}`, { name: 'Role 1', permissions: [] });
    expect(rename.body.code).toBe(ErrorCode.roleExists);
    // The same name on the role itself is not a clash; another company's names do not count.
    expect((await s.call(adminA, 'GET', `/api/v1/company/role/check?name=Role%202&id=${r2.id}`)).body.code).toBe(ErrorCode.ok);
    expect((await s.call(adminA, 'GET', '/api/v1/company/role/check?name=Beta%20tech')).body.code).toBe(ErrorCode.ok);
  });

  it('grants no more than the company holds', async () => {
    const res = await s.call(adminA, 'POST', '/api/v1/company/role', { name: 'Greedy', permissions: ['firmware.management'] });
    expect(res.body.code).toBe(ErrorCode.noPermission);
    expect(await s.db.selectFrom('company_roles').select('id').where('name', '=', 'Greedy').executeTakeFirst()).toBeUndefined();
  });

  it("answers as if another company's role did not exist", async () => {
    expect((await s.call(adminA, 'GET', `/api/v1/company/role/${roleB}`)).body).toMatchObject({
      code: ErrorCode.notFound,
      data: null,
    });
    expect((await s.call(adminA, 'POST', `/api/v1/company/role/${roleB}`, { name: 'Hijacked', permissions: [] })).body.code).toBe(
      404,
    );
    expect((await s.call(adminA, 'POST', `/api/v1/company/role/${roleB}/delete`)).body.code).toBe(ErrorCode.notFound);
    const still = await s.call(adminB, 'GET', `/api/v1/company/role/${roleB}`);
    expect(still.body.data).toMatchObject({ name: 'Beta tech' });
  });

  it('a company user may not change or delete the role they hold (803); a role in use is deleted only with where its users go', async () => {
    const roles = (await s.call(adminA, 'GET', '/api/v1/company/roles')).body.data as Array<{ id: number; name: string }>;
    const own = roles.find((r) => r.name === 'Role 3')!;
    await s.db
      .updateTable('company_roles')
      .set({
        permissions: JSON.stringify(['company.management', 'company.role.list.view', 'company.role.edit', 'company.role.delete']),
      })
      .where('id', '=', own.id)
      .execute();
    const lead = await s.user({ kind: 'company_user', companyId: companyA, roleId: own.id });
    const token = (await s.login(lead.account)).access;
    expect((await s.call(token, 'POST', `/api/v1/company/role/${own.id}`, { name: 'Role 3', permissions: [] })).body.code).toBe(
      803,
    );
    expect((await s.call(token, 'POST', `/api/v1/company/role/${own.id}/delete`)).body.code).toBe(ErrorCode.ownRoleLocked);
    const r4 = roles.find((r) => r.name === 'Role 4')!;
    const r2 = roles.find((r) => r.name === 'Role 2')!;
    const holder = await s.user({ kind: 'company_user', companyId: companyA, roleId: r4.id });
    // In use and no target: refused, nothing changes.
    expect((await s.call(adminA, 'POST', `/api/v1/company/role/${r4.id}/delete`)).body.code).toBe(ErrorCode.validation);
    // Another company's role as the target: as if it did not exist.
    expect((await s.call(adminA, 'POST', `/api/v1/company/role/${r4.id}/delete?moveTo=${roleB}`)).body.code).toBe(
      ErrorCode.notFound,
    );
    expect((await s.call(adminA, 'POST', `/api/v1/company/role/${r4.id}/delete?moveTo=${r4.id}`)).body.code).toBe(
      ErrorCode.validation,
    );
    expect(await s.db.selectFrom('company_roles').select('id').where('id', '=', r4.id).executeTakeFirst()).toBeDefined();
    const moved = await s.call(adminA, 'POST', `/api/v1/company/role/${r4.id}/delete?moveTo=${r2.id}`);
    expect(moved.body.code).toBe(ErrorCode.ok);
    const after = await s.db.selectFrom('users').select('role_id').where('id', '=', holder.id).executeTakeFirstOrThrow();
    expect(after.role_id).toBe(r2.id);
    expect(await s.db.selectFrom('company_roles').select('id').where('id', '=', r4.id).executeTakeFirst()).toBeUndefined();
    const audit = await s.db
      .selectFrom('admin_audit')
      .selectAll()
      .where('entity', '=', 'role')
      .where('entity_id', '=', String(r4.id))
      .where('action', '=', 'delete')
      .executeTakeFirstOrThrow();
    expect(audit.company_id).toBe(companyA);
    expect(JSON.parse(audit.before_values!)).toMatchObject({ name: 'Role 4', users: [holder.id] });
    expect(JSON.parse(audit.after_values!)).toEqual({ usersMovedTo: r2.id });
    // An unused role needs no target.
    const spare = await s.call(adminA, 'POST', '/api/v1/company/role', { name: 'Spare', permissions: [] });
    const spareId = (spare.body.data as { id: number }).id;
    expect((await s.call(adminA, 'POST', `/api/v1/company/role/${spareId}/delete`)).body.code).toBe(ErrorCode.ok);
  });

  it('records every role change in the audit log with its company, before and after', async () => {
    const made = await s.call(adminA, 'POST', '/api/v1/company/role', { name: 'Audited', permissions: ['station.view'] });
    const id = (made.body.data as { id: number }).id;
    await s.call(adminA, 'POST', `/api/v1/company/role/${id}`, { name: 'Audited 2', permissions: [] });
    const rows = await s.db
      .selectFrom('admin_audit')
      .selectAll()
      .where('entity', '=', 'role')
      .where('entity_id', '=', String(id))
      .orderBy('id')
      .execute();
    expect(rows.map((r) => r.action)).toEqual(['create', 'edit']);
    expect(rows.every((r) => r.company_id === companyA)).toBe(true);
    expect(JSON.parse(rows[1]!.before_values!)).toEqual({ name: 'Audited', permissions: ['station.view'] });
    expect(JSON.parse(rows[1]!.after_values!)).toEqual({ name: 'Audited 2', permissions: [] });
    // A refused change writes no record.
    const before = await s.db
      .selectFrom('admin_audit')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect((await s.call(adminA, 'POST', `/api/v1/company/role/${id}`, { name: 'Role 1', permissions: [] })).body.code).toBe(
      ErrorCode.roleExists,
    );
    const after = await s.db
      .selectFrom('admin_audit')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    await s.call(adminA, 'POST', `/api/v1/company/role/${id}/delete`);
  });

  it('role names: 32 characters pass, 33 are refused (4)', async () => {
    const long = await s.call(adminA, 'POST', '/api/v1/company/role', { name: 'x'.repeat(33), permissions: [] });
    expect(long.body.code).toBe(ErrorCode.validation);
    const exact = await s.call(adminA, 'POST', '/api/v1/company/role', { name: 'y'.repeat(32), permissions: [] });
    expect(exact.body.code).toBe(ErrorCode.ok);
    await s.call(adminA, 'POST', `/api/v1/company/role/${(exact.body.data as { id: number }).id}/delete`);
  });

  it('refuses bad input with code 4 and nothing written', async () => {
    const res = await s.call(adminA, 'POST', '/api/v1/company/role', { name: 'Bad<name>', permissions: [] });
    expect(res.body.code).toBe(ErrorCode.validation);
    const extra = await s.call(adminA, 'POST', '/api/v1/company/role', { name: 'Ok', permissions: [], company_id: 99 });
    expect(extra.body.code).toBe(ErrorCode.validation);
    expect(
      await s.db.selectFrom('company_roles').select('id').where('name', 'in', ['Bad<name>', 'Ok']).executeTakeFirst(),
    ).toBeUndefined();
  });

  it('an owner without a company has no roles to manage', async () => {
    const owner = (await s.login((await s.user()).account)).access;
    expect((await s.call(owner, 'GET', '/api/v1/company/roles')).body.code).toBe(ErrorCode.noPermission);
  });
});
