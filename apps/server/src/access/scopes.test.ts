/**
 * Who sees and operates which plant (the owner; a manager share operates, a visitor share only
 * reads; the company of a company plant or of the owner's agent; a system administrator), over
 * two companies, two owners, shares and a system administrator, through the real scope filters.
 */

import { ErrorCode } from '@sunfleet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/harness.ts';
import { now } from '../db/index.ts';
import type { User } from '../db/schema.ts';
import type { Caller } from './caller.ts';
import { grantsFor } from './grants.ts';
import { plantsOperable, plantsOwned, plantsVisible } from './scopes.ts';

let s: TestServer;
const ids: Record<string, number> = {};
const plants: Record<string, number> = {};

async function company(name: string, permissions: string[]) {
  const t = now();
  const row = await s.db
    .insertInto('companies')
    .values({ name, permissions: JSON.stringify(permissions), created_at: t, updated_at: t })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
async function role(companyId: number, name: string, permissions: string[]) {
  const row = await s.db
    .insertInto('company_roles')
    .values({ company_id: companyId, name, permissions: JSON.stringify(permissions), created_at: now() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
async function plant(name: string, owner: number | null, companyId: number | null) {
  const t = now();
  const row = await s.db
    .insertInto('plants')
    .values({ name, owner_user_id: owner, company_id: companyId, created_at: t, updated_at: t })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
async function caller(key: string): Promise<Caller> {
  const user = (await s.db.selectFrom('users').selectAll().where('id', '=', ids[key]!).executeTakeFirstOrThrow()) as User;
  return { user, sessionId: 'test', grants: await grantsFor(s.db, user) };
}
async function names(scope: typeof plantsVisible, key: string) {
  const c = await caller(key);
  const rows = await s.db
    .selectFrom('plants')
    .select('name')
    .where((eb) => scope(eb, c))
    .orderBy('name')
    .execute();
  return rows.map((r) => r.name);
}

beforeAll(async () => {
  s = await startServer();
  const a = await company('Alpha Installers', ['station.view', 'station.edit', 'equip.view', 'firmware.management']);
  const b = await company('Beta Energy', ['station.view']);
  const techRole = await role(a, 'Technician', ['station.view', 'equip.view', 'customer.list.view']);
  ids.sys = (await s.user({ kind: 'sysadmin' })).id;
  ids.adminA = (await s.user({ kind: 'company_admin', companyId: a })).id;
  ids.techA = (await s.user({ kind: 'company_user', companyId: a, roleId: techRole })).id;
  ids.adminB = (await s.user({ kind: 'company_admin', companyId: b })).id;
  ids.ownerA = (await s.user({ agentCompanyId: a })).id; // owner whose agent is company A
  ids.owner2 = (await s.user()).id; // owner with no agent
  ids.manager = (await s.user()).id;
  ids.visitor = (await s.user()).id;
  ids.readOnly = (await s.user({ readOnly: true })).id;
  ids.stranger = (await s.user()).id;
  // Agent A serves customer Gamma; Delta is a customer nobody serves.
  const gamma = await company('Gamma Solar', ['station.view']);
  const delta = await company('Delta Power', ['station.view']);
  await s.db.updateTable('companies').set({ agent_company_id: a }).where('id', '=', gamma).execute();
  ids.adminGamma = (await s.user({ kind: 'company_admin', companyId: gamma })).id;
  ids.adminDelta = (await s.user({ kind: 'company_admin', companyId: delta })).id;
  ids.ownerGamma = (await s.user({ agentCompanyId: gamma })).id; // owner whose agent is customer Gamma
  ids.ownerDelta = (await s.user({ agentCompanyId: delta })).id;
  plants.gamma = await plant('Plant of Gamma', null, gamma);
  plants.gammaOwner = await plant('Roof of ownerGamma', ids.ownerGamma!, null);
  plants.deltaOwner = await plant('Roof of ownerDelta', ids.ownerDelta!, null);
  plants.home = await plant('Home of ownerA', ids.ownerA!, null);
  plants.farm = await plant('Farm of owner2', ids.owner2!, null);
  plants.betaPlant = await plant('Plant of Beta', null, b);
  plants.alphaPlant = await plant('Plant of Alpha', null, a);
  plants.deleted = await plant('Deleted of owner2', ids.owner2!, null);
  await s.db.updateTable('plants').set({ deleted_at: now() }).where('id', '=', plants.deleted!).execute();
  const share = (plant: number, user: number, r: 'manager' | 'visitor') =>
    s.db.insertInto('plant_shares').values({ plant_id: plant, user_id: user, role: r, created_at: now() }).execute();
  await share(plants.farm!, ids.manager!, 'manager');
  await share(plants.farm!, ids.visitor!, 'visitor');
  await share(plants.home!, ids.readOnly!, 'manager'); // read-only account: sees, never operates
});
afterAll(() => s.close());

describe('plant scopes', () => {
  const all = [
    'Farm of owner2',
    'Home of ownerA',
    'Plant of Alpha',
    'Plant of Beta',
    'Plant of Gamma',
    'Roof of ownerDelta',
    'Roof of ownerGamma',
  ];
  // Alpha is Gamma's agent: it acts for Gamma (Gamma's plants and its owners'), not for Delta.
  const alpha = ['Home of ownerA', 'Plant of Alpha', 'Plant of Gamma', 'Roof of ownerGamma'];
  it.each([
    ['sys', all, all, []],
    ['adminA', alpha, alpha, []],
    ['techA', alpha, alpha, []],
    ['adminGamma', ['Plant of Gamma', 'Roof of ownerGamma'], ['Plant of Gamma', 'Roof of ownerGamma'], []],
    ['adminDelta', ['Roof of ownerDelta'], ['Roof of ownerDelta'], []],
    ['adminB', ['Plant of Beta'], ['Plant of Beta'], []],
    ['ownerA', ['Home of ownerA'], ['Home of ownerA'], ['Home of ownerA']],
    ['owner2', ['Farm of owner2'], ['Farm of owner2'], ['Farm of owner2']],
    ['manager', ['Farm of owner2'], ['Farm of owner2'], []],
    ['visitor', ['Farm of owner2'], [], []],
    ['readOnly', ['Home of ownerA'], [], []],
    ['stranger', [], [], []],
  ])('%s sees %j, operates %j, owns %j', async (who, visible, operable, owned) => {
    expect(await names(plantsVisible, who)).toEqual(visible);
    expect(await names(plantsOperable, who)).toEqual(operable);
    expect(await names(plantsOwned, who)).toEqual(owned);
  });
});

describe('granted permissions', () => {
  it('a system administrator holds the whole catalogue, platform permissions included', async () => {
    const c = await caller('sys');
    expect(c.grants.has('firmware.management')).toBe(true);
    expect(c.grants.has('company.role.add')).toBe(true);
  });
  it('a company never holds platform permissions, even if its list names them', async () => {
    const c = await caller('adminA');
    expect([...c.grants].sort()).toEqual(['equip.view', 'station.edit', 'station.view']);
  });
  it("a company user's role is cut to what the company holds", async () => {
    const c = await caller('techA');
    expect([...c.grants].sort()).toEqual(['equip.view', 'station.view']);
  });
  it('an owner holds the owner permissions; a read-only account only the view ones', async () => {
    const owner = await caller('owner2');
    const ro = await caller('readOnly');
    expect(owner.grants.has('station.create')).toBe(true);
    expect(owner.grants.has('firmware.management')).toBe(false);
    expect(ro.grants.has('station.view')).toBe(true);
    expect(ro.grants.has('station.create')).toBe(false);
    expect(ro.grants.has('station.export')).toBe(true);
    expect([...ro.grants].every((p) => owner.grants.has(p))).toBe(true);
  });
});

describe('permission trees over HTTP', () => {
  it('GET /api/v1/permission returns the granted tree in the asked language', async () => {
    const { access } = await s.login(
      (await s.db.selectFrom('users').select('account').where('id', '=', ids.techA!).executeTakeFirstOrThrow()).account,
    );
    const es = await s.call(access, 'GET', '/api/v1/permission?lan=es');
    expect(es.body.code).toBe(ErrorCode.ok);
    expect(es.body.data).toEqual([
      { name: 'station.view', type: 0, title: 'Plantas', children: [] },
      { name: 'equip.view', type: 0, title: 'Dispositivos', children: [] },
    ]);
    // A permission this account lacks answers code 2, not 401.
    const customer = await s.call(access, 'GET', '/api/v1/permission/customer');
    expect(customer).toMatchObject({ status: 200, body: { code: ErrorCode.noPermission, data: null } });
  });
  it("GET /api/v1/permission/company lists the company's holdings to a company administrator", async () => {
    const sys = await caller('sys');
    expect(sys.grants.has('company.role.list.view')).toBe(true);
    await s.db
      .updateTable('companies')
      .set({ permissions: JSON.stringify(['station.view', 'company.management', 'company.role.list.view']) })
      .where('name', '=', 'Beta Energy')
      .execute();
    const account = (await s.db.selectFrom('users').select('account').where('id', '=', ids.adminB!).executeTakeFirstOrThrow())
      .account;
    const { access } = await s.login(account);
    const res = await s.call(access, 'GET', '/api/v1/permission/company?lan=en');
    expect(res.body.code).toBe(ErrorCode.ok);
    expect((res.body.data as Array<{ name: string }>).map((n) => n.name)).toEqual(['station.view', 'company.management']);
  });
  it('GET /api/v1/permission/customer gives a system administrator every company-grantable permission', async () => {
    const account = (await s.db.selectFrom('users').select('account').where('id', '=', ids.sys!).executeTakeFirstOrThrow())
      .account;
    const { access } = await s.login(account);
    const res = await s.call(access, 'GET', '/api/v1/permission/customer');
    const top = (res.body.data as Array<{ name: string }>).map((n) => n.name);
    expect(top).toContain('company.management');
    expect(top).not.toContain('firmware.management');
    expect(top).not.toContain('user.producer');
  });
});
