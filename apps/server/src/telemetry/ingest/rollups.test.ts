import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Ingest, type IngestStore, openIngestStore } from '../../../test/ingest.ts';
import { dataMessage, HYBRID, METER, makeGateway, makePlant, uniqueSn, WEATHER } from '../../../test/telemetry.ts';
import { silentLogger } from '../../log.ts';
import { createIngest } from './index.ts';
import { counterCeilingW, counterLimits } from './kinds.ts';
import { counterEnergy, counterProblem, dayEnergy, emptyDay, foldCounter, foldSample, plantDay } from './rollups.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;

describe('counter ends', () => {
  it('takes the earliest and latest reading whatever the arrival order, and adds what was reached before a reset', () => {
    let ends = foldCounter(undefined, 20, 120);
    ends = foldCounter(ends, 10, 110); // earlier, arriving late
    ends = foldCounter(ends, 15, 999); // between the ends: changes nothing
    ends = foldCounter(ends, 30, 130);
    expect(counterEnergy(ends)).toBe(20);
    ends = foldCounter(ends, 40, 5); // the counter restarted at 0 and reached 5
    expect(counterEnergy(ends)).toBe(20 + 5);
    ends = foldCounter(ends, 5, 300); // an older reading above the first: a reset before the first
    expect(counterEnergy(ends)).toBe(110 + 20 + 5);
  });

  it('a small drop re-bases the counter: counting goes on from the new value, nothing counted twice', () => {
    let ends = foldCounter(undefined, 10, 59_323.3);
    ends = foldCounter(ends, 20, 59_330.3); // +7
    ends = foldCounter(ends, 30, 59_320.0); // restored from a slightly older saved value
    ends = foldCounter(ends, 40, 59_324.0); // +4
    expect(counterEnergy(ends)).toBeCloseTo(11, 6);
    ends = foldCounter(ends, 5, 59_400.0); // an older reading a little above the first: re-based in between
    expect(counterEnergy(ends)).toBeCloseTo(11, 6);
  });
});

describe('counter plausibility', () => {
  const kW10 = 10_000;
  const ends = () => foldCounter(foldCounter(undefined, 0, 1_000_000), 5 * MIN, 1_000_100); // Wh

  it('lets a counter grow at most the ceiling power × margin over the elapsed time plus the slack', () => {
    // 10 kW × 2 × (5 + 15) min = 6.667 kWh in 5 minutes.
    const limit = (kW10 * counterLimits.margin * (5 * MIN + counterLimits.slackMs)) / HOUR;
    expect(counterProblem(ends(), 10 * MIN, 1_000_100 + limit, kW10)).toBeNull();
    expect(counterProblem(ends(), 10 * MIN, 1_000_100 + limit + 1, kW10)).toBe('jump');
    expect(counterProblem(ends(), 10 * MIN, 42_949_672_940, kW10)).toBe('jump'); // u32 maximum − 1, in 0.01 kWh
    // A reading before the first is judged against the first.
    expect(counterProblem(ends(), -5 * MIN, 1_000_000 - limit - 1, kW10)).toBe('jump');
    expect(counterProblem(ends(), -5 * MIN, 999_000, kW10)).toBeNull();
    // The first reading of a day has nothing to be judged against; one between the ends changes nothing.
    expect(counterProblem(undefined, 0, 42_949_672_940, kW10)).toBeNull();
    expect(counterProblem(ends(), 2 * MIN, 42_949_672_940, kW10)).toBeNull();
  });

  it('refuses a step backwards unless it is a restart from zero that counted no more than possible since', () => {
    expect(counterProblem(ends(), 10 * MIN, 1_000_099, kW10)).toBe('backwards'); // 1 Wh back
    expect(counterProblem(ends(), 10 * MIN, 600_000, kW10)).toBe('backwards'); // above half: not a restart
    expect(counterProblem(ends(), 10 * MIN, 500, kW10)).toBeNull(); // restarted, counted 0.5 kWh since
    expect(counterProblem(ends(), 10 * MIN, 400_000, kW10)).toBe('backwards'); // "restarted" and counted 400 kWh in 5 min
    expect(counterProblem(foldCounter(undefined, 0, 500), -5 * MIN, 2_500_000, kW10)).toBeNull(); // a restart before the first reading
    expect(counterProblem(ends(), -5 * MIN, 1_000_001, kW10)).toBe('backwards');
  });

  it('bounds what flows through a device by its rated power, a site and sunlight by their own ceilings', () => {
    expect(counterCeilingW('device', 6000)).toBe(6000);
    expect(counterCeilingW('device', null)).toBe(counterLimits.deviceW);
    expect(counterCeilingW('site', 6000)).toBe(counterLimits.siteW);
    expect(counterCeilingW('irradiance', null)).toBe(counterLimits.irradianceWm2);
  });

  it("leaves an implausible reading out of the day and returns it; the sample's other counters count", () => {
    const day = emptyDay(1, '2025-05-01', 'inverter');
    const point = (pv: number, grid: number) => ({
      counters: [pv, null, grid, null, null, null],
      power: 100,
      soc: null,
      ratedPowerW: 5000,
    });
    expect(foldSample(day, 0, point(1_000_000, 50_000))).toBeNull();
    expect(foldSample(day, 5 * MIN, point(42_949_672_940, 50_100))).toEqual([
      { column: 'pv_wh', problem: 'jump', ts: 5 * MIN, value: 42_949_672_940 },
    ]);
    expect(foldSample(day, 10 * MIN, point(999_000, 50_200))).toEqual([
      { column: 'pv_wh', problem: 'backwards', ts: 10 * MIN, value: 999_000 },
    ]);
    expect(foldSample(day, 15 * MIN, point(1_000_300, 50_300))).toBeNull();
    expect(dayEnergy(day)).toMatchObject({ pv_wh: 300, grid_import_wh: 300 });
    expect(day.samples).toBe(4);
  });
});

describe('plantDay', () => {
  const row = (kind: 'inverter' | 'meter' | 'battery', grid: number) => ({
    kind,
    pv_wh: kind === 'inverter' ? 1000 : 0,
    load_wh: 0,
    grid_import_wh: grid,
    grid_export_wh: 0,
    charge_wh: 0,
    discharge_wh: 0,
    peak_power_w: kind === 'inverter' ? 500 : 900,
  });
  it('takes grid energy from the meters when the plant has one, else from the inverters', () => {
    expect(plantDay([row('inverter', 10), row('inverter', 20)])).toMatchObject({
      pv_wh: 2000,
      grid_import_wh: 30,
      peak_power_w: 1000,
    });
    expect(plantDay([row('inverter', 10), row('meter', 7), row('battery', 0)])).toMatchObject({
      pv_wh: 1000,
      grid_import_wh: 7,
      peak_power_w: 500,
    });
  });
});

describe('day rollups in the store', () => {
  let store: IngestStore;
  beforeAll(async () => {
    store = await openIngestStore();
  });
  afterAll(() => store.close());

  /** One hybrid inverter frame per entry: [utc ts, pv total kWh]. */
  async function feed(gatewaySn: string, sn: string, readings: [number, number][], extra: Record<string, number> = {}) {
    for (const [ts, kwh] of readings) {
      store.ingest.message(
        gatewaySn,
        'data',
        dataMessage(ts, [{ sn, protocol: HYBRID, values: { pvEnergyTotal: kwh, ...extra } }]),
        ts,
      );
    }
    await store.ingest.flush();
  }
  const days = async (sn: string) => {
    const device = await store.db.selectFrom('devices').select('id').where('sn', '=', sn).executeTakeFirstOrThrow();
    return store.db
      .selectFrom('device_day')
      .select(['day', 'pv_wh', 'samples', 'first_ts', 'last_ts', 'peak_power_w', 'min_soc', 'max_soc'])
      .where('device_id', '=', device.id)
      .orderBy('day')
      .execute();
  };
  const plantDays = (plantId: number) =>
    store.db
      .selectFrom('plant_day')
      .select(['day', 'pv_wh', 'grid_import_wh', 'peak_power_w'])
      .where('plant_id', '=', plantId)
      .orderBy('day')
      .execute();

  it("splits a plant's days at its local midnight (America/New_York)", async () => {
    const plantId = await makePlant(store.db, { timezone: 'America/New_York' });
    const gw = await makeGateway(store.db, plantId);
    const sn = uniqueSn('INV');
    // 23:30, 23:50 local on 14 January, then 00:10, 00:40 on the 15th (UTC−5).
    await feed(gw.sn, sn, [
      [Date.UTC(2025, 0, 15, 4, 30), 100],
      [Date.UTC(2025, 0, 15, 4, 50), 101],
      [Date.UTC(2025, 0, 15, 5, 10), 102.5],
      [Date.UTC(2025, 0, 15, 5, 40), 104],
    ]);
    expect(await days(sn)).toMatchObject([
      { day: '2025-01-14', pv_wh: 1000, samples: 2, last_ts: Date.UTC(2025, 0, 15, 4, 50) },
      { day: '2025-01-15', pv_wh: 1500, samples: 2, first_ts: Date.UTC(2025, 0, 15, 5, 10) },
    ]);
    expect(await plantDays(plantId)).toMatchObject([
      { day: '2025-01-14', pv_wh: 1000 },
      { day: '2025-01-15', pv_wh: 1500 },
    ]);
  });

  it('has a 23-hour and a 25-hour day where daylight-saving time starts and ends (Europe/Madrid)', async () => {
    const plantId = await makePlant(store.db, { timezone: 'Europe/Madrid' });
    const gw = await makeGateway(store.db, plantId);
    const sn = uniqueSn('INV');
    // Every quarter hour, 0.5 kWh a quarter (the register's resolution is 0.1 kWh), from local midnight of the day
    // before each change to local midnight of the day after.
    const run = async (fromUtc: number, toUtc: number) => {
      const readings: [number, number][] = [];
      for (let ts = fromUtc, kwh = 1000; ts < toUtc; ts += 15 * MIN, kwh += 0.5) readings.push([ts, kwh]);
      await feed(gw.sn, sn, readings);
    };
    await run(Date.UTC(2025, 2, 28, 23), Date.UTC(2025, 2, 31, 22)); // 29 Mar 00:00 CET .. 31 Mar 00:00 CEST
    await run(Date.UTC(2025, 9, 24, 22), Date.UTC(2025, 9, 27, 23)); // 25 Oct 00:00 CEST .. 27 Oct 00:00 CET
    const rows = await days(sn);
    const byDay = Object.fromEntries(rows.map((r) => [r.day, r]));
    // A normal day: 96 quarter hours, 95 steps between its first and last reading.
    expect(byDay['2025-03-29']).toMatchObject({ samples: 96, pv_wh: 95 * 500 });
    expect(byDay['2025-03-30']).toMatchObject({
      samples: 92,
      pv_wh: 91 * 500,
      first_ts: Date.UTC(2025, 2, 29, 23),
      last_ts: Date.UTC(2025, 2, 30, 21, 45),
    });
    expect(byDay['2025-10-25']).toMatchObject({ samples: 96, pv_wh: 95 * 500 });
    expect(byDay['2025-10-26']).toMatchObject({
      samples: 100,
      pv_wh: 99 * 500,
      first_ts: Date.UTC(2025, 9, 25, 22),
      last_ts: Date.UTC(2025, 9, 26, 22, 45),
    });
    const plant = Object.fromEntries((await plantDays(plantId)).map((r) => [r.day, r.pv_wh]));
    expect(plant['2025-03-30']).toBe(91 * 500);
    expect(plant['2025-10-26']).toBe(99 * 500);
  });

  it('counts a counter reset as a restart from zero', async () => {
    const gw = await makeGateway(store.db, await makePlant(store.db));
    const sn = uniqueSn('INV');
    const t = Date.UTC(2025, 4, 1, 8);
    await feed(gw.sn, sn, [
      [t, 500],
      [t + HOUR, 502],
      [t + 2 * HOUR, 0.5], // firmware reset
      [t + 3 * HOUR, 1.5],
    ]);
    expect(await days(sn)).toMatchObject([{ pv_wh: 2000 + 1500 }]);
  });

  it("two ingest processes taking one device's frames in turn and at once count its day once (shared devices, PostgreSQL)", async (ctx) => {
    if (store.dialect !== 'postgres') ctx.skip(); // several ingest processes share PostgreSQL only
    const plantId = await makePlant(store.db);
    const gw = await makeGateway(store.db, plantId);
    const sn = uniqueSn('INV');
    const process = () =>
      createIngest({ db: store.db, dialect: store.dialect, log: silentLogger, flushMs: 20, sharedDevices: true });
    const a = process();
    const b = process();
    try {
      const t = Date.UTC(2025, 4, 2, 8);
      const send = (ingest: Ingest, i: number) =>
        ingest.message(
          gw.sn,
          'data',
          dataMessage(t + i * 5 * MIN, [{ sn, protocol: HYBRID, values: { pvEnergyTotal: 100 + i } }]),
          t + i * 5 * MIN,
        );
      // In turn: one frame each, every frame on top of what the other stored.
      for (let i = 0; i < 10; i++) {
        const ingest = i % 2 ? b : a;
        send(ingest, i);
        await ingest.flush();
      }
      // At once: both write the same device day in the same moment.
      for (let i = 10; i < 40; i++) send(i % 2 ? b : a, i);
      await Promise.all([a.flush(), b.flush()]);
    } finally {
      await a.close();
      await b.close();
    }
    expect(await days(sn)).toMatchObject([{ pv_wh: 39_000, samples: 40 }]);
    expect(await plantDays(plantId)).toMatchObject([{ pv_wh: 39_000 }]);
  });

  const events = (sn: string) =>
    store.db
      .selectFrom('events')
      .select(['code', 'level', 'source', 'started_at', 'ended_at', 'text_en', 'text_es'])
      .where('sn', '=', sn)
      .orderBy('id')
      .execute();

  it('keeps a step backwards and an impossible jump out of the device and plant day, with one data-quality event', async () => {
    const plantId = await makePlant(store.db);
    const gw = await makeGateway(store.db, plantId);
    const sn = uniqueSn('INV');
    const t = Date.UTC(2025, 4, 4, 8);
    // A 10 kW inverter (the test frames' rated power).
    await feed(gw.sn, sn, [
      [t, 1000],
      [t + 5 * MIN, 1000.5],
      [t + 10 * MIN, 900], // backwards: not a restart
      [t + 15 * MIN, 429_496.7], // the register's u32 maximum − 0.2 kWh: impossible in 5 minutes
      [t + 20 * MIN, 1001],
    ]);
    for (let i = 0; i < 50; i++) await feed(gw.sn, sn, [[t + (21 + i) * MIN, 100 + i]]); // a broken counter keeps failing
    await feed(gw.sn, sn, [[t + 80 * MIN, 1002]]);
    expect(await days(sn)).toMatchObject([{ pv_wh: 2000, samples: 56 }]);
    const id = (await store.db.selectFrom('devices').select('id').where('sn', '=', sn).executeTakeFirstOrThrow()).id;
    const counters = await store.db
      .selectFrom('inverter_samples')
      .select('pv_total_wh')
      .where('device_id', '=', id)
      .where('ts', '<=', t + 20 * MIN)
      .orderBy('ts')
      .execute();
    expect(counters.map((r) => r.pv_total_wh)).toEqual([1_000_000, 1_000_500, null, null, 1_001_000]);
    expect(await plantDays(plantId)).toMatchObject([{ pv_wh: 2000 }]);
    expect(await events(sn)).toEqual([
      {
        code: 'counterImplausible',
        level: 'warning',
        source: 'rule',
        started_at: t + 10 * MIN,
        ended_at: null,
        text_en: expect.stringContaining('left out of the energy totals'),
        text_es: expect.stringContaining('excluidas de los totales'),
      },
    ]);
    const device = await store.db.selectFrom('devices').select('status').where('sn', '=', sn).executeTakeFirstOrThrow();
    expect(device.status).toBe('warning');
    // A day of plausible readings later, the event closes.
    await feed(gw.sn, sn, [
      [t + 23 * HOUR, 1005], // the next day, but less than a day after the last refused reading (t + 70 min)
      [t + 26 * HOUR, 1010],
      [t + 26 * HOUR + 5 * MIN, 1010.1],
    ]);
    expect(await events(sn)).toMatchObject([{ code: 'counterImplausible', ended_at: t + 26 * HOUR }]);
  });

  it('keeps a meter counter at the u32 maximum out of the grid import: absent, or an impossible jump', async () => {
    const plantId = await makePlant(store.db);
    const gw = await makeGateway(store.db, plantId);
    const meter = uniqueSn('MET');
    const t = Date.UTC(2025, 4, 5, 8);
    const send = async (ts: number, importEnergy: number) => {
      store.ingest.message(gw.sn, 'data', dataMessage(ts, [{ sn: meter, protocol: METER, values: { importEnergy } }]), ts);
      await store.ingest.flush();
    };
    await send(t, 1000);
    await send(t + 5 * MIN, 42_949_672.95); // 0xFFFFFFFF: "not available", the counter is absent
    await send(t + 10 * MIN, 1000.5);
    await send(t + 15 * MIN, 42_949_672.94); // 0xFFFFFFFE: a number, but impossible
    await send(t + 20 * MIN, 1001);
    const id = (await store.db.selectFrom('devices').select('id').where('sn', '=', meter).executeTakeFirstOrThrow()).id;
    const day = await store.db.selectFrom('device_day').selectAll().where('device_id', '=', id).executeTakeFirstOrThrow();
    expect(day).toMatchObject({ grid_import_wh: 1000, samples: 5 });
    expect(await plantDays(plantId)).toMatchObject([{ grid_import_wh: 1000 }]);
    const stored = await store.db
      .selectFrom('meter_samples')
      .select(['ts', 'import_total_wh'])
      .where('device_id', '=', id)
      .orderBy('ts')
      .execute();
    // Absent, and refused: neither counter is in the samples (their raw registers are).
    expect(stored.map((r) => r.import_total_wh)).toEqual([1_000_000, null, 1_000_500, null, 1_001_000]);
    expect((await events(meter)).map((e) => [e.code, e.started_at])).toEqual([['counterImplausible', t + 15 * MIN]]);
  });

  it('keeps peak power and the state-of-charge range of the day, and is unchanged by a resent batch', async () => {
    const plantId = await makePlant(store.db);
    const gw = await makeGateway(store.db, plantId);
    const sn = uniqueSn('INV');
    const t = Date.UTC(2025, 4, 2, 8);
    const frames: [number, number, number, number][] = [
      [t, 10, 4000, 40],
      [t + HOUR, 11, 6500, 80],
      [t + 2 * HOUR, 12, 5000, 20],
    ];
    const send = async () => {
      for (const [ts, kwh, power, soc] of frames) {
        store.ingest.message(
          gw.sn,
          'data',
          dataMessage(ts, [{ sn, protocol: HYBRID, values: { pvEnergyTotal: kwh, activePower: power, batterySoc: soc } }]),
          ts,
        );
      }
      await store.ingest.flush();
    };
    await send();
    await send();
    expect(await days(sn)).toMatchObject([{ pv_wh: 2000, peak_power_w: 6500, min_soc: 20, max_soc: 80, samples: 3 }]);
    expect(await plantDays(plantId)).toMatchObject([{ pv_wh: 2000, peak_power_w: 6500 }]);
  });

  it("sums the plant's devices, grid energy from its meter, irradiation from the weather station", async () => {
    const plantId = await makePlant(store.db);
    const gw = await makeGateway(store.db, plantId);
    const [a, b, meter, weather] = [uniqueSn('INV'), uniqueSn('INV'), uniqueSn('MET'), uniqueSn('WEA')];
    const t = Date.UTC(2025, 4, 3, 9);
    const frame = (ts: number, step: number) =>
      dataMessage(ts, [
        { sn: a, protocol: HYBRID, values: { pvEnergyTotal: 100 + step, gridImportEnergyTotal: 50 + step } },
        { sn: b, protocol: HYBRID, values: { pvEnergyTotal: 200 + 2 * step, gridImportEnergyTotal: 60 + step } },
        { sn: meter, protocol: METER, values: { importEnergy: 70 + 0.5 * step } },
        { sn: weather, protocol: WEATHER, values: { dailyIrradiation: 0.2 * step } },
      ]);
    store.ingest.message(gw.sn, 'data', frame(t, 0), t);
    store.ingest.message(gw.sn, 'data', frame(t + HOUR, 3), t + HOUR);
    await store.ingest.flush();
    expect(await plantDays(plantId)).toMatchObject([{ pv_wh: 3000 + 6000, grid_import_wh: 1500 }]);
    const station = await store.db
      .selectFrom('device_day')
      .innerJoin('devices', 'devices.id', 'device_day.device_id')
      .select('irradiation_whm2')
      .where('devices.sn', '=', weather)
      .executeTakeFirstOrThrow();
    expect(station.irradiation_whm2).toBe(600);
  });
});
