/**
 * Who sees and operates which gateway and device (access/devices.ts), through the real filters,
 * in both phrasings of the plant scope ('in' and 'exists' must mean the same): owner, share
 * visitor and manager, the owner's agent company (with the unbound gateway it imported), another
 * tenant, a read-only account, a system administrator.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postAs, type World, world } from '../../test/kits/devices.ts';
import { account, company } from '../../test/kits/plants.ts';
import { uniqueSn } from '../../test/telemetry.ts';
import { provisionGateway } from '../telemetry/gateways.ts';
import type { Caller } from './caller.ts';
import { devicesInScope, gatewaysInScope, type ScopeForm } from './devices.ts';
import { grantsFor } from './grants.ts';

let w: World;
let manager: { id: number };
let readOnlyAdmin: { id: number };
beforeAll(async () => {
  w = await world();
  const m = await account(w.s);
  await postAs(w, w.O, `/api/v1/plant/${w.plantA}/share`, { account: m.account, role: 'manager' });
  manager = m;
  readOnlyAdmin = await account(w.s, { kind: 'company_admin', companyId: w.companyId, readOnly: true });
}, 60_000);
afterAll(() => w.close());

async function callerOf(id: number): Promise<Caller> {
  const user = await w.s.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  return { user, sessionId: 'test', grants: await grantsFor(w.s.db, user) };
}
async function devices(id: number, need: 'view' | 'edit', form: ScopeForm) {
  const c = await callerOf(id);
  const rows = await w.s.db
    .selectFrom('devices')
    .select('sn')
    .where((eb) => devicesInScope(eb, c, need, form))
    .execute();
  return rows.map((r) => r.sn).sort();
}
async function gateways(id: number, need: 'view' | 'edit', form: ScopeForm) {
  const c = await callerOf(id);
  const rows = await w.s.db
    .selectFrom('gateways')
    .select('sn')
    .where((eb) => gatewaysInScope(eb, c, need, form))
    .execute();
  return rows.map((r) => r.sn).sort();
}

describe('device and gateway scopes', () => {
  it('match the rule in both phrasings', async () => {
    const A = [w.sn.INV1, w.sn.INV2, w.sn.MIC, w.sn.BAT, w.sn.MET, w.sn.WEA];
    const sorted = (xs: string[]) => [...xs].sort();
    const cases: Array<[string, number, string[], string[], string[], string[]]> = [
      // who, id, devices seen, devices operated, gateways seen, gateways operated
      ['owner', w.O.id, A, A, [w.GA.sn], [w.GA.sn]],
      ['visitor', w.visitor.id, A, [], [w.GA.sn], []],
      ['manager', manager.id, A, A, [w.GA.sn], [w.GA.sn]],
      ['agent company', w.admin.id, [...A, w.sn.INVU], [...A, w.sn.INVU], [w.GA.sn, w.GU.sn], [w.GA.sn, w.GU.sn]],
      ['read-only company admin', readOnlyAdmin.id, [...A, w.sn.INVU], [], [w.GA.sn, w.GU.sn], []],
      ['other tenant', w.P.id, [w.sn.INVB], [w.sn.INVB], [w.GB.sn], [w.GB.sn]],
      [
        'system administrator',
        w.sysadmin.id,
        [...A, w.sn.INVB, w.sn.INVU],
        [...A, w.sn.INVB, w.sn.INVU],
        [w.GA.sn, w.GB.sn, w.GU.sn],
        [w.GA.sn, w.GB.sn, w.GU.sn],
      ],
    ];
    for (const [who, id, seen, operated, gwSeen, gwOperated] of cases) {
      for (const form of ['in', 'exists'] as const) {
        expect(await devices(id, 'view', form), `${who} sees (${form})`).toEqual(sorted(seen));
        expect(await devices(id, 'edit', form), `${who} operates (${form})`).toEqual(sorted(operated));
        expect(await gateways(id, 'view', form), `${who} sees gateways (${form})`).toEqual(sorted(gwSeen));
        expect(await gateways(id, 'edit', form), `${who} operates gateways (${form})`).toEqual(sorted(gwOperated));
      }
    }
  });

  it('an agent sees what its customers are assigned; a customer sees only its own', async () => {
    // Agent G serves company C (the owner O's agent) and customer S; X is a customer G does not serve.
    const g = await company(w.s);
    const sibling = await company(w.s);
    const x = await company(w.s);
    await w.s.db.updateTable('companies').set({ agent_company_id: g }).where('id', 'in', [w.companyId, sibling]).execute();
    const GS = await provisionGateway(w.s.db, { sn: uniqueSn('GWS'), companyId: sibling });
    const GX = await provisionGateway(w.s.db, { sn: uniqueSn('GWX'), companyId: x });
    const agentAdmin = await account(w.s, { kind: 'company_admin', companyId: g });
    const siblingAdmin = await account(w.s, { kind: 'company_admin', companyId: sibling });
    const xAdmin = await account(w.s, { kind: 'company_admin', companyId: x });
    const A = [w.sn.INV1, w.sn.INV2, w.sn.MIC, w.sn.BAT, w.sn.MET, w.sn.WEA];
    const sorted = (xs: string[]) => [...xs].sort();
    const cases: Array<[string, number, string[], string[]]> = [
      // who, id, devices seen and operated, gateways seen and operated
      ['agent', agentAdmin.id, [...A, w.sn.INVU], [w.GA.sn, w.GU.sn, GS.sn]],
      ['customer C', w.admin.id, [...A, w.sn.INVU], [w.GA.sn, w.GU.sn]],
      ["the agent's other customer", siblingAdmin.id, [], [GS.sn]],
      ['a customer the agent does not serve', xAdmin.id, [], [GX.sn]],
    ];
    try {
      for (const [who, id, seen, gwSeen] of cases) {
        for (const form of ['in', 'exists'] as const) {
          for (const need of ['view', 'edit'] as const) {
            expect(await devices(id, need, form), `${who} devices (${need}, ${form})`).toEqual(sorted(seen));
            expect(await gateways(id, need, form), `${who} gateways (${need}, ${form})`).toEqual(sorted(gwSeen));
          }
        }
      }
    } finally {
      await w.s.db.updateTable('companies').set({ agent_company_id: null }).where('id', 'in', [w.companyId, sibling]).execute();
    }
  });

  it('never shows a deleted device or gateway, nor a deleted plant’s', async () => {
    await w.s.db.updateTable('devices').set({ deleted_at: Date.now() }).where('sn', '=', w.sn.WEA).execute();
    await w.s.db.updateTable('plants').set({ deleted_at: Date.now() }).where('id', '=', w.plantB).execute();
    for (const form of ['in', 'exists'] as const) {
      expect(await devices(w.O.id, 'view', form)).not.toContain(w.sn.WEA);
      expect(await devices(w.P.id, 'view', form)).toEqual([]);
      expect(await gateways(w.P.id, 'view', form)).toEqual([]);
    }
    expect(await devices(w.sysadmin.id, 'view', 'exists')).not.toContain(w.sn.WEA);
  });
});
