/**
 * The one resolver (access/resolve.ts) on one fleet: each subject a caller cannot see fails with
 * its not-found code (plant 700, inverter 600, other device 404, gateway 305, event 404, SN 404);
 * one they see but may not change fails with 2 when the call needs more; and what is returned
 * carries the caller's rights on it. Owner, share visitor, the owner's agent company (with the
 * unbound gateway it imported), another tenant.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type World, world } from '../../test/kits/devices.ts';
import { addEvent } from '../../test/kits/events.ts';
import type { Caller } from './caller.ts';
import { grantsFor } from './grants.ts';
import { deviceFor, eventFor, gatewayFor, plantFor, subjectFor } from './resolve.ts';

let w: World;
let eventA: number;
let owner: Caller;
let visitor: Caller;
let agent: Caller;
let other: Caller;
beforeAll(async () => {
  w = await world();
  eventA = await addEvent(w.s, { plantId: w.plantA, sn: w.sn.INV1 });
  owner = await callerOf(w.O);
  visitor = await callerOf(w.visitor);
  agent = await callerOf(w.admin);
  other = await callerOf(w.P);
}, 60_000);
afterAll(() => w.close());

async function callerOf(who: { id: number }): Promise<Caller> {
  const user = await w.s.db.selectFrom('users').selectAll().where('id', '=', who.id).executeTakeFirstOrThrow();
  return { user, sessionId: 'test', grants: await grantsFor(w.s.db, user) };
}
const code = (p: Promise<unknown>) =>
  p.then(
    () => 0,
    (err: { code?: number }) => err.code,
  );

describe('the access resolver', () => {
  it('plants: 700 when not seen, 2 when the need is more than the caller has, with the rights returned', async () => {
    expect(await plantFor(w.s.db, owner, w.plantA, 'manage')).toMatchObject({ id: w.plantA, canOperate: true, canManage: true });
    expect(await plantFor(w.s.db, visitor, w.plantA)).toMatchObject({ canOperate: false, canManage: false });
    expect(await code(plantFor(w.s.db, visitor, w.plantA, 'operate'))).toBe(2);
    expect(await plantFor(w.s.db, agent, w.plantA, 'operate')).toMatchObject({ canOperate: true, canManage: false });
    expect(await code(plantFor(w.s.db, agent, w.plantA, 'manage'))).toBe(2);
    expect(await code(plantFor(w.s.db, other, w.plantA))).toBe(700);
    // Further columns come in the same query.
    const { row } = await plantFor(w.s.db, owner, w.plantA, 'view', ['timezone', 'name']);
    expect(row).toEqual({ timezone: w.zone, name: expect.any(String) });
  });

  it("devices: 600 for an inverter and 404 for anything else not seen or of another kind; an unbound one only for its gateway's company", async () => {
    expect(await deviceFor(w.s.db, owner, { sn: w.sn.INV1 }, { kind: 'inverter', need: 'operate' })).toMatchObject({
      sn: w.sn.INV1,
      kind: 'inverter',
      plantId: w.plantA,
      timezone: w.zone,
      gatewayId: w.GA.id,
      canOperate: true,
    });
    expect(await code(deviceFor(w.s.db, other, { sn: w.sn.INV1 }, { kind: 'inverter' }))).toBe(600);
    expect(await code(deviceFor(w.s.db, other, { sn: w.sn.MET }, { kind: 'meter' }))).toBe(404);
    expect(await code(deviceFor(w.s.db, owner, { sn: w.sn.INV1 }, { kind: 'meter' }))).toBe(404);
    expect(await deviceFor(w.s.db, visitor, { sn: w.sn.MET })).toMatchObject({ canOperate: false });
    expect(await code(deviceFor(w.s.db, visitor, { sn: w.sn.MET }, { need: 'operate' }))).toBe(2);
    expect(await deviceFor(w.s.db, agent, { sn: w.sn.INVU })).toMatchObject({ plantId: null, timezone: null, canOperate: true });
    expect(await code(deviceFor(w.s.db, agent, { sn: w.sn.INVU }, { kind: 'inverter', onPlant: true }))).toBe(600);
    expect(await code(deviceFor(w.s.db, owner, { sn: w.sn.INVU }))).toBe(404);
  });

  it('gateways: 305 when not seen (or unbound, when the call needs a plant), 2 when not operated', async () => {
    expect(await gatewayFor(w.s.db, owner, { sn: w.GA.sn }, { need: 'operate' })).toMatchObject({
      id: w.GA.id,
      plantId: w.plantA,
      timezone: w.zone,
      canOperate: true,
    });
    expect(await gatewayFor(w.s.db, visitor, { id: w.GA.id })).toMatchObject({ canOperate: false });
    expect(await code(gatewayFor(w.s.db, visitor, { id: w.GA.id }, { need: 'operate' }))).toBe(2);
    expect(await code(gatewayFor(w.s.db, other, { id: w.GA.id }))).toBe(305);
    expect(await gatewayFor(w.s.db, agent, { sn: w.GU.sn })).toMatchObject({ plantId: null });
    expect(await code(gatewayFor(w.s.db, agent, { sn: w.GU.sn }, { onPlant: true }))).toBe(305);
  });

  it('an SN: a device on a seen plant, else such a gateway, else 404', async () => {
    expect(await subjectFor(w.s.db, owner, w.sn.BAT)).toMatchObject({ kind: 'battery', plantId: w.plantA, timezone: w.zone });
    expect(await subjectFor(w.s.db, owner, w.GA.sn)).toMatchObject({ kind: 'gateway', deviceId: null, gatewayId: w.GA.id });
    expect(await code(subjectFor(w.s.db, owner, w.GA.sn, { deviceOnly: true }))).toBe(404);
    expect(await code(subjectFor(w.s.db, other, w.sn.BAT))).toBe(404);
    expect(await code(subjectFor(w.s.db, agent, w.sn.INVU))).toBe(404);
  });

  it('events: 404 when their plant is not seen, 2 when it is not operated', async () => {
    expect(await eventFor(w.s.db, owner, eventA, 'operate')).toEqual({ id: eventA, plantId: w.plantA, canOperate: true });
    expect(await eventFor(w.s.db, visitor, eventA)).toMatchObject({ canOperate: false });
    expect(await code(eventFor(w.s.db, visitor, eventA, 'operate'))).toBe(2);
    expect(await code(eventFor(w.s.db, other, eventA))).toBe(404);
  });
});
