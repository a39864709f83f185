import { ErrorCode } from '@sunfleet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { badInput } from '../../../test/envelopes.ts';
import { startServer, type TestServer } from '../../../test/harness.ts';
import { addEvent, type Site, site, url } from '../../../test/kits/events.ts';
import { type Account, account } from '../../../test/kits/plants.ts';

let s: TestServer;
let a: Site;
let b: Site;
let visitor: Account;
let manager: Account;
let readOnlyManager: Account;

const share = (plantId: number, userId: number, role: 'manager' | 'visitor') =>
  s.db.insertInto('plant_shares').values({ plant_id: plantId, user_id: userId, role, created_at: Date.now() }).execute();
const stored = (id: number) =>
  s.db.selectFrom('events').select(['acked_at', 'acked_by', 'ack_note']).where('id', '=', id).executeTakeFirstOrThrow();
const ack = (who: Account, id: number, body: unknown = {}) => s.call(who.token, 'POST', `/api/v1/event/${id}/ack`, body);
const event = (site: Site, code: string) =>
  addEvent(s, { plantId: site.plantId, sn: site.inverter.sn, deviceId: site.inverter.id, gatewayId: site.gatewayId, code });

beforeAll(async () => {
  s = await startServer();
  a = await site(s, { nickname: 'Ana' });
  b = await site(s);
  visitor = await account(s);
  manager = await account(s);
  readOnlyManager = await account(s, { readOnly: true });
  await share(a.plantId, visitor.id, 'visitor');
  await share(a.plantId, manager.id, 'manager');
  await share(a.plantId, readOnlyManager.id, 'manager');
});
afterAll(() => s.close());

describe('event acknowledgement', () => {
  it('the owner acknowledges with a note; it is stored and shown with their nickname, never their e-mail', async () => {
    const id = await event(a, 'gridOvervoltage');
    const before = Date.now();
    const res = await ack(a.owner, id, { note: '  Called the grid operator ' });
    expect(res.body.code).toBe(ErrorCode.ok);
    expect(res.body.data).toMatchObject({
      id,
      acknowledged: true,
      ackBy: 'Ana',
      ackNote: 'Called the grid operator',
      canAck: false,
    });
    const row = await stored(id);
    expect(row.acked_by).toBe(a.owner.id);
    expect(row.ack_note).toBe('Called the grid operator');
    expect(Number(row.acked_at)).toBeGreaterThanOrEqual(before);
    expect(JSON.stringify(res.body.data)).not.toContain(a.owner.account);
    // Seen the same way by the visitor.
    const seen = await s.call(visitor.token, 'GET', `/api/v1/event/${id}/detail`);
    expect(seen.body.data).toMatchObject({ acknowledged: true, ackBy: 'Ana', canAck: false });
  });

  it('a second acknowledgement answers 207 and changes nothing', async () => {
    const id = await event(a, 'gridUndervoltage');
    expect((await ack(a.owner, id, { note: 'first' })).body.code).toBe(ErrorCode.ok);
    const first = await stored(id);
    const again = await ack(manager, id, { note: 'second' });
    expect(again.body).toMatchObject({ code: ErrorCode.already, data: null });
    expect(await stored(id)).toEqual(first);
  });

  it('a manager may acknowledge; a visitor and a read-only account may not (2), and nothing is written', async () => {
    const id = await event(a, 'islanding');
    const list = (who: Account) => s.call(who.token, 'GET', url('/api/v1/events', { sn: a.inverter.sn, state: 'open' }));
    const canAck = async (who: Account) =>
      ((await list(who)).body.data as { list: Array<{ id: number; canAck: boolean }> }).list.find((e) => e.id === id)?.canAck;
    expect(await canAck(visitor)).toBe(false);
    expect(await canAck(readOnlyManager)).toBe(false);
    expect(await canAck(manager)).toBe(true);
    expect((await ack(visitor, id)).body).toMatchObject({ code: ErrorCode.noPermission, data: null });
    expect((await ack(readOnlyManager, id)).body).toMatchObject({ code: ErrorCode.noPermission, data: null });
    expect((await stored(id)).acked_at).toBeNull();
    const res = await ack(manager, id);
    expect(res.body).toMatchObject({ code: ErrorCode.ok, data: { acknowledged: true, ackBy: null, ackNote: null } });
    expect((await stored(id)).acked_by).toBe(manager.id);
  });

  it('answers 404 with no data for an event of someone else, and writes nothing', async () => {
    const theirs = await event(b, 'acOvercurrent');
    expect((await ack(a.owner, theirs)).body).toMatchObject({ code: ErrorCode.notFound, data: null });
    expect((await ack(a.owner, 99_999_999)).body).toMatchObject({ code: ErrorCode.notFound, data: null });
    expect((await stored(theirs)).acked_at).toBeNull();
  });

  it('refuses a bad note (4) and writes nothing', async () => {
    const id = await event(a, 'dcOvercurrent');
    for (const note of ['<script>', 'x'.repeat(256)]) {
      const res = await ack(a.owner, id, { note });
      expect(res.body).toMatchObject(badInput('note'));
    }
    expect((await ack(a.owner, id, { note: 'ok', extra: 1 })).body.code).toBe(ErrorCode.validation);
    expect((await stored(id)).acked_at).toBeNull();
  });

  it('filters by acknowledgement', async () => {
    const id = await event(a, 'busOvervoltage');
    await ack(a.owner, id);
    const acked = await s.call(a.owner.token, 'GET', url('/api/v1/events', { acknowledged: true }));
    const ids = (acked.body.data as { list: Array<{ id: number; acknowledged: boolean }> }).list;
    expect(ids.some((e) => e.id === id)).toBe(true);
    expect(ids.every((e) => e.acknowledged)).toBe(true);
    const open = await s.call(a.owner.token, 'GET', url('/api/v1/events', { acknowledged: false }));
    const rest = (open.body.data as { list: Array<{ id: number; acknowledged: boolean }> }).list;
    expect(rest.some((e) => e.id === id)).toBe(false);
    expect(rest.every((e) => !e.acknowledged)).toBe(true);
  });
});
