import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStore, type TestStore } from '../../test/store.ts';
import { dataMessage, HYBRID, makeGateway, makePlant, uniqueSn } from '../../test/telemetry.ts';
import { silentLogger } from '../log.ts';
import { createIngest } from '../telemetry/ingest/index.ts';
import { deviceEnergy, periodDays, plantEnergy, plantEnergySeries, plantEnergyToDate, plantToday } from './day-rollups.ts';

let store: TestStore;
beforeAll(async () => {
  store = await openTestStore();
});
afterAll(() => store.close());

async function days(plantId: number, rows: [day: string, pvWh: number, peakW: number][]) {
  await store.db
    .insertInto('plant_day')
    .values(
      rows.map(([day, pv, peak]) => ({ plant_id: plantId, day, pv_wh: pv, load_wh: pv / 2, peak_power_w: peak, updated_at: 0 })),
    )
    .execute();
}

describe('periodDays', () => {
  it('spans the calendar month or year of the anchor day', () => {
    expect(periodDays('day', '2025-02-14')).toEqual({ from: '2025-02-14', to: '2025-02-14' });
    expect(periodDays('month', '2025-02-14')).toEqual({ from: '2025-02-01', to: '2025-02-31' });
    expect(periodDays('year', '2025-02-14')).toEqual({ from: '2025-01-01', to: '2025-12-31' });
    expect(periodDays('total', '2025-02-14')).toBeNull();
    expect(() => periodDays('month', '2025-2-14')).toThrow(RangeError);
  });
  it("anchors on the plant's own today", () => {
    expect(plantToday('Pacific/Auckland', Date.UTC(2025, 11, 31, 12))).toBe('2026-01-01');
    expect(plantToday('America/Los_Angeles', Date.UTC(2026, 0, 1, 5))).toBe('2025-12-31');
  });
});

describe('plantEnergy', () => {
  it('sums day rows over the day, month, year and all time', async () => {
    const plantId = await makePlant(store.db);
    const other = await makePlant(store.db);
    await days(plantId, [
      ['2024-12-31', 1000, 900],
      ['2025-01-01', 2000, 1500],
      ['2025-01-31', 3000, 1200],
      ['2025-02-01', 4000, 800],
      ['2025-12-31', 5000, 700],
      ['2026-01-01', 6000, 600],
    ]);
    await days(other, [['2025-01-15', 99_999, 99_999]]);
    expect(await plantEnergy(store.db, plantId, 'day', '2025-01-31')).toMatchObject({ pvWh: 3000, loadWh: 1500, days: 1 });
    expect(await plantEnergy(store.db, plantId, 'month', '2025-01-20')).toMatchObject({ pvWh: 5000, peakPowerW: 1500, days: 2 });
    expect(await plantEnergy(store.db, plantId, 'year', '2025-06-01')).toMatchObject({ pvWh: 14_000, days: 4 });
    expect(await plantEnergy(store.db, plantId, 'total', '2025-06-01')).toMatchObject({ pvWh: 21_000, gridImportWh: 0, days: 6 });
    expect(await plantEnergy(store.db, plantId, 'month', '2023-01-01')).toEqual({
      pvWh: 0,
      loadWh: 0,
      gridImportWh: 0,
      gridExportWh: 0,
      chargeWh: 0,
      dischargeWh: 0,
      peakPowerW: null,
      days: 0,
    });
  });

  it('answers the day, month, year and all time in one statement, as plantEnergy does', async () => {
    const plantId = await makePlant(store.db);
    await days(plantId, [
      ['2024-12-31', 1000, 900],
      ['2025-01-01', 2000, 1500],
      ['2025-01-31', 3000, 1200],
      ['2025-02-01', 4000, 800],
    ]);
    await store.db
      .updateTable('plant_day')
      .set({ updated_at: 7 })
      .where('plant_id', '=', plantId)
      .where('day', '=', '2025-01-01')
      .execute();
    const all = await plantEnergyToDate(store.db, plantId, '2025-01-31');
    for (const period of ['day', 'month', 'year', 'total'] as const) {
      expect(all[period]).toEqual(await plantEnergy(store.db, plantId, period, '2025-01-31'));
    }
    expect(all).toMatchObject({
      day: { pvWh: 3000, days: 1 },
      month: { pvWh: 5000, peakPowerW: 1500 },
      year: { pvWh: 9000 },
      total: { pvWh: 10_000, days: 4 },
      firstDay: '2024-12-31',
      pastUpdatedAt: 7,
      pastDays: 2,
    });
    expect(await plantEnergyToDate(store.db, await makePlant(store.db), '2025-01-31')).toMatchObject({
      total: { pvWh: 0, days: 0, peakPowerW: null },
      firstDay: null,
      pastUpdatedAt: null,
      pastDays: 0,
    });
  });

  it('charts the days of a month, the months of a year and the years', async () => {
    const plantId = await makePlant(store.db);
    await days(plantId, [
      ['2024-11-30', 500, 100],
      ['2025-01-01', 2000, 100],
      ['2025-01-02', 1000, 100],
      ['2025-03-10', 4000, 100],
    ]);
    expect((await plantEnergySeries(store.db, plantId, 'month', '2025-01-09')).map((p) => [p.label, p.pvWh])).toEqual([
      ['2025-01-01', 2000],
      ['2025-01-02', 1000],
    ]);
    expect((await plantEnergySeries(store.db, plantId, 'year', '2025-01-09')).map((p) => [p.label, p.pvWh, p.days])).toEqual([
      ['2025-01', 3000, 2],
      ['2025-03', 4000, 1],
    ]);
    expect((await plantEnergySeries(store.db, plantId, 'total', '2025-01-09')).map((p) => [p.label, p.pvWh])).toEqual([
      ['2024', 500],
      ['2025', 7000],
    ]);
  });

  it("adds up what ingest rolled up, in the plant's time zone", async () => {
    const ingest = createIngest({ db: store.db, dialect: store.dialect, log: silentLogger, flushMs: 20 });
    const plantId = await makePlant(store.db, { timezone: 'Asia/Tokyo' });
    const gw = await makeGateway(store.db, plantId);
    const sn = uniqueSn('INV');
    // 22:00 and 23:00 on 31 January, 00:00 and 01:00 on 1 February in Tokyo (UTC+9).
    const readings: [number, number][] = [
      [Date.UTC(2025, 0, 31, 13), 100],
      [Date.UTC(2025, 0, 31, 14), 101],
      [Date.UTC(2025, 0, 31, 15), 103],
      [Date.UTC(2025, 0, 31, 16), 106],
    ];
    for (const [ts, kwh] of readings) {
      ingest.message(gw.sn, 'data', dataMessage(ts, [{ sn, protocol: HYBRID, values: { pvEnergyTotal: kwh } }]), ts);
    }
    await ingest.close();
    expect(await plantEnergy(store.db, plantId, 'month', '2025-01-01')).toMatchObject({ pvWh: 1000, days: 1 });
    expect(await plantEnergy(store.db, plantId, 'month', '2025-02-01')).toMatchObject({ pvWh: 3000, days: 1 });
    expect(await plantEnergy(store.db, plantId, 'year', '2025-02-01')).toMatchObject({ pvWh: 4000, days: 2 });
    const device = await store.db.selectFrom('devices').select('id').where('sn', '=', sn).executeTakeFirstOrThrow();
    expect(await deviceEnergy(store.db, device.id, 'total', '2025-02-01')).toMatchObject({ pvWh: 4000, days: 2 });
  });
});
