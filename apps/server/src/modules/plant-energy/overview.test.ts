/**
 * The plant overview through the API, fed by real gateway frames through ingest: realtime card,
 * flows, the day curve (plant-local days across a time-zone boundary, late data), generation
 * bars, energy breakdown, generation use and the events of the last hour.
 */

import { ErrorCode } from '@sunfleet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { badInput } from '../../../test/envelopes.ts';
import {
  DAY,
  dataFor,
  dayIn,
  HOUR,
  MIN,
  middayZone,
  type OverviewServer,
  overviewServer,
} from '../../../test/kits/plant-energy.ts';
import { type Account, account, createPlant, event, gateway } from '../../../test/kits/plants.ts';
import { BATTERY, HYBRID, METER, STRING, uniqueSn } from '../../../test/telemetry.ts';
import { refreshPlantSummary } from '../../energy/plant-summary.ts';

let o: OverviewServer;
let owner: Account;

beforeAll(async () => {
  o = await overviewServer();
  owner = await account(o.s);
});
afterAll(() => o.close());

const get = async (url: string, who: Account = owner) => (await o.s.call(who.token, 'GET', url)).body;
const data = <T = Record<string, unknown>>(url: string, who: Account = owner) => dataFor<T>(o.s, who.token, url);
const iso = (t: number) => new Date(t).toISOString();

describe('realtime card and energy flow', () => {
  const now = Date.now();
  const zone = middayZone(now);
  const A = uniqueSn('INVA');
  const B = uniqueSn('INVB');
  const C = uniqueSn('INVC');
  const M = uniqueSn('MET');
  let plantId: number;

  beforeAll(async () => {
    plantId = await createPlant(o.s, owner, {
      timezone: zone,
      capacity: 20,
      currency: 'EUR',
      valuationMethod: 'constant',
      price: 0.2,
      income: 100,
    });
    const gw = await gateway(o.s, plantId);
    // Past days: A generates 5, 7 and 11 kWh (two readings 30 minutes apart around local midday).
    let counter = 1000;
    for (const [back, kwh] of [
      [400, 5],
      [40, 7],
      [1, 11],
    ] as const) {
      const t = now - back * DAY;
      await o.send(gw.sn, t - 30 * MIN, [{ sn: A, protocol: HYBRID, values: { pvEnergyTotal: counter } }]);
      counter += kwh;
      await o.send(gw.sn, t, [{ sn: A, protocol: HYBRID, values: { pvEnergyTotal: counter } }]);
    }
    // Today: C once three hours ago (stale now), then A, B and the meter an hour ago and just now.
    await o.send(gw.sn, now - 3 * HOUR, [
      { sn: C, protocol: HYBRID, values: { pv1Power: 999, pv2Power: 0, activePower: 2222, batterySoc: 70, pvEnergyTotal: 50 } },
    ]);
    await o.send(gw.sn, now - 60 * MIN, [
      { sn: A, protocol: HYBRID, values: { pvEnergyTotal: counter } },
      { sn: B, protocol: STRING, values: { energyTotal: 500 } },
      { sn: M, protocol: METER, values: { importEnergy: 10, exportEnergy: 20 } },
    ]);
    await o.send(gw.sn, now - 20_000, [
      {
        sn: A,
        protocol: HYBRID,
        values: {
          pv1Power: 2000,
          pv2Power: 1500,
          activePower: 3400,
          gridActivePower: 500,
          loadPower: 2900,
          batteryPower: -800,
          batterySoc: 60,
          pvEnergyTotal: counter + 3,
        },
      },
      { sn: B, protocol: STRING, values: { pv1Power: 5000, activePower: 4900, energyTotal: 502 } },
      { sn: M, protocol: METER, values: { activePower: -1200, importEnergy: 10.5, exportEnergy: 21 } },
    ]);
    await refreshPlantSummary(o.s.db, [plantId]);
  });

  it('answers power of the fresh inverters, energy of the local day, month, year and all time, CO₂ and income', async () => {
    const today = dayIn(zone, now);
    // Energy per local day, computed here: A 5, 7, 11 and 3 kWh today; B 2 kWh today.
    const byDay = new Map<string, number>([
      [dayIn(zone, now - 400 * DAY), 5000],
      [dayIn(zone, now - 40 * DAY), 7000],
      [dayIn(zone, now - DAY), 11_000],
      [today, 5000],
    ]);
    const sumWhere = (f: (d: string) => boolean) => [...byDay].filter(([d]) => f(d)).reduce((s, [, wh]) => s + wh, 0);
    const r = await data(`/api/v1/plant/${plantId}/realtime`);
    expect(r).toMatchObject({
      id: plantId,
      capacity: 20,
      power: 8300,
      powerRatio: 0.415,
      todayEnergy: 5000,
      monthEnergy: sumWhere((d) => d.slice(0, 7) === today.slice(0, 7)),
      yearEnergy: sumWhere((d) => d.slice(0, 4) === today.slice(0, 4)),
      totalEnergy: 28_000,
      currency: 'EUR',
      todayIncome: 1,
      totalIncome: 105.6,
      co2TodayKg: 2.375,
      co2TotalKg: 13.3,
      today,
      timezone: zone,
      lastUpdate: iso(now - 20_000),
    });
  });

  it('answers the flow between PV, grid, battery and load from the fresh devices', async () => {
    expect(await data(`/api/v1/plant/energy/${plantId}/flow`)).toEqual({
      pv: 8500,
      load: 2900,
      grid: -1200,
      battery: -800,
      soc: 60,
      hasPv: true,
      hasBattery: true,
      hasGrid: true,
      hasLoad: true,
      at: iso(now - 20_000),
    });
  });

  it("answers one inverter's flow, its grid register turned to + import", async () => {
    expect(await data(`/api/v1/inverter/${A}/flow`)).toEqual({
      pv: 3500,
      load: 2900,
      grid: -500,
      battery: -800,
      soc: 60,
      hasPv: true,
      hasBattery: true,
      hasGrid: true,
      hasLoad: true,
      at: iso(now - 20_000),
    });
    expect(await data(`/api/v1/inverter/${B}/flow`)).toMatchObject({
      pv: 5000,
      grid: null,
      load: null,
      battery: null,
      hasGrid: false,
      hasBattery: false,
      hasLoad: false,
    });
    // Stale: no values now, but what it has and when it last spoke.
    expect(await data(`/api/v1/inverter/${C}/flow`)).toMatchObject({
      pv: null,
      soc: null,
      hasBattery: true,
      at: iso(now - 3 * HOUR),
    });
    for (const sn of [M, 'NOSUCHINV'])
      expect(await get(`/api/v1/inverter/${sn}/flow`)).toMatchObject({ code: ErrorCode.inverterMissing, data: null });
  });

  it("answers today's curve when no date is given", async () => {
    const day = await data<{ date: string; points: { time: string; pv: number; grid: number }[] }>(
      `/api/v1/plant/${plantId}/power/day`,
    );
    expect(day.date).toBe(dayIn(zone, now));
    expect(day.points).toHaveLength(3);
    expect(day.points.at(-1)).toMatchObject({ pv: 8500, grid: -1200, load: 2900 });
    expect(day.points[0]).toMatchObject({ pv: 999, grid: null });
  });
});

describe('the day curve', () => {
  // Tokyo is UTC+9: 14:50Z is 23:50 on the 10th, 15:00Z is 00:00 on the 11th.
  const at = (h: number, m: number, s = 0) => Date.UTC(2025, 2, 10, h, m, s);
  const A = uniqueSn('INVA');
  const B = uniqueSn('INVB');
  const M = uniqueSn('MET');
  let plantId: number;
  let gwSn: string;
  const hybrid = (pv1: number, load: number, battery: number, soc: number, kwh: number) => ({
    sn: A,
    protocol: HYBRID,
    values: {
      pv1Power: pv1,
      pv2Power: 0,
      activePower: pv1,
      loadPower: load,
      batteryPower: battery,
      batterySoc: soc,
      pvEnergyTotal: kwh,
    },
  });

  beforeAll(async () => {
    plantId = await createPlant(o.s, owner, { timezone: 'Asia/Tokyo' });
    gwSn = (await gateway(o.s, plantId)).sn;
    await o.send(gwSn, at(14, 50), [hybrid(1000, 500, -200, 50, 100), { sn: M, protocol: METER, values: { activePower: -100 } }]);
    await o.send(gwSn, at(14, 51), [{ sn: B, protocol: STRING, values: { pv1Power: 3000, activePower: 2900, energyTotal: 7 } }]);
    await o.send(gwSn, at(14, 52, 30), [hybrid(2000, 700, -400, 54, 100.2)]);
    await o.send(gwSn, at(14, 53), [{ sn: M, protocol: METER, values: { activePower: -300 } }]);
    await o.send(gwSn, at(14, 55), [hybrid(1500, 600, 0, 56, 100.5)]);
    await o.send(gwSn, at(15, 0), [hybrid(800, 900, 300, 55, 101), { sn: M, protocol: METER, values: { activePower: 200 } }]);
    await o.send(gwSn, at(15, 10), [hybrid(600, 900, 300, 53, 102)]);
    const t = Date.now();
    await o.s.db
      .insertInto('plant_forecast')
      .values([
        { plant_id: plantId, ts: at(14, 55), power_w: 4000, imported_at: t },
        { plant_id: plantId, ts: at(15, 5), power_w: 3500, imported_at: t },
      ])
      .execute();
  });

  it('splits at local midnight, averages each device per 5 minutes and sums the devices', async () => {
    const tenth = await data(`/api/v1/plant/${plantId}/power/day?date=2025-03-10`);
    expect(tenth).toEqual({
      date: '2025-03-10',
      timezone: 'Asia/Tokyo',
      points: [
        // A averages 1000 and 2000, B adds 3000; the meter averages −100 and −300.
        { time: iso(at(14, 50)), pv: 4500, load: 600, grid: -200, battery: -300, soc: 52 },
        { time: iso(at(14, 55)), pv: 1500, load: 600, grid: null, battery: 0, soc: 56 },
      ],
      forecast: [{ time: iso(at(14, 55)), power: 4000 }],
      peakPower: 4500,
      energy: 500,
    });
    const eleventh = await data<{ points: unknown[]; energy: number; forecast: unknown[] }>(
      `/api/v1/plant/${plantId}/power/day?date=2025-03-11`,
    );
    expect(eleventh.points).toEqual([
      { time: iso(at(15, 0)), pv: 800, load: 900, grid: 200, battery: 300, soc: 55 },
      { time: iso(at(15, 10)), pv: 600, load: 900, grid: null, battery: 300, soc: 53 },
    ]);
    expect(eleventh.energy).toBe(1000);
    expect(eleventh.forecast).toEqual([{ time: iso(at(15, 5)), power: 3500 }]);
    // The day rows split the same way.
    expect((await data<{ totals: { pv: number } }>(`/api/v1/plant/energy/${plantId}/day?date=2025-03-10`)).totals.pv).toBe(500);
    expect((await data<{ totals: { pv: number } }>(`/api/v1/plant/energy/${plantId}/day?date=2025-03-11`)).totals.pv).toBe(1000);
  });

  it('shows late data and a new forecast in a day already served', async () => {
    const url = `/api/v1/plant/${plantId}/power/day?date=2025-03-10`;
    await data(url);
    await o.send(gwSn, at(14, 57, 30), [hybrid(2500, 600, 0, 56, 100.6)], Date.now());
    const late = await data<{ points: { pv: number }[] }>(url);
    expect(late.points[1]).toMatchObject({ pv: 2000 }); // (1500 + 2500) / 2
    await o.s.db
      .insertInto('plant_forecast')
      .values({ plant_id: plantId, ts: at(14, 50), power_w: 4200, imported_at: Date.now() + 1 })
      .execute();
    expect((await data<{ forecast: unknown[] }>(url)).forecast).toEqual([
      { time: iso(at(14, 50)), power: 4200 },
      { time: iso(at(14, 55)), power: 4000 },
    ]);
  });

  it('takes battery power and SOC from the battery system when the plant has one', async () => {
    const bat = uniqueSn('BAT');
    await o.send(gwSn, at(15, 11), [{ sn: bat, protocol: BATTERY, values: { power: 150, soc: 40 } }]);
    await o.send(gwSn, at(15, 13), [{ sn: bat, protocol: BATTERY, values: { power: 250, soc: 42 } }]);
    const eleventh = await data<{ points: unknown[] }>(`/api/v1/plant/${plantId}/power/day?date=2025-03-11`);
    expect(eleventh.points).toEqual([
      { time: iso(at(15, 0)), pv: 800, load: 900, grid: 200, battery: null, soc: null },
      { time: iso(at(15, 10)), pv: 600, load: 900, grid: null, battery: 200, soc: 41 },
    ]);
  });

  it('refuses a date that does not exist', async () => {
    expect(await get(`/api/v1/plant/${plantId}/power/day?date=2025-02-30`)).toMatchObject(badInput('date'));
    expect(await get(`/api/v1/plant/${plantId}/power/day?date=2025-2-3`)).toMatchObject(badInput('date'));
  });
});

describe('generation bars, energy breakdown and generation use', () => {
  const A = uniqueSn('INVA');
  let plantId: number;

  // Los Angeles (UTC−8 in winter): two readings at local 10:00 and 14:00 of each day.
  const days: [day: string, pv: number, load: number, imp: number, exp: number, chg: number, dis: number, peak: number][] = [
    ['2024-12-31', 4, 3, 1, 2, 0.5, 0.4, 3000],
    ['2025-01-15', 10, 6, 2, 5, 1, 0.8, 5200],
    ['2025-01-16', 8, 5, 1, 3, 0.7, 1.5, 4100],
    ['2025-02-01', 6, 4, 3, 1, 0.2, 0.1, 3900],
  ];

  beforeAll(async () => {
    plantId = await createPlant(o.s, owner, {
      timezone: 'America/Los_Angeles',
      currency: 'USD',
      valuationMethod: 'generation',
      price: 0.1,
    });
    const gw = await gateway(o.s, plantId);
    const c = { pv: 100, load: 100, imp: 100, exp: 100, chg: 100, dis: 100 };
    for (const [day, pv, load, imp, exp, chg, dis, peak] of days) {
      const ten = Date.parse(`${day}T18:00:00Z`);
      const counters = () => ({
        pvEnergyTotal: c.pv,
        loadEnergyTotal: c.load,
        gridImportEnergyTotal: c.imp,
        gridExportEnergyTotal: c.exp,
        batteryChargeEnergyTotal: c.chg,
        batteryDischargeEnergyTotal: c.dis,
      });
      await o.send(gw.sn, ten, [{ sn: A, protocol: HYBRID, values: { ...counters(), activePower: 1000 } }]);
      c.pv += pv;
      c.load += load;
      c.imp += imp;
      c.exp += exp;
      c.chg += chg;
      c.dis += dis;
      await o.send(gw.sn, ten + 4 * HOUR, [{ sn: A, protocol: HYBRID, values: { ...counters(), activePower: peak } }]);
    }
  });

  it('answers the days of a month, the months of a year and the years, with income by generation', async () => {
    expect(await data(`/api/v1/plant/${plantId}/power/month?date=2025-01-20`)).toEqual({
      period: 'month',
      date: '2025-01-20',
      bars: [
        { label: '2025-01-15', energy: 10_000, income: 0.5, peakPower: 5200 },
        { label: '2025-01-16', energy: 8000, income: 0.3, peakPower: 4100 },
      ],
      energy: 18_000,
      income: 0.8,
    });
    expect(await data(`/api/v1/plant/${plantId}/power/year?date=2025-06-01`)).toEqual({
      period: 'year',
      date: '2025-06-01',
      bars: [
        { label: '2025-01', energy: 18_000, income: 0.8, peakPower: 5200 },
        { label: '2025-02', energy: 6000, income: 0.1, peakPower: 3900 },
      ],
      energy: 24_000,
      income: 0.9,
    });
    expect(await data(`/api/v1/plant/${plantId}/power/total?date=2025-06-01`)).toMatchObject({
      bars: [
        { label: '2024', energy: 4000, income: 0.2, peakPower: 3000 },
        { label: '2025', energy: 24_000, income: 0.9, peakPower: 5200 },
      ],
      energy: 28_000,
      income: 1.1,
    });
  });

  it('answers energy by flow for a day, a month, a year and all time', async () => {
    const kwh = (i: number, col: number) => (days[i]![col] as number) * 1000;
    const flows = (idx: number[]) => ({
      pv: idx.reduce((s, i) => s + kwh(i, 1), 0),
      load: idx.reduce((s, i) => s + kwh(i, 2), 0),
      gridImport: idx.reduce((s, i) => s + kwh(i, 3), 0),
      gridExport: idx.reduce((s, i) => s + kwh(i, 4), 0),
      charge: idx.reduce((s, i) => s + kwh(i, 5), 0),
      discharge: idx.reduce((s, i) => s + kwh(i, 6), 0),
    });
    const close = (actual: Record<string, number>, expected: Record<string, number>) => {
      for (const k of Object.keys(expected)) expect(actual[k], k).toBeCloseTo(expected[k]!, 3);
    };
    const day = await data<{ totals: Record<string, number>; points: unknown[] }>(
      `/api/v1/plant/energy/${plantId}/day?date=2025-01-16`,
    );
    close(day.totals, flows([2]));
    expect(day.points).toEqual([]);
    const month = await data<{ totals: Record<string, number>; points: Record<string, number>[] }>(
      `/api/v1/plant/energy/${plantId}/month?date=2025-01-01`,
    );
    close(month.totals, flows([1, 2]));
    expect(month.points.map((p) => p.label)).toEqual(['2025-01-15', '2025-01-16']);
    close(month.points[1]!, flows([2]));
    const year = await data<{ totals: Record<string, number>; points: Record<string, number>[] }>(
      `/api/v1/plant/energy/${plantId}/year?date=2025-03-03`,
    );
    close(year.totals, flows([1, 2, 3]));
    expect(year.points.map((p) => p.label)).toEqual(['2025-01', '2025-02']);
    const total = await data<{ totals: Record<string, number>; points: Record<string, number>[] }>(
      `/api/v1/plant/energy/${plantId}/total?date=2025-03-03`,
    );
    close(total.totals, flows([0, 1, 2, 3]));
    expect(total.points.map((p) => p.label)).toEqual(['2024', '2025']);
  });

  it('answers where generation went and where consumption came from', async () => {
    // 2025-01-16: pv 8, export 3, load 5, import 1, discharge 1.5 (kWh).
    const day = await data<Record<string, number>>(`/api/v1/plant/energy/${plantId}/generation/use?period=day&date=2025-01-16`);
    expect(day.generation).toBeCloseTo(8000, 3);
    expect(day.selfUse).toBeCloseTo(5000, 3);
    expect(day.export).toBeCloseTo(3000, 3);
    expect(day.consumption).toBeCloseTo(5000, 3);
    expect(day.fromGrid).toBeCloseTo(1000, 3);
    expect(day.fromBattery).toBeCloseTo(1500, 3);
    expect(day.fromPv).toBeCloseTo(2500, 3);
    expect(day.selfUseRate).toBeCloseTo(0.625, 4);
    expect(day.selfSufficiency).toBeCloseTo(0.8, 4);
    // 2025-02-01: load 4, import 3, discharge 0.1 → fromPv 0.9; pv 6, export 1 → self use 5.
    const feb = await data<Record<string, number>>(`/api/v1/plant/energy/${plantId}/generation/use?period=month&date=2025-02-10`);
    expect(feb.fromPv).toBeCloseTo(900, 3);
    expect(feb.selfUseRate).toBeCloseTo(5 / 6, 4);
    expect(feb.selfSufficiency).toBeCloseTo(0.25, 4);
    // A day without data: nothing to divide.
    expect(await data(`/api/v1/plant/energy/${plantId}/generation/use?period=day&date=2025-03-01`)).toEqual({
      period: 'day',
      date: '2025-03-01',
      generation: 0,
      selfUse: 0,
      export: 0,
      consumption: 0,
      fromPv: 0,
      fromGrid: 0,
      fromBattery: 0,
      selfUseRate: null,
      selfSufficiency: null,
    });
  });
});

describe('events of the last hour', () => {
  it('lists events started in the last hour on visible plants, newest first, in the request language, at most 50', async () => {
    const now = Date.now();
    const mine = await createPlant(o.s, owner);
    const stranger = await account(o.s);
    const theirs = await createPlant(o.s, stranger);
    const recent = await event(o.s, mine, { level: 'warning', startedAt: now - 10 * MIN });
    const older = await event(o.s, mine, { level: 'fault', startedAt: now - 30 * MIN, open: false });
    await event(o.s, mine, { startedAt: now - 2 * HOUR });
    await event(o.s, theirs, { startedAt: now - 5 * MIN });
    const list = await data<Record<string, unknown>[]>('/api/v1/event/oneHour');
    expect(list.map((e) => e.id)).toEqual([recent, older]);
    expect(list[1]).toMatchObject({ plantId: mine, level: 'fault', text: 'Grid overvoltage', startedAt: iso(now - 30 * MIN) });
    expect(list[1]!.endedAt).toBe(iso(now - 30 * MIN + 60_000));
    const es = await data<Record<string, unknown>[]>('/api/v1/event/oneHour?lan=es');
    expect(es[0]!.text).toBe('Sobretensión de red');
    expect((await data<unknown[]>('/api/v1/event/oneHour', stranger)).length).toBe(1);
    for (let i = 0; i < 55; i++) await event(o.s, mine, { startedAt: now - 40 * MIN + i * 1000 });
    const capped = await data<{ startedAt: string }[]>('/api/v1/event/oneHour');
    expect(capped).toHaveLength(50);
    expect(capped[0]!.startedAt).toBe(iso(now - 10 * MIN));
    expect(capped[1]!.startedAt).toBe(iso(now - 30 * MIN));
    expect(capped[2]!.startedAt).toBe(iso(now - 40 * MIN + 54_000));
  });
});
