/**
 * Agents: which account can be made a customer's agent (only a company administrator's), each
 * refusal's code (900, 901, 902, 202, 4) with nothing written, the audit record of an
 * assignment and a removal, and what the agent then sees over HTTP: the plants and gateways
 * assigned to the customer it serves, not another customer's, and nothing once removed.
 */

import { ErrorCode } from '@sunfleet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness.ts';
import { uniqueSn } from '../../../test/telemetry.ts';
import { now } from '../../db/index.ts';
import { provisionGateway } from '../../telemetry/gateways.ts';

let s: TestServer;
let sys: string;
let typeId: number;

type Customer = { id: number; agent: { id: number; name: string; account: string | null } | null };

async function create(name: string, account: string, agentAccount?: string | null) {
  return s.call(sys, 'POST', '/api/v1/customer', {
    name,
    account,
    password: 'Secret123',
    customerTypeId: typeId,
    permissions: ['station.view', 'equip.view', 'gateway.view'],
    ...(agentAccount !== undefined ? { agentAccount } : {}),
  });
}
async function made(name: string, account: string, agentAccount?: string | null) {
  const res = await create(name, account, agentAccount);
  expect(res.body, name).toMatchObject({ code: ErrorCode.ok });
  return res.body.data as Customer;
}
const setAgent = (c: { id: number; name: string }, agentAccount: string | null) =>
  s.call(sys, 'POST', `/api/v1/customer/${c.id}`, { name: c.name, customerTypeId: typeId, agentAccount });
const agentOf = async (id: number) =>
  (await s.db.selectFrom('companies').select('agent_company_id').where('id', '=', id).executeTakeFirstOrThrow()).agent_company_id;

beforeAll(async () => {
  s = await startServer();
  sys = (await s.login((await s.user({ kind: 'sysadmin' })).account)).access;
  typeId = (
    await s.db
      .insertInto('customer_types')
      .values({ name: 'Installer', permissions: '[]', created_at: now() })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
});
afterAll(() => s.close());

describe('agents', () => {
  it('makes a company administrator’s company the agent, on create and on edit, and records each change', async () => {
    const agent = await made('North Distribution', 'north@example.com');
    const c = await made('Valley Installers', 'valley@example.com', 'NORTH@example.com');
    expect(c.agent).toEqual({ id: agent.id, name: 'North Distribution', account: 'north@example.com' });
    const other = await made('South Distribution', 'south@example.com');
    expect((await setAgent({ id: c.id, name: 'Valley Installers' }, 'south@example.com')).body).toMatchObject({
      code: ErrorCode.ok,
      data: { agent: { id: other.id } },
    });
    expect((await setAgent({ id: c.id, name: 'Valley Installers' }, null)).body).toMatchObject({
      code: ErrorCode.ok,
      data: { agent: null },
    });
    const records = await s.db
      .selectFrom('admin_audit')
      .select(['action', 'before_values', 'after_values'])
      .where('entity', '=', 'agent')
      .where('entity_id', '=', String(c.id))
      .orderBy('id')
      .execute();
    expect(records.map((r) => [r.action, JSON.parse(r.before_values!), JSON.parse(r.after_values!)])).toEqual([
      ['assign', { agentId: null }, { agentId: agent.id }],
      ['assign', { agentId: agent.id }, { agentId: other.id }],
      ['remove', { agentId: other.id }, { agentId: null }],
    ]);
  });

  it('900: a customer is not its own agent (its administrator’s account, or one of its accounts)', async () => {
    expect((await create('Self Co', 'self@example.com', 'SELF@example.com')).body.code).toBe(ErrorCode.ownAgent);
    expect(await s.db.selectFrom('companies').select('id').where('name', '=', 'Self Co').executeTakeFirst()).toBeUndefined();
    const c = await made('Mirror Co', 'mirror@example.com');
    expect((await setAgent({ id: c.id, name: 'Mirror Co' }, 'mirror@example.com')).body.code).toBe(ErrorCode.ownAgent);
    const employee = await s.user({ kind: 'company_user', companyId: c.id });
    expect((await setAgent({ id: c.id, name: 'Mirror Co' }, employee.account)).body.code).toBe(ErrorCode.ownAgent);
    expect(await agentOf(c.id)).toBeNull();
  });

  it('901: an internal employee (a company user) cannot be an agent', async () => {
    const agentCo = await made('Employer Co', 'employer@example.com');
    const employee = await s.user({ kind: 'company_user', companyId: agentCo.id });
    expect((await create('Staffed Co', 'staffed@example.com', employee.account)).body.code).toBe(ErrorCode.employeeAgent);
    const c = await made('Staffed Co', 'staffed@example.com');
    expect((await setAgent({ id: c.id, name: 'Staffed Co' }, employee.account)).body.code).toBe(ErrorCode.employeeAgent);
    expect(await agentOf(c.id)).toBeNull();
  });

  it('only a company administrator’s account: an owner’s, an operator’s or an unknown account is refused (4)', async () => {
    const c = await made('Picky Co', 'picky@example.com');
    const owner = await s.user();
    const operator = await s.user({ kind: 'sysadmin' });
    for (const account of [owner.account, operator.account, 'nobody@example.com']) {
      expect((await setAgent({ id: c.id, name: 'Picky Co' }, account)).body.code, account).toBe(ErrorCode.validation);
    }
    expect(await agentOf(c.id)).toBeNull();
  });

  it('902: a customer that is an agent gets no agent (its agent would be a company manager’s manager)', async () => {
    const top = await made('Top Co', 'top@example.com');
    const middle = await made('Middle Co', 'middle@example.com');
    await made('Bottom Co', 'bottom@example.com', 'middle@example.com');
    expect((await setAgent({ id: middle.id, name: 'Middle Co' }, 'top@example.com')).body.code).toBe(ErrorCode.managersManager);
    expect(await agentOf(middle.id)).toBeNull();
    // A cycle is the same case: Middle serves Bottom, so Bottom's administrator cannot become Middle's agent.
    expect((await setAgent({ id: middle.id, name: 'Middle Co' }, 'bottom@example.com')).body.code).toBe(
      ErrorCode.managersManager,
    );
    expect(top.agent).toBeNull();
  });

  it('202: an agent that has an agent itself cannot be one (one level of agents)', async () => {
    await made('Upper Co', 'upper@example.com');
    await made('Lower Co', 'lower@example.com', 'upper@example.com');
    expect((await create('Third Co', 'third@example.com', 'lower@example.com')).body.code).toBe(ErrorCode.agentExists);
    expect(await s.db.selectFrom('companies').select('id').where('name', '=', 'Third Co').executeTakeFirst()).toBeUndefined();
    expect(
      await s.db.selectFrom('users').select('id').where('account', '=', 'third@example.com').executeTakeFirst(),
    ).toBeUndefined();
  });

  it('an edit that names the agent it has keeps it without checking again', async () => {
    await made('Keep Agent', 'keep.agent@example.com');
    const c = await made('Keep Customer', 'keep.customer@example.com', 'keep.agent@example.com');
    const res = await s.call(sys, 'POST', `/api/v1/customer/${c.id}`, {
      name: 'Keep Customer renamed',
      customerTypeId: typeId,
      agentAccount: 'keep.agent@example.com',
    });
    expect(res.body).toMatchObject({ code: ErrorCode.ok, data: { name: 'Keep Customer renamed', agent: { id: c.agent!.id } } });
  });

  it('the agent sees the plants and gateways assigned to the customer it serves, not another customer’s, and nothing once removed', async () => {
    const agent = await made('Service Agent', 'service.agent@example.com');
    const served = await made('Served Installer', 'served.installer@example.com', 'service.agent@example.com');
    const stranger = await made('Stranger Installer', 'stranger.installer@example.com');
    const t = now();
    const plant = async (name: string, companyId: number) =>
      s.db
        .insertInto('plants')
        .values({ name, company_id: companyId, created_at: t, updated_at: t })
        .returning('id')
        .executeTakeFirstOrThrow();
    await plant('Served plant', served.id);
    await plant('Stranger plant', stranger.id);
    const servedGw = await provisionGateway(s.db, { sn: uniqueSn('GWSV'), companyId: served.id });
    const strangerGw = await provisionGateway(s.db, { sn: uniqueSn('GWST'), companyId: stranger.id });
    const sees = async (account: string) => {
      const token = (await s.login(account)).access;
      const plants = (await s.call(token, 'GET', '/api/v1/plants?size=100')).body.data as {
        list: Array<{ name: string; role: string }>;
      };
      // The agent acts for its customer: a company's role on the plant, as the customer's own accounts.
      for (const p of plants.list) expect(p.role, `${account}: ${p.name}`).toBe('company');
      const gateways = (await s.call(token, 'GET', '/api/v1/gateways?size=100')).body.data as { list: Array<{ sn: string }> };
      return { plants: plants.list.map((p) => p.name).sort(), gateways: gateways.list.map((g) => g.sn).sort() };
    };
    expect(await sees('service.agent@example.com')).toEqual({ plants: ['Served plant'], gateways: [servedGw.sn] });
    expect(await sees('served.installer@example.com')).toEqual({ plants: ['Served plant'], gateways: [servedGw.sn] });
    expect(await sees('stranger.installer@example.com')).toEqual({ plants: ['Stranger plant'], gateways: [strangerGw.sn] });
    expect((await setAgent({ id: served.id, name: 'Served Installer' }, null)).body.code).toBe(ErrorCode.ok);
    expect(await sees('service.agent@example.com')).toEqual({ plants: [], gateways: [] });
    expect(agent.agent).toBeNull();
  });
});
