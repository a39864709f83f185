/**
 * The generation download (`plant/generation/download`) read back with exceljs: the day curve
 * (plant-local times, 5-minute averages of samples put in the store, the forecast uploaded
 * through `predicted/import`) and the bars of a month, a year and all time against day rows put
 * in the store; 700 for a plant the caller cannot see; a visitor may download.
 */

import { ErrorCode } from '@sunfleet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { badInput } from '../../../test/envelopes.ts';
import { startServer, type TestServer } from '../../../test/harness.ts';
import { type Account, account, company, device, gateway } from '../../../test/kits/plants.ts';
import {
  download,
  insertDays,
  plant,
  randomDay,
  seeded,
  share,
  sheetRows,
  upload,
  workbookBytes,
} from '../../../test/kits/reports.ts';
import { powerDay } from '../plant-energy/series.ts';

let s: TestServer;
let owner: Account;
let visitor: Account;
let stranger: Account;
let tokyo: number;
let bars: number;
let foreign: number;

/** 2025-03-10 hh:mm(:ss) in Tokyo (UTC+9, no daylight saving) as an instant. */
const tokyoAt = (h: number, m: number, sec = 0) => Date.UTC(2025, 2, 10, h - 9, m, sec);
const wall = (h: number, m: number) => new Date(Date.UTC(2025, 2, 10, h, m));

beforeAll(async () => {
  s = await startServer();
  owner = await account(s);
  visitor = await account(s);
  stranger = await account(s, { kind: 'company_admin', companyId: await company(s) });
  tokyo = await plant(s, { owner: owner.id, name: 'Tokyo Roof', timezone: 'Asia/Tokyo', price: 0.2 });
  bars = await plant(s, { owner: owner.id, name: 'Bars Plant', timezone: 'Europe/Madrid', price: 0.25, currency: 'USD' });
  foreign = await plant(s, { owner: stranger.id });
  await share(s, tokyo, visitor.id, 'visitor');

  const gw = await gateway(s, tokyo);
  const inv = await device(s, gw.id, tokyo, { kind: 'inverter' });
  const sample = (ts: number, pv: number, load: number, grid: number, battery: number, soc: number) => ({
    device_id: inv,
    ts,
    raw: '[]',
    power_w: pv,
    pv_power_w: pv,
    grid_power_w: grid,
    load_power_w: load,
    battery_power_w: battery,
    soc,
  });
  await s.db
    .insertInto('inverter_samples')
    .values([
      // 14:50 bucket: two samples, averaged.
      sample(tokyoAt(14, 50), 1000, 500, 300, -200, 50),
      sample(tokyoAt(14, 52, 30), 2000, 700, 500, -400, 54),
      // 15:00 bucket: one sample.
      sample(tokyoAt(15, 0), 800, 900, -100, 300, 55),
    ])
    .execute();
  // The forecast goes in through the upload: 14:55 (no measurement there) and 15:00.
  const res = await upload(
    s,
    owner,
    { plantId: String(tokyo) },
    {
      bytes: await workbookBytes([
        ['Time', 'Power (W)'],
        ['2025-03-10 14:55', 4000],
        [wall(15, 0), 3500],
      ]),
    },
  );
  expect(res.body).toMatchObject({ code: ErrorCode.ok, data: { rows: 2, days: ['2025-03-10'] } });

  const rnd = seeded(7);
  await insertDays(s, bars, [
    randomDay('2025-02-27', rnd),
    randomDay('2025-03-01', rnd),
    randomDay('2025-03-02', rnd),
    { ...randomDay('2025-03-17', rnd), peak: null },
    randomDay('2026-01-05', rnd),
  ]);
});
afterAll(() => s.close());

const genUrl = (plantId: number, period: string, date?: string, extra = '') =>
  `/api/v1/plant/generation/download?plantId=${plantId}&period=${period}${date ? `&date=${date}` : ''}${extra}`;

describe('forecast round trip', () => {
  it('an imported forecast is the forecast of the day curve', async () => {
    const day = await powerDay(s.db, tokyo, '2025-03-10');
    expect(day.forecast).toEqual([
      { time: new Date(tokyoAt(14, 55)).toISOString(), power: 4000 },
      { time: new Date(tokyoAt(15, 0)).toISOString(), power: 3500 },
    ]);
  });
});

describe('generation download', () => {
  it('period day: plant-local times, the 5-minute averages and the forecast', async () => {
    const res = await download(s, owner, genUrl(tokyo, 'day', '2025-03-10'));
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="generation-${tokyo}-day-2025-03-10.xlsx"`);
    const ws = res.wb!.worksheets[0]!;
    expect(String(ws.getCell('A1').value)).toContain('Tokyo Roof');
    expect(sheetRows(ws, 2)[0]).toEqual([
      'Time',
      'PV power (W)',
      'Load (W)',
      'Grid (W, + import / − export)',
      'Battery (W, + discharge / − charge)',
      'SOC (%)',
      'Forecast (W)',
    ]);
    const rows = sheetRows(ws, 3).map((r) => [
      (r[0] as Date).toISOString().slice(0, 16),
      ...Array.from({ length: 6 }, (_, i) => r[i + 1] ?? null),
    ]);
    // Measured columns are averages per 5 minutes (pv, load, battery, SOC); the grid is the
    // inverter's reading with the sign turned (its register counts export as +).
    expect(rows).toEqual([
      ['2025-03-10T14:50', 1500, 600, -400, -300, 52, null],
      ['2025-03-10T14:55', null, null, null, null, null, 4000],
      ['2025-03-10T15:00', 800, 900, 100, 300, 55, 3500],
    ]);
    expect(ws.getCell('A3').numFmt).toBe('yyyy-mm-dd hh:mm');
    expect(ws.getRow(2).font?.bold).toBe(true);
  });

  it('period month: a row per day with data, kWh, income at the plant’s price, peak kW and a total', async () => {
    const res = await download(s, owner, genUrl(bars, 'month', '2025-03-20'));
    expect(res.headers['content-disposition']).toBe(`attachment; filename="generation-${bars}-month-2025-03.xlsx"`);
    const ws = res.wb!.worksheets[0]!;
    expect(sheetRows(ws, 2)[0]).toEqual(['Day', 'Energy (kWh)', 'Income (USD)', 'Peak power (kW)']);
    const rows = sheetRows(ws, 3);
    const days = await s.db.selectFrom('plant_day').selectAll().where('plant_id', '=', bars).orderBy('day').execute();
    const march = days.filter((d) => d.day.startsWith('2025-03'));
    expect(rows.map((r) => r[0])).toEqual([...march.map((d) => d.day), 'Total']);
    march.forEach((d, i) => {
      const r = rows[i]!;
      expect(r[1] as number).toBeCloseTo(Number(d.pv_wh) / 1000, 6);
      expect(r[2] as number).toBeCloseTo((Number(d.pv_wh) / 1000) * 0.25, 2);
      if (d.peak_power_w === null) expect(r[3] ?? null).toBeNull();
      else expect(r[3] as number).toBeCloseTo(Number(d.peak_power_w) / 1000, 6);
    });
    const total = rows.at(-1)!;
    const kwh = march.reduce((a, d) => a + Number(d.pv_wh), 0) / 1000;
    expect(total[1] as number).toBeCloseTo(kwh, 6);
    expect(total[2] as number).toBeCloseTo(kwh * 0.25, 1);
    expect(ws.getRow(3 + march.length).font?.bold).toBe(true);
  });

  it('period year and total: months and years', async () => {
    const days = await s.db.selectFrom('plant_day').selectAll().where('plant_id', '=', bars).execute();
    const sumOf = (prefix: string) =>
      days.filter((d) => d.day.startsWith(prefix)).reduce((a, d) => a + Number(d.pv_wh), 0) / 1000;
    const year = sheetRows((await download(s, owner, genUrl(bars, 'year', '2025-06-01'))).wb!.worksheets[0]!, 3);
    expect(year.map((r) => r[0])).toEqual(['2025-02', '2025-03', 'Total']);
    expect(year[0]![1] as number).toBeCloseTo(sumOf('2025-02'), 6);
    expect(year[1]![1] as number).toBeCloseTo(sumOf('2025-03'), 6);
    const total = (await download(s, owner, genUrl(bars, 'total', '2025-06-01', '&lan=es'))).wb!.worksheets[0]!;
    expect(sheetRows(total, 2)[0]![0]).toBe('Año');
    const rows = sheetRows(total, 3);
    expect(rows.map((r) => r[0])).toEqual(['2025', '2026', 'Total']);
    expect(rows[0]![1] as number).toBeCloseTo(sumOf('2025'), 6);
    expect(rows[1]![1] as number).toBeCloseTo(sumOf('2026'), 6);
  });

  it('700 and no file for a plant the caller cannot see; a visitor may download', async () => {
    for (const id of [foreign, 987654, 2_147_483_647]) {
      const res = await download(s, owner, genUrl(id, 'month', '2025-03-01'));
      expect(res.wb).toBeNull();
      expect(res.body).toMatchObject({ code: ErrorCode.plantMissing, data: null });
    }
    // An id past the store's integers is bad input.
    expect((await download(s, owner, genUrl(9_999_999_999, 'month', '2025-03-01'))).body).toMatchObject(badInput('plantId'));
    expect((await download(s, stranger, genUrl(tokyo, 'day', '2025-03-10'))).body).toMatchObject({
      code: ErrorCode.plantMissing,
      data: null,
    });
    const mine = await download(s, visitor, genUrl(tokyo, 'day', '2025-03-10'));
    expect(mine.wb?.worksheets).toHaveLength(1);
    // ... but may not upload a forecast.
    const bytes = await workbookBytes([['2025-03-10 12:00', 1]]);
    expect((await upload(s, visitor, { plantId: String(tokyo) }, { bytes })).body).toMatchObject({
      code: ErrorCode.noPermission,
      data: null,
    });
  });
});
