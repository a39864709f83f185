import { ErrorCode } from '@sunfleet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { badInput, someBadInput } from '../../../test/envelopes.ts';
import { startServer, type TestServer } from '../../../test/harness.ts';
import { addEvent, DAY, day, type Site, site, url } from '../../../test/kits/events.ts';
import { account, company } from '../../../test/kits/plants.ts';

let s: TestServer;
let a: Site;
let b: Site;
const T0 = Date.UTC(2025, 5, 15, 12, 0, 0); // 2025-06-15 12:00 UTC
const ids: Record<string, number> = {};

type Row = {
  id: number;
  sn: string;
  code: string;
  level: string;
  text: string;
  action: string;
  kind: string | null;
  pack: number | null;
  plantId: number;
  endedAt: string | null;
  canAck: boolean;
  alias: string | null;
};
type Page = { total: number; list: Row[] };

beforeAll(async () => {
  s = await startServer();
  a = await site(s);
  b = await site(s);
  // Plant A: an open inverter fault now, a closed inverter warning 10 days ago, a battery pack
  // fault 40 days ago (open), an info on the gateway 100 days ago (closed).
  ids.invFault = await addEvent(s, {
    plantId: a.plantId,
    sn: a.inverter.sn,
    deviceId: a.inverter.id,
    gatewayId: a.gatewayId,
    code: 'gridOvervoltage',
    level: 'fault',
    startedAt: T0,
  });
  ids.invWarning = await addEvent(s, {
    plantId: a.plantId,
    sn: a.inverter.sn,
    deviceId: a.inverter.id,
    gatewayId: a.gatewayId,
    code: 'fanWarning',
    level: 'warning',
    startedAt: T0 - 10 * DAY,
    endedAt: T0 - 10 * DAY + 3_600_000,
    en: 'Fan failure',
    es: 'Fallo del ventilador',
  });
  ids.packFault = await addEvent(s, {
    plantId: a.plantId,
    sn: a.battery.sn,
    deviceId: a.battery.id,
    gatewayId: a.gatewayId,
    code: 'pack3.cellOvervoltage',
    level: 'fault',
    startedAt: T0 - 40 * DAY,
    en: 'Cell overvoltage',
    es: 'Sobretensión de celda',
  });
  ids.gwInfo = await addEvent(s, {
    plantId: a.plantId,
    sn: a.gatewaySn,
    gatewayId: a.gatewayId,
    source: 'rule',
    code: 'offline',
    level: 'warning',
    startedAt: T0 - 100 * DAY,
    endedAt: T0 - 99 * DAY,
    en: 'Gateway offline: no data received',
    es: 'Pasarela sin conexión: no se reciben datos',
  });
  ids.other = await addEvent(s, {
    plantId: b.plantId,
    sn: b.inverter.sn,
    deviceId: b.inverter.id,
    gatewayId: b.gatewayId,
    startedAt: T0 - DAY,
  });
});
afterAll(() => s.close());

const list = async (token: string, query: Record<string, string | number | boolean | undefined> = {}, path = '/api/v1/events') =>
  s.call(token, 'GET', url(path, query));

describe('events list', () => {
  it('shows only the events of plants the caller can see, newest first', async () => {
    const res = await list(a.owner.token);
    expect(res.body.code).toBe(ErrorCode.ok);
    const page = res.body.data as Page;
    expect(page.total).toBe(4);
    expect(page.list.map((e) => e.id)).toEqual([ids.invFault, ids.invWarning, ids.packFault, ids.gwInfo]);
    const other = (await list(b.owner.token)).body.data as Page;
    expect(other.list.map((e) => e.id)).toEqual([ids.other]);
  });

  it('describes each event: kind, alias, text and suggested action in the request language', async () => {
    const es = (await list(a.owner.token, { lan: 'es' })).body.data as Page;
    const fault = es.list.find((e) => e.id === ids.invFault)!;
    expect(fault).toMatchObject({
      kind: 'inverter',
      sn: a.inverter.sn,
      text: 'Sobretensión de red',
      plantId: a.plantId,
      alias: 'inverter alias',
    });
    expect(fault.action).toMatch(/tensión de red supera el límite/);
    const en = (await list(a.owner.token)).body.data as Page;
    expect(en.list.find((e) => e.id === ids.invFault)!.action).toMatch(/Grid voltage is above the limit/);
    const pack = en.list.find((e) => e.id === ids.packFault)!;
    expect(pack).toMatchObject({ kind: 'battery', pack: 3 });
    expect(pack.action).toMatch(/Stop charging/);
    const gw = en.list.find((e) => e.id === ids.gwInfo)!;
    expect(gw).toMatchObject({ kind: 'gateway', alias: 'Roof gateway' });
    expect(gw.action).toMatch(/gateway’s power and its internet connection/);
  });

  it('filters by plant, SN, kind, level, state and dates', async () => {
    const idsOf = async (q: Record<string, string | number | boolean>) => {
      const res = await list(a.owner.token, q);
      expect(res.body.code, JSON.stringify(res.body)).toBe(ErrorCode.ok);
      return (res.body.data as Page).list.map((e) => e.id).sort((x, y) => x - y);
    };
    const sorted = (...x: number[]) => x.sort((p, q) => p - q);
    expect(await idsOf({ plantId: a.plantId })).toEqual(sorted(ids.invFault!, ids.invWarning!, ids.packFault!, ids.gwInfo!));
    expect(await idsOf({ sn: a.inverter.sn })).toEqual(sorted(ids.invFault!, ids.invWarning!));
    expect(await idsOf({ kind: 'battery' })).toEqual([ids.packFault]);
    expect(await idsOf({ kind: 'gateway' })).toEqual([ids.gwInfo]);
    expect(await idsOf({ level: 'warning' })).toEqual(sorted(ids.invWarning!, ids.gwInfo!));
    expect(await idsOf({ state: 'open' })).toEqual(sorted(ids.invFault!, ids.packFault!));
    expect(await idsOf({ state: 'closed' })).toEqual(sorted(ids.invWarning!, ids.gwInfo!));
    // 2025-05-01 … 2025-06-05: the pack fault (May 6) and the fan warning (June 5).
    expect(await idsOf({ startDate: '2025-05-01', endDate: '2025-06-05' })).toEqual(sorted(ids.invWarning!, ids.packFault!));
    expect(await idsOf({ startDate: day(T0), endDate: day(T0) })).toEqual([ids.invFault]);
    expect(await idsOf({ level: 'fault', state: 'open', kind: 'inverter' })).toEqual([ids.invFault]);
  });

  it('reads the dates in the given time zone', async () => {
    // 12:00 UTC on June 15 is already June 16 in Kiritimati (UTC+14).
    const kiri = await list(a.owner.token, { startDate: '2025-06-16', endDate: '2025-06-16', timezone: 'Pacific/Kiritimati' });
    expect((kiri.body.data as Page).list.map((e) => e.id)).toEqual([ids.invFault]);
    const utc = await list(a.owner.token, { startDate: '2025-06-16', endDate: '2025-06-16' });
    expect((utc.body.data as Page).total).toBe(0);
    const bad = await list(a.owner.token, { startDate: '2025-06-16', endDate: '2025-06-16', timezone: 'Mars/Olympus' });
    expect(bad.body).toMatchObject(badInput('timezone'));
  });

  it('pages, with the total of the whole filter', async () => {
    const p1 = (await list(a.owner.token, { page: 1, size: 3 })).body.data as Page;
    const p2 = (await list(a.owner.token, { page: 2, size: 3 })).body.data as Page;
    expect(p1.total).toBe(4);
    expect(p2.total).toBe(4);
    expect([...p1.list, ...p2.list].map((e) => e.id)).toEqual([ids.invFault, ids.invWarning, ids.packFault, ids.gwInfo]);
  });

  it('keeps totals right as events arrive', async () => {
    const before = ((await list(a.owner.token, { page: 1, size: 2 })).body.data as Page).total;
    const id = await addEvent(s, {
      plantId: a.plantId,
      sn: a.inverter.sn,
      deviceId: a.inverter.id,
      code: 'arcFault',
      startedAt: T0 - 5 * DAY,
      endedAt: T0 - 5 * DAY + 1,
    });
    const after = ((await list(a.owner.token, { page: 1, size: 2 })).body.data as Page).total;
    expect(after).toBe(before + 1);
    await s.db.deleteFrom('events').where('id', '=', id).execute();
  });

  it('allows 90 days and refuses 91 with code 4 naming the limit', async () => {
    const ok = await list(a.owner.token, { startDate: '2025-03-18', endDate: '2025-06-15' }); // 90 days
    expect(ok.body.code).toBe(ErrorCode.ok);
    expect((ok.body.data as Page).total).toBe(3);
    const tooLong = await list(a.owner.token, { startDate: '2025-03-17', endDate: '2025-06-15' }); // 91 days
    expect(tooLong.body).toMatchObject({ code: ErrorCode.validation, data: null });
    expect(tooLong.body.msg).toMatch(/at most 90 days/);
    for (const q of [
      { startDate: '2025-06-15' },
      { startDate: '2025-06-15', endDate: '2025-06-14' },
      { startDate: '2025-02-30', endDate: '2025-03-01' },
      { startDate: '15/06/2025', endDate: '2025-06-16' },
    ]) {
      const res = await list(a.owner.token, q);
      expect(res.body, JSON.stringify(q)).toMatchObject(someBadInput);
    }
  });

  it('answers 700 for a plant and 404 for an SN of someone else, with no data', async () => {
    expect((await list(a.owner.token, { plantId: b.plantId })).body).toMatchObject({ code: ErrorCode.plantMissing, data: null });
    expect((await list(a.owner.token, { sn: b.inverter.sn })).body).toMatchObject({ code: ErrorCode.notFound, data: null });
    expect((await list(a.owner.token, { sn: 'NOSUCHSN' })).body).toMatchObject({ code: ErrorCode.notFound, data: null });
  });

  it('lets a company see the plants of owners it is agent for', async () => {
    const companyId = await company(s);
    const tech = await account(s, { kind: 'company_admin', companyId });
    expect(((await list(tech.token)).body.data as Page).total).toBe(0);
    await s.db.updateTable('users').set({ agent_company_id: companyId }).where('id', '=', b.owner.id).execute();
    const seen = (await list(tech.token)).body.data as Page;
    expect(seen.list.map((e) => e.id)).toEqual([ids.other]);
  });

  it('needs event.view', async () => {
    const companyId = await company(s, undefined, ['station.view']);
    const user = await account(s, { kind: 'company_admin', companyId });
    expect((await list(user.token)).body).toMatchObject({ code: ErrorCode.noPermission, data: null });
  });
});

describe('events search', () => {
  const idsOf = async (token: string, search: string, more: Record<string, string> = {}) => {
    const res = await list(token, { search, ...more });
    expect(res.body.code, JSON.stringify(res.body)).toBe(ErrorCode.ok);
    return (res.body.data as Page).list.map((e) => e.id);
  };

  it('finds events by part of the device’s SN, in any case', async () => {
    expect(await idsOf(a.owner.token, a.inverter.sn.slice(1).toLowerCase())).toEqual([ids.invFault, ids.invWarning]);
    expect(await idsOf(a.owner.token, a.battery.sn.slice(1, -1))).toEqual([ids.packFault]);
  });

  it('finds a gateway’s own events by part of its SN or alias', async () => {
    expect(await idsOf(a.owner.token, a.gatewaySn.slice(1, -1).toLowerCase())).toEqual([ids.gwInfo]);
    expect(await idsOf(a.owner.token, 'ROOF GATE')).toEqual([ids.gwInfo]);
  });

  it('finds events by part of the device’s alias, only on plants the caller sees', async () => {
    // Both tenants' inverters are called "inverter alias".
    expect(await idsOf(a.owner.token, 'Inverter Ali')).toEqual([ids.invFault, ids.invWarning]);
    expect(await idsOf(b.owner.token, 'inverter ali')).toEqual([ids.other]);
    const admin = await account(s, { kind: 'sysadmin' });
    expect(await idsOf(admin.token, 'inverter ali')).toEqual([ids.invFault, ids.other, ids.invWarning]);
  });

  it('finds events by part of the plant’s name; % and _ are plain characters', async () => {
    await s.db.updateTable('plants').set({ name: 'Finca 100%_Sur' }).where('id', '=', a.plantId).execute();
    expect(await idsOf(a.owner.token, 'ca 100%_s')).toEqual([ids.invFault, ids.invWarning, ids.packFault, ids.gwInfo]);
    // As wildcards these would match the plant ("0", any character, anything; any one character).
    expect(await idsOf(a.owner.token, '0_%')).toEqual([]);
    expect(await idsOf(a.owner.token, '__')).toEqual([]);
    expect(await idsOf(a.owner.token, '!%')).toEqual([]);
    expect(await idsOf(b.owner.token, 'ca 100%_s')).toEqual([]);
  });

  it('combines with the other filters, counts the whole match and keeps the exact SN filter', async () => {
    expect(await idsOf(a.owner.token, 'inverter ali', { level: 'warning' })).toEqual([ids.invWarning]);
    const page = (await list(a.owner.token, { search: 'inverter ali', page: 1, size: 1 })).body.data as Page;
    expect(page.total).toBe(2);
    expect(await idsOf(a.owner.token, 'inverter ali', { sn: a.battery.sn })).toEqual([]);
    const res = await list(a.owner.token, { search: 'inverter ali', page: 1, size: 1 }, '/api/v1/battery/events');
    expect((res.body.data as Page).total).toBe(0);
  });

  it('refuses a search shorter than 2 or longer than 64 characters with code 4', async () => {
    for (const search of ['i', 'x'.repeat(65)]) {
      const res = await list(a.owner.token, { search });
      expect(res.body, search).toMatchObject(badInput('search'));
      expect(res.body.msg).toMatch(/search/);
    }
  });
});

describe('battery/events', () => {
  it('lists battery events only, with their pack', async () => {
    const res = await list(a.owner.token, {}, '/api/v1/battery/events');
    const page = res.body.data as Page;
    expect(page.list.map((e) => [e.id, e.pack])).toEqual([[ids.packFault, 3]]);
    const filtered = await list(a.owner.token, { state: 'closed' }, '/api/v1/battery/events');
    expect((filtered.body.data as Page).total).toBe(0);
  });
});

describe('one device', () => {
  it('event/{sn} lists its events with the same filters, dates read in the plant zone', async () => {
    const res = await s.call(a.owner.token, 'GET', `/api/v1/event/${a.inverter.sn}`);
    expect((res.body.data as Page).list.map((e) => e.id)).toEqual([ids.invFault, ids.invWarning]);
    const closed = await s.call(a.owner.token, 'GET', url(`/api/v1/event/${a.inverter.sn}`, { state: 'closed' }));
    expect((closed.body.data as Page).list.map((e) => e.id)).toEqual([ids.invWarning]);
    const gw = await s.call(a.owner.token, 'GET', `/api/v1/event/${a.gatewaySn}`);
    expect((gw.body.data as Page).list.map((e) => e.id)).toEqual([ids.gwInfo]);
    const tooLong = await s.call(
      a.owner.token,
      'GET',
      url(`/api/v1/event/${a.inverter.sn}`, { startDate: '2025-01-01', endDate: '2025-06-15' }),
    );
    expect(tooLong.body).toMatchObject({ code: ErrorCode.validation, data: null });
  });

  it('event/{sn}/realtime lists its open events', async () => {
    const res = await s.call(a.owner.token, 'GET', `/api/v1/event/${a.inverter.sn}/realtime`);
    expect((res.body.data as Row[]).map((e) => e.id)).toEqual([ids.invFault]);
  });

  it('answers 404 with no data for a device of someone else', async () => {
    for (const path of [
      `/api/v1/event/${b.inverter.sn}`,
      `/api/v1/event/${b.inverter.sn}/realtime`,
      `/api/v1/event/${b.gatewaySn}`,
    ]) {
      expect((await s.call(a.owner.token, 'GET', path)).body, path).toMatchObject({ code: ErrorCode.notFound, data: null });
    }
  });

  it('event/{id}/detail shows one event, and nothing of someone else’s', async () => {
    const res = await s.call(a.owner.token, 'GET', url(`/api/v1/event/${ids.invWarning}/detail`, { lan: 'es' }));
    expect(res.body.data).toMatchObject({
      id: ids.invWarning,
      code: 'fanWarning',
      level: 'warning',
      text: 'Fallo del ventilador',
      startedAt: new Date(T0 - 10 * DAY).toISOString(),
      endedAt: new Date(T0 - 10 * DAY + 3_600_000).toISOString(),
      acknowledged: false,
      canAck: true,
    });
    expect((res.body.data as Row).action).toMatch(/ventiladores/);
    expect((await s.call(a.owner.token, 'GET', `/api/v1/event/${ids.other}/detail`)).body).toMatchObject({
      code: ErrorCode.notFound,
      data: null,
    });
  });
});
