import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStore, type TestStore } from '../../../test/store.ts';
import { dataMessage, HYBRID, METER, makeGateway, makePlant, uniqueSn, WEATHER } from '../../../test/telemetry.ts';
import { silentLogger } from './log.ts';
import { createIngest, type Ingest } from './pipeline.ts';
import { counterEnergy, foldCounter, localDay, plantDay } from './rollups.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;

describe('localDay', () => {
  it('gives the plant-local date, across midnight and daylight-saving changes', () => {
    // New York is UTC−5 in winter: 04:50Z is 23:50 the day before, 05:10Z is 00:10.
    expect(localDay('America/New_York', Date.UTC(2025, 0, 15, 4, 50))).toBe('2025-01-14');
    expect(localDay('America/New_York', Date.UTC(2025, 0, 15, 5, 10))).toBe('2025-01-15');
    // Madrid: 30 March 2025 starts at 23:00Z (UTC+1) and ends at 22:00Z (UTC+2).
    expect(localDay('Europe/Madrid', Date.UTC(2025, 2, 29, 22, 59))).toBe('2025-03-29');
    expect(localDay('Europe/Madrid', Date.UTC(2025, 2, 29, 23, 0))).toBe('2025-03-30');
    expect(localDay('Europe/Madrid', Date.UTC(2025, 2, 30, 21, 59))).toBe('2025-03-30');
    expect(localDay('Europe/Madrid', Date.UTC(2025, 2, 30, 22, 0))).toBe('2025-03-31');
    // Kathmandu is UTC+5:45: its midnight falls on a quarter hour.
    expect(localDay('Asia/Kathmandu', Date.UTC(2025, 0, 14, 18, 14))).toBe('2025-01-14');
    expect(localDay('Asia/Kathmandu', Date.UTC(2025, 0, 14, 18, 15))).toBe('2025-01-15');
    expect(localDay('Not/AZone', Date.UTC(2025, 0, 15, 23, 59))).toBe('2025-01-15');
  });
});

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
  let store: TestStore;
  let ingest: Ingest;
  beforeAll(async () => {
    store = await openTestStore();
    ingest = createIngest({ db: store.db, dialect: store.dialect, log: silentLogger, flushMs: 20 });
  });
  afterAll(async () => {
    await ingest.close();
    await store.close();
  });

  /** One hybrid inverter frame per entry: [utc ts, pv total kWh]. */
  async function feed(gatewaySn: string, sn: string, readings: [number, number][], extra: Record<string, number> = {}) {
    for (const [ts, kwh] of readings) {
      ingest.message(
        gatewaySn,
        'data',
        dataMessage(ts, [{ sn, protocol: HYBRID, values: { pvEnergyTotal: kwh, ...extra } }]),
        ts,
      );
    }
    await ingest.flush();
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
        ingest.message(
          gw.sn,
          'data',
          dataMessage(ts, [{ sn, protocol: HYBRID, values: { pvEnergyTotal: kwh, activePower: power, batterySoc: soc } }]),
          ts,
        );
      }
      await ingest.flush();
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
    ingest.message(gw.sn, 'data', frame(t, 0), t);
    ingest.message(gw.sn, 'data', frame(t + HOUR, 3), t + HOUR);
    await ingest.flush();
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
