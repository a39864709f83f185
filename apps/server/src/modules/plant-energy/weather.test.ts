/**
 * The weather at a plant from its own station (no outside service): latest values, the day in
 * 5-minute buckets, the plant's stations, the products, and attaching a station by SN.
 */

import { ErrorCode } from '@sunfleet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIN, type OverviewServer, overviewServer } from '../../../test/kits/plant-energy.ts';
import { type Account, account, createPlant, gateway } from '../../../test/kits/plants.ts';
import { HYBRID, uniqueSn, WEATHER } from '../../../test/telemetry.ts';

let o: OverviewServer;
let owner: Account;
let plantId: number;
let bare: number;
let gw: { sn: string; id: number };
const W = uniqueSn('WS');
const now = Date.now();
const iso = (t: number) => new Date(t).toISOString();

beforeAll(async () => {
  o = await overviewServer();
  owner = await account(o.s);
  plantId = await createPlant(o.s, owner, { timezone: 'Europe/Madrid' });
  bare = await createPlant(o.s, owner, { timezone: 'Europe/Madrid' });
  gw = await gateway(o.s, plantId);
  const weather = (irradiance: number, ambient: number) => ({
    sn: W,
    protocol: WEATHER,
    values: { irradiance, ambientTemperature: ambient, moduleTemperature: 35, windSpeed: 2, humidity: 55, dailyIrradiation: 1.5 },
  });
  await o.send(gw.sn, now - 30_000, [weather(600, 20)]);
  // 1 July in Madrid (UTC+2): 10:00 and 10:02 local in one bucket, 10:05 in the next.
  await o.send(gw.sn, Date.UTC(2025, 6, 1, 8, 0), [weather(400, 18)], now);
  await o.send(gw.sn, Date.UTC(2025, 6, 1, 8, 2), [weather(500, 19)], now);
  await o.send(gw.sn, Date.UTC(2025, 6, 1, 8, 5), [weather(600, 21)], now);
});
afterAll(() => o.close());

const call = (url: string, method: 'GET' | 'POST' = 'GET', payload?: unknown) =>
  o.s.call(owner.token, method, url, payload).then((r) => r.body);

describe('weather', () => {
  const station = () => ({
    source: 'station',
    stationSn: W,
    irradiance: 600,
    ambientTemperature: 20,
    moduleTemperature: 35,
    windSpeed: 2,
    humidity: 55,
    dailyIrradiation: 1500,
    at: iso(now - 30_000),
  });

  it("answers the plant's station's latest values, by plant and by station", async () => {
    expect(await call(`/api/v1/weather?plantId=${plantId}`)).toMatchObject({ code: ErrorCode.ok, data: station() });
    expect(await call(`/api/v1/plant/meteorological/${plantId}/realtime`)).toMatchObject({ code: ErrorCode.ok, data: station() });
    expect(await call(`/api/v1/meteorological/${W}/realtime`)).toMatchObject({ code: ErrorCode.ok, data: station() });
  });

  it('answers source none for a plant without a station', async () => {
    expect((await call(`/api/v1/weather?plantId=${bare}`)).data).toEqual({
      source: 'none',
      stationSn: null,
      irradiance: null,
      ambientTemperature: null,
      moduleTemperature: null,
      windSpeed: null,
      humidity: null,
      dailyIrradiation: null,
      at: null,
    });
    expect((await call(`/api/v1/getWeatherStationInfo?plantId=${bare}`)).data).toEqual([]);
  });

  it("answers a station's day in 5-minute buckets", async () => {
    expect((await call(`/api/v1/meteorological/${W}/day?date=2025-07-01`)).data).toEqual({
      date: '2025-07-01',
      points: [
        { time: iso(Date.UTC(2025, 6, 1, 8, 0)), irradiance: 450, ambientTemperature: 18.5, moduleTemperature: 35, windSpeed: 2 },
        { time: iso(Date.UTC(2025, 6, 1, 8, 5)), irradiance: 600, ambientTemperature: 21, moduleTemperature: 35, windSpeed: 2 },
      ],
    });
    expect((await call(`/api/v1/meteorological/${W}/day?date=2025-07-02`)).data).toEqual({ date: '2025-07-02', points: [] });
  });

  it("lists the plant's stations and the weather products", async () => {
    expect((await call(`/api/v1/getWeatherStationInfo?plantId=${plantId}`)).data).toEqual([
      { sn: W, alias: null, protocol: WEATHER, status: 'normal', gatewaySn: gw.sn, lastUpdate: iso(now - 30_000) },
    ]);
    const products = (await call('/api/v1/getWeatherStationProduct')).data as {
      protocol: string;
      name: string;
      fields: string[];
    }[];
    expect(products.map((p) => p.protocol)).toEqual([WEATHER]);
    expect(products[0]!.name).toBe('Sunfleet weather station');
    expect(products[0]!.fields).toEqual(expect.arrayContaining(['irradiance', 'ambientTemperature', 'humidity', 'windSpeed']));
    expect(products[0]!.fields).not.toContain('serialNumber');
    const es = (await call('/api/v1/getWeatherStationProduct?lan=es')).data as { name: string }[];
    expect(es[0]!.name).toBe('Estación meteorológica Sunfleet');
  });

  it("attaches a station behind one of the plant's gateways, and only such a station", async () => {
    expect(await call('/api/v1/saveAuthInfo', 'POST', { plantId, sn: W })).toMatchObject({
      code: ErrorCode.ok,
      data: { sn: W, protocol: WEATHER, gatewaySn: gw.sn },
    });
    // A station behind the gateway but out of the plant is moved in.
    const moved = uniqueSn('WS');
    await o.send(gw.sn, now - 10 * MIN, [{ sn: moved, protocol: WEATHER }]);
    await o.s.db.updateTable('devices').set({ plant_id: null }).where('sn', '=', moved).execute();
    expect((await call('/api/v1/saveAuthInfo', 'POST', { plantId, sn: moved })).code).toBe(ErrorCode.ok);
    const row = await o.s.db.selectFrom('devices').select('plant_id').where('sn', '=', moved).executeTakeFirstOrThrow();
    expect(row.plant_id).toBe(plantId);
    // Not a weather station, or behind another plant's gateway: 404, nothing moved.
    const inverter = uniqueSn('INV');
    await o.send(gw.sn, now - 10 * MIN, [{ sn: inverter, protocol: HYBRID }]);
    expect(await call('/api/v1/saveAuthInfo', 'POST', { plantId, sn: inverter })).toMatchObject({
      code: ErrorCode.notFound,
      data: null,
    });
    const elsewhere = uniqueSn('WS');
    await o.send((await gateway(o.s, bare)).sn, now - 10 * MIN, [{ sn: elsewhere, protocol: WEATHER }]);
    expect(await call('/api/v1/saveAuthInfo', 'POST', { plantId, sn: elsewhere })).toMatchObject({
      code: ErrorCode.notFound,
      data: null,
    });
    expect(await call('/api/v1/saveAuthInfo', 'POST', { plantId, sn: 'NOSUCHSTATION' })).toMatchObject({
      code: ErrorCode.notFound,
      data: null,
    });
    const still = await o.s.db.selectFrom('devices').select('plant_id').where('sn', '=', elsewhere).executeTakeFirstOrThrow();
    expect(still.plant_id).toBe(bare);
  });

  it('answers 404 for a station SN that is not a weather station', async () => {
    const inverter = uniqueSn('INV');
    await o.send(gw.sn, now - 10 * MIN, [{ sn: inverter, protocol: HYBRID }]);
    expect(await call(`/api/v1/meteorological/${inverter}/realtime`)).toMatchObject({ code: ErrorCode.notFound, data: null });
    expect(await call(`/api/v1/meteorological/${inverter}/day`)).toMatchObject({ code: ErrorCode.notFound, data: null });
  });
});
