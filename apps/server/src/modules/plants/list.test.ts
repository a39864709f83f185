/** The plant list: filters, sorts, pages, latest values, counts; map and filter options. */

import { ErrorCode } from '@sunfleet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness.ts';
import { type Account, account, company, device, event, gateway, plantDay, storePlant } from '../../../test/kits/plants.ts';
import { now } from '../../db/index.ts';
import { refreshPlantSummary } from '../../energy/plant-summary.ts';
import { localDay } from '../../time/index.ts';

let s: TestServer;
let owner: Account;
let installer: Account;
let visitor: Account;
let other: Account;
const p: Record<string, number> = {};

type Row = { id: number; name: string; [k: string]: unknown };
const list = async (who: Account, qs = '') => {
  const res = await s.call(who.token, 'GET', `/api/v1/plants${qs}`);
  expect(res.body.code, JSON.stringify(res.body)).toBe(ErrorCode.ok);
  return res.body.data as { total: number; list: Row[] };
};
const names = async (who: Account, qs = '') => (await list(who, qs)).list.map((r) => r.name);
const yesterday = (tz: string) => localDay(tz, Date.now() - 86_400_000);

beforeAll(async () => {
  s = await startServer();
  const installerCo = await company(s, 'List Installers');
  installer = await account(s, { kind: 'company_admin', companyId: installerCo });
  owner = await account(s, { agentCompanyId: installerCo });
  visitor = await account(s);
  other = await account(s);
  const t0 = now() - 10 * 86_400_000;
  const mk = async (key: string, i: number, values: Parameters<typeof storePlant>[1]) => {
    p[key] = await storePlant(s, { owner_user_id: owner.id, created_at: t0 + i * 1000, ...values });
  };
  // created in this order: alpha (oldest) … echo (newest)
  await mk('alpha', 1, {
    name: 'Alpha Farm',
    status: 'normal',
    type: 0,
    capacity: 5,
    timezone: 'Pacific/Kiritimati',
    latitude: 1,
    longitude: 2,
  });
  await mk('bravo', 2, {
    name: 'bravo roof',
    status: 'fault',
    type: 1,
    capacity: 50,
    timezone: 'Pacific/Pago_Pago',
    alias: 'Warehouse',
  });
  await mk('charlie', 3, {
    name: 'Charlie 100%',
    status: 'offline',
    type: 2,
    capacity: 20,
    timezone: 'UTC',
    latitude: 3,
    longitude: 4,
  });
  await mk('delta', 4, { name: 'Delta Solar', status: 'warning', type: 0, capacity: 1, timezone: 'Europe/Madrid' });
  await mk('echo', 5, { name: 'Echo Park', status: 'normal', type: 0, capacity: 8, timezone: 'Asia/Tokyo' });
  p.foreign = await storePlant(s, { owner_user_id: other.id, name: 'Not yours' });
  p.deleted = await storePlant(s, { owner_user_id: owner.id, name: 'Deleted one' });
  await s.db.updateTable('plants').set({ deleted_at: now() }).where('id', '=', p.deleted!).execute();
  await s.db
    .insertInto('plant_shares')
    .values({ plant_id: p.alpha!, user_id: visitor.id, role: 'visitor', created_at: now() })
    .execute();

  // Latest values: alpha 3 kW now (two inverters, one offline ignored, a meter ignored), 12 kWh today in its zone.
  const gwA = await gateway(s, p.alpha!);
  await device(s, gwA.id, p.alpha!, { latest: { activePower: 2000 } });
  await device(s, gwA.id, p.alpha!, { latest: { activePower: 1000 } });
  await device(s, gwA.id, p.alpha!, { status: 'offline', latest: { activePower: 9999 } });
  await device(s, gwA.id, p.alpha!, { kind: 'meter', latest: { activePower: 7777 } });
  await plantDay(s, p.alpha!, yesterday('Pacific/Kiritimati'), 30_000);
  await plantDay(s, p.alpha!, localDay('Pacific/Kiritimati'), 12_000);
  // bravo: 500 W, its last day is yesterday in its zone → today 0; total 100 kWh.
  const gwB = await gateway(s, p.bravo!);
  await device(s, gwB.id, p.bravo!, { latest: { activePower: 500 }, ts: now() - 3_600_000 });
  await plantDay(s, p.bravo!, yesterday('Pacific/Pago_Pago'), 100_000);
  // charlie: offline plant with a stale reading → power 0; today 5 kWh.
  const gwC = await gateway(s, p.charlie!);
  await device(s, gwC.id, p.charlie!, { latest: { activePower: 4000 } });
  await plantDay(s, p.charlie!, localDay('UTC'), 5_000);
  await refreshPlantSummary(s.db, Object.values(p));

  await event(s, p.bravo!, { level: 'fault' });
  await event(s, p.bravo!, { level: 'warning' });
  await event(s, p.bravo!, { level: 'info' });
  await event(s, p.bravo!, { level: 'fault', open: false });
  await event(s, p.delta!, { level: 'warning' });
  await event(s, p.foreign!, { level: 'fault' });
});
afterAll(() => s.close());

describe('plant list', () => {
  it('lists the visible plants newest first by default, with the total', async () => {
    const page = await list(owner);
    expect(page.total).toBe(5);
    expect(page.list.map((r) => r.name)).toEqual(['Echo Park', 'Delta Solar', 'Charlie 100%', 'bravo roof', 'Alpha Farm']);
    expect(await names(owner, '?sort=createAt&order=1')).toEqual([
      'Alpha Farm',
      'bravo roof',
      'Charlie 100%',
      'Delta Solar',
      'Echo Park',
    ]);
  });

  it('pages', async () => {
    expect(await list(owner, '?page=2&size=2')).toMatchObject({
      total: 5,
      list: [{ name: 'Charlie 100%' }, { name: 'bravo roof' }],
    });
    expect((await list(owner, '?page=4&size=2')).list).toEqual([]);
    expect((await s.call(owner.token, 'GET', '/api/v1/plants?size=101')).body.code).toBe(ErrorCode.validation);
    expect((await s.call(owner.token, 'GET', '/api/v1/plants?page=0')).body.code).toBe(ErrorCode.validation);
  });

  it('filters by status, type (-1 = all) and name (case-insensitive, alias too, % literal)', async () => {
    expect(await names(owner, '?status=normal')).toEqual(['Echo Park', 'Alpha Farm']);
    expect(await names(owner, '?type=0&order=1')).toEqual(['Alpha Farm', 'Delta Solar', 'Echo Park']);
    expect((await list(owner, '?type=-1')).total).toBe(5);
    expect(await names(owner, '?name=BRAVO')).toEqual(['bravo roof']);
    expect(await names(owner, '?name=wareh')).toEqual(['bravo roof']);
    expect(await names(owner, '?name=100%25')).toEqual(['Charlie 100%']);
    expect(await names(owner, '?name=_')).toEqual([]);
    expect(await list(owner, '?status=normal&type=0&name=park')).toMatchObject({ total: 1, list: [{ name: 'Echo Park' }] });
    for (const bad of ['?status=broken', '?type=3', '?sort=owner', '?order=3']) {
      expect((await s.call(owner.token, 'GET', `/api/v1/plants${bad}`)).body.code, bad).toBe(ErrorCode.validation);
    }
  });

  it('shows the latest values: power now, today in the plant’s own zone, total, last update, open alarms', async () => {
    const rows = Object.fromEntries((await list(owner)).list.map((r) => [r.id, r]));
    expect(rows[p.alpha!]).toMatchObject({ power: 3000, todayEnergy: 12_000, totalEnergy: 42_000, alarms: 0 });
    expect(rows[p.bravo!]).toMatchObject({ power: 500, todayEnergy: 0, totalEnergy: 100_000, alarms: 2 });
    expect(rows[p.charlie!]).toMatchObject({ power: 0, todayEnergy: 5_000, totalEnergy: 5_000 });
    expect(rows[p.delta!]).toMatchObject({ power: null, todayEnergy: 0, totalEnergy: 0, lastUpdate: null, alarms: 1 });
    expect(Date.parse(rows[p.bravo!]!.lastUpdate as string)).toBeLessThan(Date.parse(rows[p.alpha!]!.lastUpdate as string));
  });

  it('sorts by each column, both ways', async () => {
    expect(await names(owner, '?sort=name&order=1')).toEqual([
      'Alpha Farm',
      'bravo roof',
      'Charlie 100%',
      'Delta Solar',
      'Echo Park',
    ]);
    expect(await names(owner, '?sort=capacity&order=2')).toEqual([
      'bravo roof',
      'Charlie 100%',
      'Echo Park',
      'Alpha Farm',
      'Delta Solar',
    ]);
    expect((await names(owner, '?sort=power&order=2')).slice(0, 3)).toEqual(['Alpha Farm', 'bravo roof', 'Charlie 100%']);
    expect((await names(owner, '?sort=todayEnergy&order=2')).slice(0, 2)).toEqual(['Alpha Farm', 'Charlie 100%']);
    expect((await names(owner, '?sort=totalEnergy&order=2')).slice(0, 3)).toEqual(['bravo roof', 'Alpha Farm', 'Charlie 100%']);
    expect((await names(owner, '?sort=totalEnergy&order=1')).slice(-3)).toEqual(['Charlie 100%', 'Alpha Farm', 'bravo roof']);
    expect((await names(owner, '?sort=lastUpdate&order=2'))[2]).toBe('bravo roof');
  });

  it('an installer sees its agent plants with the owner’s account; a visitor sees no contacts', async () => {
    const rows = (await list(installer)).list;
    expect(rows).toHaveLength(5);
    expect(rows[0]).toMatchObject({
      owner: { id: owner.id, account: owner.account },
      company: { name: 'List Installers' },
      role: 'company',
    });
    expect((await list(visitor)).list).toEqual([
      expect.objectContaining({ name: 'Alpha Farm', role: 'visitor', owner: { id: owner.id, account: null, nickname: null } }),
    ]);
    expect((await list(owner)).list[0]).toMatchObject({ role: 'owner', owner: { account: owner.account } });
    expect(await names(other)).toEqual(['Not yours']);
  });
});

describe('list freshness', () => {
  it('a plant created, shared or deleted shows in every order and filter at once', async () => {
    expect((await list(owner, '?sort=name&order=1')).total).toBe(5);
    expect((await list(owner, '?name=zulu')).total).toBe(0);
    const res = await s.call(owner.token, 'POST', '/api/v1/plant', {
      name: 'Aardvark zulu',
      capacity: 1,
      type: 0,
      timezone: 'UTC',
    });
    const id = (res.body.data as { id: number }).id;
    expect((await names(owner, '?sort=name&order=1'))[0]).toBe('Aardvark zulu');
    expect((await list(owner, '?sort=name&order=1')).total).toBe(6);
    expect(await names(owner, '?name=zulu')).toEqual(['Aardvark zulu']);
    expect((await list(owner, '?sort=createAt&size=2')).total).toBe(6);
    await s.call(owner.token, 'POST', `/api/v1/plant/${id}/share`, { account: other.account, role: 'visitor' });
    expect(await names(other, '?sort=name&order=1')).toEqual(['Aardvark zulu', 'Not yours']);
    await s.call(owner.token, 'POST', `/api/v1/plant/${id}/delete`);
    expect((await list(owner, '?sort=name&order=1')).total).toBe(5);
    expect(await names(other, '?sort=name&order=1')).toEqual(['Not yours']);
    expect((await list(owner, '?sort=createAt&size=2')).total).toBe(5);
  });
});

describe('counts, map and filter options', () => {
  it('overview/plantCount counts the visible plants by status', async () => {
    const res = await s.call(owner.token, 'GET', '/api/v1/overview/plantCount');
    expect(res.body.data).toEqual({ total: 5, normal: 2, offline: 1, warning: 1, fault: 1, upgrading: 0 });
    expect((await s.call(visitor.token, 'GET', '/api/v1/overview/plantCount')).body.data).toMatchObject({ total: 1, normal: 1 });
  });

  it('overview/eventCount counts the open events of the visible plants by level', async () => {
    const res = await s.call(owner.token, 'GET', '/api/v1/overview/eventCount');
    expect(res.body.data).toEqual({ total: 4, fault: 1, warning: 2, info: 1 });
    expect((await s.call(other.token, 'GET', '/api/v1/overview/eventCount')).body.data).toEqual({
      total: 1,
      fault: 1,
      warning: 0,
      info: 0,
    });
  });

  it('user/{id}/plantCount and eventCount count one’s own and shared plants, for one’s own id only', async () => {
    expect((await s.call(owner.token, 'GET', `/api/v1/user/${owner.id}/plantCount`)).body.data).toMatchObject({ total: 5 });
    expect((await s.call(visitor.token, 'GET', `/api/v1/user/${visitor.id}/plantCount`)).body.data).toMatchObject({ total: 1 });
    // The installer sees the agent plants but owns none.
    expect((await s.call(installer.token, 'GET', `/api/v1/user/${installer.id}/plantCount`)).body.data).toMatchObject({
      total: 0,
    });
    expect((await s.call(installer.token, 'GET', `/api/v1/user/${installer.id}/eventCount`)).body.data).toMatchObject({
      total: 0,
    });
    expect((await s.call(owner.token, 'GET', `/api/v1/user/${owner.id}/eventCount`)).body.data).toMatchObject({ total: 4 });
    expect((await s.call(owner.token, 'GET', `/api/v1/user/${other.id}/plantCount`)).body).toMatchObject({
      code: ErrorCode.noPermission,
      data: null,
    });
    expect((await s.call(owner.token, 'GET', `/api/v1/user/${other.id}/eventCount`)).body).toMatchObject({
      code: ErrorCode.noPermission,
      data: null,
    });
  });

  it('plants/map lists visible plants with coordinates, with the list filters', async () => {
    const res = await s.call(owner.token, 'GET', '/api/v1/plants/map');
    expect(res.body.data).toEqual([
      { id: p.alpha, name: 'Alpha Farm', status: 'normal', type: 0, capacity: 5, latitude: 1, longitude: 2 },
      { id: p.charlie, name: 'Charlie 100%', status: 'offline', type: 2, capacity: 20, latitude: 3, longitude: 4 },
    ]);
    expect((await s.call(owner.token, 'GET', '/api/v1/plants/map?status=offline')).body.data).toHaveLength(1);
    expect((await s.call(other.token, 'GET', '/api/v1/plants/map')).body.data).toEqual([]);
  });

  it('plant/filter gives the options with counts and the default sort', async () => {
    const res = await s.call(owner.token, 'GET', '/api/v1/plant/filter');
    expect(res.body.data).toEqual({
      statuses: [
        { value: 'normal', count: 2 },
        { value: 'offline', count: 1 },
        { value: 'warning', count: 1 },
        { value: 'fault', count: 1 },
        { value: 'upgrading', count: 0 },
      ],
      types: [
        { value: 0, count: 3 },
        { value: 1, count: 1 },
        { value: 2, count: 1 },
      ],
      sorts: ['createAt', 'name', 'capacity', 'power', 'todayEnergy', 'totalEnergy', 'lastUpdate'],
      defaults: { type: -1, sort: 'createAt', order: 2 },
    });
  });
});
