/** Inverter count and list, attached devices, events and their counts for one plant. */

import { ErrorCode } from '@sunfleet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness.ts';
import { type Account, account, createPlant, device, event, gateway } from '../../../test/kits/plants.ts';
import { now } from '../../db/index.ts';
import { localDay } from '../../time/index.ts';

let s: TestServer;
let owner: Account;
let plant: number;
const inv: number[] = [];
let gwSn: string;

const get = (url: string, who = owner) => s.call(who.token, 'GET', url);

beforeAll(async () => {
  s = await startServer();
  owner = await account(s);
  plant = await createPlant(s, owner, { timezone: 'Asia/Tokyo' });
  const gw = await gateway(s, plant);
  gwSn = gw.sn;
  inv.push(await device(s, gw.id, plant, { latest: { activePower: 1200 } }));
  inv.push(await device(s, gw.id, plant, { status: 'fault' }));
  inv.push(await device(s, gw.id, plant, { status: 'offline', latest: { activePower: 50 } }));
  await device(s, gw.id, plant, { kind: 'battery' });
  await device(s, gw.id, plant, { kind: 'meter' });
  await device(s, gw.id, plant, { kind: 'meter' });
  await s.db
    .insertInto('device_day')
    .values([
      { device_id: inv[0]!, day: localDay('Asia/Tokyo'), pv_wh: 4200, first_ts: now(), last_ts: now(), updated_at: now() },
      { device_id: inv[1]!, day: '2020-01-01', pv_wh: 999, first_ts: now(), last_ts: now(), updated_at: now() },
    ])
    .execute();
  const day = 86_400_000;
  await event(s, plant, { level: 'fault', startedAt: now() - 1000 });
  await event(s, plant, { level: 'warning', startedAt: now() - 2000, code: 'W1' });
  await event(s, plant, { level: 'info', startedAt: now() - 3000, open: false, code: 'I1' });
  await event(s, plant, { level: 'fault', startedAt: now() - 100 * day, open: false, code: 'OLD' });
});
afterAll(() => s.close());

describe('plant devices', () => {
  it('inverterCount counts the inverters by status', async () => {
    expect((await get(`/api/v1/plant/${plant}/inverterCount`)).body.data).toEqual({
      total: 3,
      normal: 1,
      offline: 1,
      warning: 0,
      fault: 1,
      upgrading: 0,
      off: 0,
    });
  });

  it('lists the inverters with latest power and today’s energy in the plant’s zone', async () => {
    const res = await get(`/api/v1/plant/${plant}/inverters?size=2`);
    expect(res.body.data).toMatchObject({ total: 3 });
    const all = (await get(`/api/v1/plant/${plant}/inverters`)).body.data as { list: Array<{ id: number }> };
    const byId = Object.fromEntries(all.list.map((r) => [r.id, r]));
    expect(byId[inv[0]!]).toMatchObject({ status: 'normal', power: 1200, todayEnergy: 4200, gatewaySn: gwSn });
    expect(byId[inv[1]!]).toMatchObject({ status: 'fault', power: null, todayEnergy: 0, lastUpdate: null });
    expect(byId[inv[2]!]).toMatchObject({ status: 'offline', power: 0 });
  });

  it('check/device tells what is attached', async () => {
    expect((await get(`/api/v1/plant/${plant}/check/device`)).body.data).toEqual({
      hasDevices: true,
      gateways: 1,
      inverters: 3,
      batteries: 1,
      meters: 2,
      weather: 0,
    });
    const empty = await createPlant(s, owner);
    expect((await get(`/api/v1/plant/${empty}/check/device`)).body.data).toMatchObject({ hasDevices: false, gateways: 0 });
  });

  it('eventCount counts the open events by level', async () => {
    expect((await get(`/api/v1/plant/${plant}/eventCount`)).body.data).toEqual({ total: 2, fault: 1, warning: 1, info: 0 });
  });

  it('lists events newest first in the asked language, with filters and pages', async () => {
    const res = await get(`/api/v1/plant/${plant}/events?lan=es`);
    const data = res.body.data as { total: number; list: Array<{ code: string; text: string; endedAt: string | null }> };
    expect(data.total).toBe(4);
    expect(data.list.map((e) => e.code)).toEqual(['E01', 'W1', 'I1', 'OLD']);
    expect(data.list[0]).toMatchObject({ text: 'Sobretensión de red', endedAt: null, level: 'fault' });
    expect(((await get(`/api/v1/plant/${plant}/events?state=open`)).body.data as { total: number }).total).toBe(2);
    expect(((await get(`/api/v1/plant/${plant}/events?state=closed&level=fault`)).body.data as { total: number }).total).toBe(1);
    expect((await get(`/api/v1/plant/${plant}/events?page=2&size=3`)).body.data).toMatchObject({
      total: 4,
      list: [{ code: 'OLD' }],
    });
    const today = new Date().toISOString().slice(0, 10);
    const recent = await get(
      `/api/v1/plant/${plant}/events?startDate=${localDay('UTC', Date.now() - 5 * 86_400_000)}&endDate=${today}`,
    );
    expect((recent.body.data as { total: number }).total).toBe(3);
  });

  it('refuses a date range over 90 days, a reversed range, and bad values (4)', async () => {
    expect((await get(`/api/v1/plant/${plant}/events?startDate=2025-01-01&endDate=2025-04-01`)).body.code).toBe(
      ErrorCode.validation,
    );
    expect((await get(`/api/v1/plant/${plant}/events?startDate=2025-01-01&endDate=2025-03-31`)).body.code).toBe(ErrorCode.ok);
    expect((await get(`/api/v1/plant/${plant}/events?startDate=2025-02-01&endDate=2025-01-01`)).body.code).toBe(
      ErrorCode.validation,
    );
    expect((await get(`/api/v1/plant/${plant}/events?level=panic`)).body.code).toBe(ErrorCode.validation);
    expect((await get(`/api/v1/plant/${plant}/events?startDate=yesterday`)).body.code).toBe(ErrorCode.validation);
  });
});
