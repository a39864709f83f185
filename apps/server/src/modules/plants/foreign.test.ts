/**
 * Foreign ids: every plant route, called with a valid request for another tenant's plant,
 * answers 700 (or 305 for a gateway) with no data, and changes nothing. A sharee who may only
 * look (visitor) gets 2 from every changing route.
 */

import { ErrorCode } from '@sunfleet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, startServer, type TestServer } from '../../../test/harness.ts';
import { type Account, account, company, createPlant, gateway } from '../../../test/kits/plants.ts';

let s: TestServer;
let victim: Account;
let attacker: Account;
let plant: number;
let gwSn: string;
let snapshot: unknown;

const read = async () => ({
  plant: await s.db.selectFrom('plants').selectAll().where('id', '=', plant).executeTakeFirstOrThrow(),
  shares: await s.db.selectFrom('plant_shares').selectAll().where('plant_id', '=', plant).execute(),
  gateways: await s.db.selectFrom('gateways').select(['sn', 'plant_id']).where('plant_id', '=', plant).execute(),
});

beforeAll(async () => {
  s = await startServer();
  victim = await account(s);
  // An administrator of a company that holds every company permission: only the scope stops them.
  attacker = await account(s, { kind: 'company_admin', companyId: await company(s) });
  plant = await createPlant(s, victim, { contactName: 'Secret Name', contactPhone: '+1 000' });
  gwSn = (await gateway(s, plant)).sn;
  const friend = await account(s);
  await s.call(victim.token, 'POST', `/api/v1/plant/${plant}/share`, { account: friend.account, role: 'visitor' });
  snapshot = await read();
});
afterAll(() => s.close());

const routes = (id: number, friendId = 1): Array<[string, string, unknown?]> => [
  ['GET', `/api/v1/plant/${id}`],
  ['POST', `/api/v1/plant/${id}`, { alias: 'pwned' }],
  ['POST', `/api/v1/plant/${id}/info`, { name: 'Pwned plant' }],
  ['POST', `/api/v1/plant/${id}/income`, { price: 1 }],
  ['POST', `/api/v1/plant/${id}/contacts`, { contactName: 'Mallory' }],
  ['POST', `/api/v1/plant/${id}/delete`],
  ['POST', `/api/v1/plant/${id}/gateway`, { sn: 'ANYGW', key: 'ANYKEY' }],
  ['POST', `/api/v1/plant/${id}/share`, { account: 'someone@example.com', role: 'manager' }],
  ['GET', `/api/v1/plant/${id}/getShareUsers`],
  ['POST', `/api/v1/plant/${id}/cancelShare`, { userId: friendId }],
  ['POST', `/api/v1/plant/${id}/transfer?account=someone%40example.com`, { password: PASSWORD }],
  ['GET', `/api/v1/plant/${id}/inverterCount`],
  ['GET', `/api/v1/plant/${id}/eventCount`],
  ['GET', `/api/v1/plant/${id}/inverters`],
  ['GET', `/api/v1/plant/${id}/check/device`],
  ['GET', `/api/v1/plant/${id}/events`],
];

describe('foreign plant ids', () => {
  it('every plant route answers 700 and no data for another tenant’s plant, and nothing changes', async () => {
    const friendId = (snapshot as { shares: Array<{ user_id: number }> }).shares[0]!.user_id;
    for (const [method, url, body] of routes(plant, friendId)) {
      const res = await s.call(attacker.token, method as 'GET', url, body);
      expect(res.body, `${method} ${url}`).toMatchObject({ code: ErrorCode.plantMissing, data: null });
    }
    const unbind = await s.call(attacker.token, 'POST', `/api/v1/gateway/${gwSn}/unbind`);
    expect(unbind.body).toMatchObject({ code: ErrorCode.gatewayMissing, data: null });
    expect(await read()).toEqual(snapshot);
  });

  it('an id that does not exist answers the same', async () => {
    for (const [method, url, body] of routes(987654)) {
      expect((await s.call(victim.token, method as 'GET', url, body)).body, url).toMatchObject({
        code: ErrorCode.plantMissing,
        data: null,
      });
    }
  });

  it('the plant appears in no list, count or map of the attacker', async () => {
    expect((await s.call(attacker.token, 'GET', '/api/v1/plants')).body.data).toEqual({ total: 0, list: [] });
    expect((await s.call(attacker.token, 'GET', '/api/v1/plants/map')).body.data).toEqual([]);
    expect((await s.call(attacker.token, 'GET', '/api/v1/overview/plantCount')).body.data).toMatchObject({ total: 0 });
  });

  it('a visitor gets 2 from every changing route', async () => {
    const visitor = await account(s);
    await s.call(victim.token, 'POST', `/api/v1/plant/${plant}/share`, { account: visitor.account, role: 'visitor' });
    const friendId = (snapshot as { shares: Array<{ user_id: number }> }).shares[0]!.user_id;
    for (const [, url, body] of routes(plant, friendId).filter(([m]) => m === 'POST')) {
      expect((await s.call(visitor.token, 'POST', url, body)).body, url).toMatchObject({
        code: ErrorCode.noPermission,
        data: null,
      });
    }
    expect((await s.call(visitor.token, 'POST', `/api/v1/gateway/${gwSn}/unbind`)).body.code).toBe(ErrorCode.noPermission);
    await s.call(victim.token, 'POST', `/api/v1/plant/${plant}/cancelShare`, { userId: visitor.id });
    expect(await read()).toEqual(snapshot);
  });
});
