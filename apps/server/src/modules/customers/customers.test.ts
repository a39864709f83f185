/**
 * Customers over HTTP: list with filters and paging, add with the administrator account, edit,
 * check, pickers, permissions, delete; the codes (203, 104, 903, 4), the limits and one past
 * them, the audit record of each change, and that nobody but the platform operator reaches any
 * of it (a customer's own administrator included).
 */
import { companyGrantable, customersApi, ErrorCode, fillPath } from '@sunfleet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness.ts';
import { uniqueSn } from '../../../test/telemetry.ts';
import { now } from '../../db/index.ts';
import { provisionGateway } from '../../telemetry/gateways.ts';

let s: TestServer;
let sys: string;
let installer: number;
let distributor: number;

type Customer = {
  id: number;
  name: string;
  account: string | null;
  customerType: { id: number; name: string } | null;
  agent: { id: number; name: string; account: string | null } | null;
  customers: number;
  users: number;
  gateways: number;
};

async function type(name: string, permissions: string[] = ['station.view'], parentId: number | null = null) {
  return (
    await s.db
      .insertInto('customer_types')
      .values({ name, permissions: JSON.stringify(permissions), parent_id: parentId, created_at: now() })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
}

const body = (name: string, account: string, extra: Record<string, unknown> = {}) => ({
  name,
  account,
  password: 'Secret123',
  contactName: 'Ana García',
  email: 'contact@example.com',
  phone: '+34 600 000 000',
  address: 'Calle del Sol 1',
  customerTypeId: installer,
  ...extra,
});

async function create(name: string, account: string, extra: Record<string, unknown> = {}) {
  const res = await s.call(sys, 'POST', '/api/v1/customer', body(name, account, extra));
  expect(res.body, `create ${name}`).toMatchObject({ code: ErrorCode.ok });
  return res.body.data as Customer;
}

const audits = (entity: string, entityId: number) =>
  s.db
    .selectFrom('admin_audit')
    .selectAll()
    .where('entity', '=', entity as 'customer')
    .where('entity_id', '=', String(entityId))
    .orderBy('id')
    .execute();

beforeAll(async () => {
  s = await startServer();
  sys = (await s.login((await s.user({ kind: 'sysadmin' })).account)).access;
  distributor = await type('Distributor', ['station.view', 'equip.view']);
  installer = await type('Installer', ['station.view', 'company.management', 'company.role.list.view'], distributor);
});
afterAll(() => s.close());

describe('customers', () => {
  it('adds a customer with its administrator account and its type’s permissions, and records it', async () => {
    const c = await create('Sol Installers', 'Admin@Sol.example');
    expect(c).toMatchObject({
      name: 'Sol Installers',
      account: 'admin@sol.example',
      customerType: { id: installer, name: 'Installer' },
      agent: null,
      users: 1,
      gateways: 0,
    });
    expect((await s.call(sys, 'GET', `/api/v1/role/${c.id}`)).body.data).toEqual([
      'station.view',
      'company.management',
      'company.role.list.view',
    ]);
    // The administrator signs in and holds what the customer holds.
    const admin = await s.login('admin@sol.example');
    const tree = (await s.call(admin.access, 'GET', '/api/v1/permission')).body.data as Array<{ name: string }>;
    expect(tree.map((n) => n.name)).toEqual(['station.view', 'company.management']);
    const [record] = await audits('customer', c.id);
    expect(record).toMatchObject({ action: 'create', company_id: c.id, before_values: null });
    expect(JSON.parse(record!.after_values!)).toMatchObject({ name: 'Sol Installers', account: 'admin@sol.example' });
    expect(record!.after_values).not.toMatch(/Secret123|password/i);
  });

  it('answers 203 for a company name taken (any case) and 104 for an account taken; nothing written', async () => {
    const before = await s.db.selectFrom('companies').select('id').execute();
    expect((await s.call(sys, 'POST', '/api/v1/customer', body('SOL INSTALLERS', 'new1@example.com'))).body.code).toBe(
      ErrorCode.companyNameTaken,
    );
    expect((await s.call(sys, 'POST', '/api/v1/customer', body('Fresh Co', 'admin@sol.example'))).body.code).toBe(
      ErrorCode.accountExists,
    );
    expect(await s.db.selectFrom('companies').select('id').execute()).toHaveLength(before.length);
    expect(
      await s.db.selectFrom('users').select('id').where('account', '=', 'new1@example.com').executeTakeFirst(),
    ).toBeUndefined();
    expect((await s.call(sys, 'GET', '/api/v1/customer/check?name=sol%20installers')).body.code).toBe(ErrorCode.companyNameTaken);
    expect((await s.call(sys, 'GET', '/api/v1/customer/check?account=ADMIN%40sol.example')).body.code).toBe(
      ErrorCode.accountExists,
    );
    expect((await s.call(sys, 'GET', '/api/v1/customer/check?name=Unused%20Name&account=free%40example.com')).body.code).toBe(
      ErrorCode.ok,
    );
    const sol = (await s.db.selectFrom('companies').select('id').where('name', '=', 'Sol Installers').executeTakeFirstOrThrow())
      .id;
    expect((await s.call(sys, 'GET', `/api/v1/customer/check?name=Sol%20Installers&id=${sol}`)).body.code).toBe(ErrorCode.ok);
  });

  it('answers 203 to all but one of several concurrent adds of one name, and 104 to all but one of one account', async () => {
    const names = await Promise.all(
      [1, 2, 3, 4, 5].map((i) => s.call(sys, 'POST', '/api/v1/customer', body('Race Co', `race${i}@example.com`))),
    );
    expect(names.map((r) => r.body.code).sort()).toEqual([ErrorCode.ok, ...Array(4).fill(ErrorCode.companyNameTaken)]);
    const accounts = await Promise.all(
      [1, 2, 3, 4, 5].map((i) => s.call(sys, 'POST', '/api/v1/customer', body(`Race account ${i}`, 'same.race@example.com'))),
    );
    expect(accounts.map((r) => r.body.code).sort()).toEqual([ErrorCode.ok, ...Array(4).fill(ErrorCode.accountExists)]);
    expect(await s.db.selectFrom('companies').select('id').where('name', 'like', 'Race%').execute()).toHaveLength(2);
  });

  it('holds the limits: name 1–64 characters, password 6–16, fields without forbidden characters, known permissions', async () => {
    expect((await s.call(sys, 'POST', '/api/v1/customer', body('N'.repeat(64), 'n64@example.com'))).body.code).toBe(ErrorCode.ok);
    const bad: Array<[string, Record<string, unknown>]> = [
      ['name of 65', body('N'.repeat(65), 'n65@example.com')],
      ['empty name', body('', 'n0@example.com')],
      ['blank name', body('   ', 'nb@example.com')],
      ['forbidden character', body('Sol <script>', 'nf@example.com')],
      ['password of 5', body('Short Pw', 'np5@example.com', { password: 'Ab123' })],
      ['password of 17', body('Long Pw', 'np17@example.com', { password: 'A'.repeat(17) })],
      ['not an e-mail account', body('Bad Account', 'not-an-account')],
      ['contact of 65', body('Contact Co', 'nc@example.com', { contactName: 'c'.repeat(65) })],
      ['platform permission', body('Greedy Co', 'ng@example.com', { permissions: ['firmware.management'] })],
      ['unknown type', body('Typeless Co', 'nt@example.com', { customerTypeId: 99999 })],
      ['unknown field', body('Extra Co', 'nx@example.com', { company_id: 1 })],
    ];
    for (const [what, payload] of bad) {
      const res = await s.call(sys, 'POST', '/api/v1/customer', payload);
      expect(res.body.code, what).toBe(ErrorCode.validation);
    }
    expect(
      await s.db
        .selectFrom('users')
        .select('account')
        .where('account', 'in', ['n65@example.com', 'n0@example.com', 'nb@example.com', 'ng@example.com', 'nt@example.com'])
        .execute(),
    ).toEqual([]);
  });

  it('lists newest first with paging and filters by name, account, type (with subtypes) and agent', async () => {
    const agent = await create('Filter Agent', 'filter.agent@example.com', { customerTypeId: distributor });
    await create('Filter Alpha', 'alpha@filter.example', { agentAccount: 'filter.agent@example.com' });
    await create('Filter Beta', 'beta@filter.example');
    const get = async (q: string) =>
      (await s.call(sys, 'GET', `/api/v1/customers?${q}`)).body.data as { total: number; list: Customer[] };
    const names = async (q: string) => (await get(q)).list.map((c) => c.name);
    expect(await names('name=filter')).toEqual(['Filter Beta', 'Filter Alpha', 'Filter Agent']);
    expect(await names('name=filter&size=2&page=2')).toEqual(['Filter Agent']);
    expect((await get('name=filter&size=2')).total).toBe(3);
    expect(await names('account=%40filter.example')).toEqual(['Filter Beta', 'Filter Alpha']);
    expect(await names(`agentId=${agent.id}`)).toEqual(['Filter Alpha']);
    // The distributor filter takes its installer subtype too; the installer filter only installers.
    expect(await names(`name=filter&customerTypeId=${distributor}`)).toEqual(['Filter Beta', 'Filter Alpha', 'Filter Agent']);
    expect(await names(`name=filter&customerTypeId=${installer}`)).toEqual(['Filter Beta', 'Filter Alpha']);
    // % and _ are literal.
    expect(await names('name=%25')).toEqual([]);
    const listed = (await get('name=Filter%20Agent')).list[0]!;
    expect(listed).toMatchObject({ customers: 1, agent: null });
    expect((await get('name=Filter%20Alpha')).list[0]).toMatchObject({
      agent: { id: agent.id, name: 'Filter Agent', account: 'filter.agent@example.com' },
    });
    expect((await s.call(sys, 'GET', '/api/v1/customers?size=101')).body.code).toBe(ErrorCode.validation);
    const picks = (await s.call(sys, 'GET', '/api/v1/customers/list')).body.data as Array<{ id: number; name: string }>;
    expect(picks.map((p) => p.name)).toEqual([...picks.map((p) => p.name)].sort());
    expect(picks.find((p) => p.name === 'Filter Alpha')).toMatchObject({ agentId: agent.id });
  });

  it('edits details, type and permissions; leaves what is absent; records before and after', async () => {
    const c = await create('Edit Me', 'edit.me@example.com');
    const res = await s.call(sys, 'POST', `/api/v1/customer/${c.id}`, {
      name: 'Edited Co',
      customerTypeId: distributor,
      contactName: null,
      permissions: ['station.view', 'equip.view'],
    });
    expect(res.body).toMatchObject({
      code: ErrorCode.ok,
      data: { name: 'Edited Co', customerType: { id: distributor }, contactName: null },
    });
    expect((await s.call(sys, 'GET', `/api/v1/role/${c.id}`)).body.data).toEqual(['station.view', 'equip.view']);
    const again = await s.call(sys, 'POST', `/api/v1/customer/${c.id}`, { name: 'Edited Co', customerTypeId: distributor });
    expect(again.body.code).toBe(ErrorCode.ok);
    expect((await s.call(sys, 'GET', `/api/v1/role/${c.id}`)).body.data).toEqual(['station.view', 'equip.view']);
    expect(
      (await s.call(sys, 'POST', `/api/v1/customer/${c.id}`, { name: 'Sol Installers', customerTypeId: installer })).body.code,
    ).toBe(203);
    const edits = (await audits('customer', c.id)).filter((r) => r.action === 'edit');
    expect(JSON.parse(edits[0]!.before_values!)).toMatchObject({ name: 'Edit Me', customerTypeId: installer });
    expect(JSON.parse(edits[0]!.after_values!)).toMatchObject({ name: 'Edited Co', customerTypeId: distributor });
    expect((await s.call(sys, 'POST', '/api/v1/customer/99999', { name: 'Ghost', customerTypeId: installer })).body.code).toBe(
      404,
    );
    expect((await s.call(sys, 'GET', '/api/v1/role/99999')).body.code).toBe(ErrorCode.notFound);
  });

  it('deletes a customer: gateways back to stock, accounts disabled and signed out; refused while an agent (903) or holding plants (4)', async () => {
    const c = await create('Leaving Co', 'leaving@example.com');
    const gw = await provisionGateway(s.db, { sn: uniqueSn('GWL'), companyId: c.id });
    const admin = await s.login('leaving@example.com');
    const served = await create('Served Co', 'served@example.com', { agentAccount: 'leaving@example.com' });
    expect((await s.call(sys, 'DELETE', `/api/v1/customers/delete/${c.id}`)).body.code).toBe(ErrorCode.accountAgent);
    await s.call(sys, 'POST', `/api/v1/customer/${served.id}`, {
      name: 'Served Co',
      customerTypeId: installer,
      agentAccount: null,
    });
    const owner = await s.user({ agentCompanyId: c.id });
    expect((await s.call(sys, 'DELETE', `/api/v1/customers/delete/${c.id}`)).body.code).toBe(ErrorCode.accountAgent);
    await s.db.updateTable('users').set({ agent_company_id: null }).where('id', '=', owner.id).execute();
    const t = now();
    const plant = await s.db
      .insertInto('plants')
      .values({ name: 'Company plant', company_id: c.id, created_at: t, updated_at: t })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect((await s.call(sys, 'DELETE', `/api/v1/customers/delete/${c.id}`)).body.code).toBe(ErrorCode.validation);
    expect(await s.db.selectFrom('companies').select('id').where('id', '=', c.id).executeTakeFirst()).toBeDefined();
    await s.db.updateTable('plants').set({ deleted_at: t }).where('id', '=', plant.id).execute();

    expect((await s.call(sys, 'DELETE', `/api/v1/customers/delete/${c.id}`)).body).toMatchObject({
      code: ErrorCode.ok,
      data: null,
    });
    expect(await s.db.selectFrom('companies').select('id').where('id', '=', c.id).executeTakeFirst()).toBeUndefined();
    expect(await s.db.selectFrom('gateways').select('company_id').where('id', '=', gw.id).executeTakeFirstOrThrow()).toEqual({
      company_id: null,
    });
    expect(
      await s.db
        .selectFrom('users')
        .select(['enabled', 'company_id'])
        .where('account', '=', 'leaving@example.com')
        .executeTakeFirstOrThrow(),
    ).toEqual({ enabled: 0, company_id: null });
    expect((await s.call(admin.access, 'GET', '/api/v1/user')).status).toBe(401);
    expect((await audits('customer', c.id)).at(-1)).toMatchObject({ action: 'delete', after_values: null });
    expect((await s.call(sys, 'DELETE', `/api/v1/customers/delete/${c.id}`)).body.code).toBe(ErrorCode.notFound);
  });

  it('refuses every customer call to anyone but the platform operator, its own administrator included; nothing written', async () => {
    const t = now();
    const own = await create('Own Co', 'own.admin@example.com', { permissions: companyGrantable });
    const other = await create('Other Co', 'other.admin@example.com');
    const admin = (await s.login('own.admin@example.com')).access;
    const user = await s.user({ kind: 'company_user', companyId: own.id });
    const employee = (await s.login(user.account)).access;
    const owner = (await s.login((await s.user()).account)).access;
    const typeId = installer;
    const before = await s.db.selectFrom('admin_audit').select('id').execute();
    for (const token of [admin, employee, owner]) {
      for (const ep of Object.values(customersApi)) {
        if (typeof ep !== 'object' || !ep || !('path' in ep) || !('method' in ep)) continue;
        for (const id of [own.id, other.id]) {
          const url = fillPath(ep.path, { id, customerId: id });
          const payload = ep.method === 'GET' ? undefined : body('Hijack', `hijack.${t}@example.com`, { customerTypeId: typeId });
          const res = await s.call(token, ep.method, url, payload);
          expect(res.body, `${ep.method} ${url}`).toMatchObject({ code: ErrorCode.noPermission, data: null });
        }
      }
    }
    expect(await s.db.selectFrom('admin_audit').select('id').execute()).toHaveLength(before.length);
    expect(await s.db.selectFrom('companies').select('name').where('id', '=', own.id).executeTakeFirstOrThrow()).toEqual({
      name: 'Own Co',
    });
  });
});
