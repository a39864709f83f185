/** Gateway binding by SN and label key: check, bind at creation or later, replace, unbind. */

import { ErrorCode } from '@sunfleet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness.ts';
import { type Account, account, createPlant, device, gateway } from '../../../test/kits/plants.ts';

let s: TestServer;
let owner: Account;
let stranger: Account;

const post = (who: Account, url: string, body?: unknown) => s.call(who.token, 'POST', url, body);
const check = (who: Account, sn: string, key: string) => post(who, '/api/v1/gateways/check', { sn, key });
const gatewayOf = (sn: string) => s.db.selectFrom('gateways').select(['plant_id']).where('sn', '=', sn).executeTakeFirstOrThrow();
// Plant status comes from presence and ingest; an offline plant shows 0 W whatever its last reading.
const online = (id: number) => s.db.updateTable('plants').set({ status: 'normal' }).where('id', '=', id).execute();
/** A reading time just after a binding made now. */
const afterBinding = () => Date.now() + 60_000;
const devicePlant = async (id: number) =>
  (await s.db.selectFrom('devices').select('plant_id').where('id', '=', id).executeTakeFirstOrThrow()).plant_id;

beforeAll(async () => {
  s = await startServer();
  owner = await account(s);
  stranger = await account(s);
});
afterAll(() => s.close());

describe('gateways/check', () => {
  it('answers 0 for a free gateway with the right key, 1006 unknown SN or wrong key, 301 bound', async () => {
    const free = await gateway(s, null, 'KEY-FREE');
    expect((await check(owner, free.sn, 'KEY-FREE')).body).toMatchObject({ code: ErrorCode.ok, data: { sn: free.sn } });
    // An unknown SN and a wrong key answer alike: which SNs exist is not told.
    const unknown = await check(owner, 'NOSUCHGW', 'KEY-FREE');
    const wrong = await check(owner, free.sn, 'WRONG');
    expect(unknown.body).toMatchObject({ code: ErrorCode.gatewayCredentials, data: null });
    expect(unknown.status).toBe(wrong.status);
    expect(unknown.body).toEqual(wrong.body);
    const bound = await gateway(s, await createPlant(s, stranger), 'KEY-BOUND');
    expect((await check(owner, bound.sn, 'KEY-BOUND')).body).toMatchObject({ code: ErrorCode.gatewayUsed, data: null });
    // Without the key nobody learns that a gateway is in use.
    expect((await check(owner, bound.sn, 'GUESS')).body.code).toBe(ErrorCode.gatewayCredentials);
  });

  it('needs both SN and key (4)', async () => {
    expect((await post(owner, '/api/v1/gateways/check', { sn: 'X' })).body.code).toBe(ErrorCode.validation);
    expect((await post(owner, '/api/v1/gateways/check', { key: 'X' })).body.code).toBe(ErrorCode.validation);
    expect((await post(owner, '/api/v1/gateways/check', { sn: '', key: 'X' })).body.code).toBe(ErrorCode.validation);
  });
});

describe('binding', () => {
  it('binds at creation: the gateway and its devices join the plant, its power shows', async () => {
    const gw = await gateway(s, null, 'KEY-C');
    // A reading taken after the binding (one from before it is an earlier owner's: moves.test.ts).
    const inv = await device(s, gw.id, null, { latest: { activePower: 1500 }, ts: afterBinding() });
    const res = await post(owner, '/api/v1/plant', {
      name: 'Bound at birth',
      capacity: 5,
      type: 0,
      timezone: 'UTC',
      gateway: { sn: gw.sn, key: 'KEY-C' },
    });
    expect(res.body.code).toBe(ErrorCode.ok);
    const id = (res.body.data as { id: number }).id;
    expect(res.body.data).toMatchObject({
      gateways: [{ sn: gw.sn, online: false, lastOnlineAt: null }],
      status: 'offline',
      power: 0,
    });
    await online(id);
    expect((await s.call(owner.token, 'GET', `/api/v1/plant/${id}`)).body.data).toMatchObject({ power: 1500 });
    expect((await gatewayOf(gw.sn)).plant_id).toBe(id);
    expect(await devicePlant(inv)).toBe(id);
  });

  it('a refused gateway at creation creates no plant', async () => {
    const taken = await gateway(s, await createPlant(s, stranger), 'KEY-T');
    const count = async () => (await s.db.selectFrom('plants').select('id').where('name', '=', 'Never made').execute()).length;
    for (const [claim, code] of [
      [{ sn: taken.sn, key: 'KEY-T' }, 301],
      [{ sn: taken.sn, key: 'NOPE' }, 1006],
      [{ sn: 'NOSUCH', key: 'KEY-T' }, 1006],
    ] as const) {
      const res = await post(owner, '/api/v1/plant', {
        name: 'Never made',
        capacity: 1,
        type: 0,
        timezone: 'UTC',
        gateway: claim,
      });
      expect(res.body.code).toBe(code);
    }
    expect(await count()).toBe(0);
  });

  it('replaces a gateway: bind the new one, then unbind the old', async () => {
    const id = await createPlant(s, owner);
    await online(id);
    const old = await gateway(s, null, 'KEY-OLD');
    const oldInv = await device(s, old.id, null, { latest: { activePower: 100 }, ts: afterBinding() });
    expect((await post(owner, `/api/v1/plant/${id}/gateway`, { sn: old.sn, key: 'KEY-OLD' })).body).toMatchObject({
      code: ErrorCode.ok,
      data: { sn: old.sn },
    });
    // Binding again to the same plant is harmless.
    expect((await post(owner, `/api/v1/plant/${id}/gateway`, { sn: old.sn, key: 'KEY-OLD' })).body.code).toBe(ErrorCode.ok);
    const fresh = await gateway(s, null, 'KEY-NEW');
    const newInv = await device(s, fresh.id, null, { latest: { activePower: 700 }, ts: afterBinding() });
    expect((await post(owner, `/api/v1/plant/${id}/gateway`, { sn: fresh.sn, key: 'KEY-NEW' })).body.code).toBe(ErrorCode.ok);
    expect((await s.call(owner.token, 'GET', `/api/v1/plant/${id}`)).body.data).toMatchObject({ power: 800 });
    expect((await post(owner, `/api/v1/gateway/${old.sn}/unbind`)).body).toMatchObject({ code: ErrorCode.ok, data: null });
    expect((await gatewayOf(old.sn)).plant_id).toBeNull();
    expect(await devicePlant(oldInv)).toBeNull();
    expect(await devicePlant(newInv)).toBe(id);
    expect((await s.call(owner.token, 'GET', `/api/v1/plant/${id}`)).body.data).toMatchObject({
      power: 700,
      gateways: [{ sn: fresh.sn }],
    });
    // The old gateway is free again.
    expect((await check(owner, old.sn, 'KEY-OLD')).body.code).toBe(ErrorCode.ok);
  });

  it('refuses: 301 another plant’s gateway, 1006 wrong key or unknown SN, 700 foreign plant', async () => {
    const id = await createPlant(s, owner);
    const theirs = await gateway(s, await createPlant(s, stranger), 'KEY-X');
    expect((await post(owner, `/api/v1/plant/${id}/gateway`, { sn: theirs.sn, key: 'KEY-X' })).body.code).toBe(
      ErrorCode.gatewayUsed,
    );
    expect((await post(owner, `/api/v1/plant/${id}/gateway`, { sn: theirs.sn, key: 'BAD' })).body.code).toBe(
      ErrorCode.gatewayCredentials,
    );
    expect((await post(owner, `/api/v1/plant/${id}/gateway`, { sn: 'NOSUCH', key: 'BAD' })).body.code).toBe(
      ErrorCode.gatewayCredentials,
    );
    const free = await gateway(s, null, 'KEY-F');
    const strangersPlant = await createPlant(s, stranger);
    expect((await post(owner, `/api/v1/plant/${strangersPlant}/gateway`, { sn: free.sn, key: 'KEY-F' })).body).toMatchObject({
      code: ErrorCode.plantMissing,
      data: null,
    });
    expect((await gatewayOf(free.sn)).plant_id).toBeNull();
  });

  it('unbind: another tenant’s gateway or an unbound one does not exist (305); a visitor may not (2)', async () => {
    const theirs = await gateway(s, await createPlant(s, stranger), 'KEY-Y');
    expect((await post(owner, `/api/v1/gateway/${theirs.sn}/unbind`)).body).toMatchObject({
      code: ErrorCode.gatewayMissing,
      data: null,
    });
    expect((await gatewayOf(theirs.sn)).plant_id).not.toBeNull();
    const loose = await gateway(s, null);
    expect((await post(owner, `/api/v1/gateway/${loose.sn}/unbind`)).body.code).toBe(ErrorCode.gatewayMissing);
    expect((await post(owner, '/api/v1/gateway/NOSUCH/unbind')).body.code).toBe(ErrorCode.gatewayMissing);
    const id = await createPlant(s, owner);
    const mine = await gateway(s, id);
    const visitor = await account(s);
    await post(owner, `/api/v1/plant/${id}/share`, { account: visitor.account, role: 'visitor' });
    expect((await post(visitor, `/api/v1/gateway/${mine.sn}/unbind`)).body.code).toBe(ErrorCode.noPermission);
    expect((await gatewayOf(mine.sn)).plant_id).toBe(id);
  });

  it('deleting a plant frees its gateways and devices', async () => {
    const id = await createPlant(s, owner);
    const gw = await gateway(s, id, 'KEY-D');
    const inv = await device(s, gw.id, id);
    expect((await post(owner, `/api/v1/plant/${id}/delete`)).body.code).toBe(ErrorCode.ok);
    expect((await gatewayOf(gw.sn)).plant_id).toBeNull();
    expect(await devicePlant(inv)).toBeNull();
    expect((await check(owner, gw.sn, 'KEY-D')).body.code).toBe(ErrorCode.ok);
  });
});
