/** GET /api/v1/admin/audit: who sees which records, the filters, paging. */
import { companyGrantable, ErrorCode } from '@sunfleet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness.ts';
import { recordAdminChange } from '../../audit/admin.ts';
import { now } from '../../db/index.ts';

let s: TestServer;
let companyA: number;
let companyB: number;
let adminA: { id: number; access: string };
let adminB: { id: number; access: string };
let operator: { id: number; access: string };
const T0 = Date.parse('2026-03-01T00:00:00Z');

type Page = {
  total: number;
  list: Array<{
    id: number;
    entity: string;
    companyId: number | null;
    actorAccount: string;
    at: string;
    before: unknown;
    after: unknown;
    companyName: string | null;
  }>;
};
const read = async (token: string, q = '') => {
  const res = await s.call(token, 'GET', `/api/v1/admin/audit${q}`);
  return { code: res.body.code, data: res.body.data as Page };
};

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
const account = async (opts: Parameters<TestServer['user']>[0]) => {
  const u = await s.user(opts);
  return { id: u.id, access: (await s.login(u.account)).access };
};

beforeAll(async () => {
  s = await startServer();
  companyA = await company('Alpha');
  companyB = await company('Beta');
  adminA = await account({ kind: 'company_admin', companyId: companyA, account: 'ana@alpha.example' });
  adminB = await account({ kind: 'company_admin', companyId: companyB, account: 'bob@beta.example' });
  operator = await account({ kind: 'sysadmin', account: 'ops@sunfleet.example' });
  // Three records a day apart: A's role, B's user, a system-wide gateway record by the operator.
  await recordAdminChange(
    s.db,
    { actorUserId: adminA.id, companyId: companyA, entity: 'role', entityId: 1, action: 'create', after: { name: 'Tech' } },
    T0,
  );
  await recordAdminChange(
    s.db,
    {
      actorUserId: adminB.id,
      companyId: companyB,
      entity: 'user',
      entityId: 2,
      action: 'edit',
      before: { name: 'a' },
      after: { name: 'b' },
    },
    T0 + 86_400_000,
  );
  await recordAdminChange(
    s.db,
    { actorUserId: operator.id, companyId: null, entity: 'gateway_stock', entityId: 'GW1', action: 'import' },
    T0 + 2 * 86_400_000,
  );
});
afterAll(() => s.close());

describe('GET /api/v1/admin/audit', () => {
  it('operators see every record, newest first, with actor account and company name', async () => {
    const { code, data } = await read(operator.access);
    expect(code).toBe(0);
    expect(data.total).toBe(3);
    expect(data.list.map((r) => r.entity)).toEqual(['gateway_stock', 'user', 'role']);
    expect(data.list[1]).toMatchObject({
      actorAccount: 'bob@beta.example',
      companyName: 'Beta',
      before: { name: 'a' },
      after: { name: 'b' },
    });
    expect(data.list[0]).toMatchObject({ companyId: null, before: null, after: null, at: '2026-03-03T00:00:00.000Z' });
  });

  it("a company administrator sees only their company's records, whatever company they ask for", async () => {
    const own = await read(adminA.access);
    expect(own.data.list.map((r) => r.companyId)).toEqual([companyA]);
    const other = await read(adminA.access, `?companyId=${companyB}`);
    expect(other).toEqual({ code: ErrorCode.ok, data: { total: 0, list: [] } });
  });

  it('a company user, even with company.management, and an owner are refused (2)', async () => {
    const role = await s.db
      .insertInto('company_roles')
      .values({
        company_id: companyA,
        name: 'Lead',
        permissions: JSON.stringify(['company.management', 'company.info']),
        created_at: now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const lead = await account({ kind: 'company_user', companyId: companyA, roleId: role.id });
    expect((await read(lead.access)).code).toBe(ErrorCode.noPermission);
    expect((await read((await account({})).access)).code).toBe(ErrorCode.noPermission);
  });

  it('filters by entity, actor, company and time range (inclusive), and pages', async () => {
    expect((await read(operator.access, '?entity=user')).data.list.map((r) => r.entity)).toEqual(['user']);
    expect((await read(operator.access, '?actor=ANA%40')).data.list.map((r) => r.actorAccount)).toEqual(['ana@alpha.example']);
    expect((await read(operator.access, '?actor=%25')).data.total).toBe(0);
    expect((await read(operator.access, `?companyId=${companyA}`)).data.list.map((r) => r.entity)).toEqual(['role']);
    const range = await read(
      operator.access,
      `?from=${new Date(T0 + 86_400_000).toISOString()}&to=${new Date(T0 + 2 * 86_400_000).toISOString()}`,
    );
    expect(range.data.list.map((r) => r.entity)).toEqual(['gateway_stock', 'user']);
    const page2 = await read(operator.access, '?page=2&size=2');
    expect(page2.data).toMatchObject({ total: 3, list: [{ entity: 'role' }] });
  });

  it('refuses bad filters (4)', async () => {
    expect((await read(operator.access, '?entity=plant')).code).toBe(ErrorCode.validation);
    expect((await read(operator.access, '?from=yesterday')).code).toBe(ErrorCode.validation);
    expect((await read(operator.access, '?size=101')).code).toBe(ErrorCode.validation);
    const backwards = await read(operator.access, `?from=${new Date(T0 + 1).toISOString()}&to=${new Date(T0).toISOString()}`);
    expect(backwards.code).toBe(ErrorCode.validation);
  });

  it('records made through the company routes appear in the log', async () => {
    await s.call(adminA.access, 'POST', `/api/v1/company/${companyA}/themeColor`, { themeColor: '#123456' });
    const { data } = await read(adminA.access, '?entity=company');
    expect(data.list[0]).toMatchObject({ entity: 'company', companyId: companyA, after: { themeColor: '#123456' } });
  });
});
