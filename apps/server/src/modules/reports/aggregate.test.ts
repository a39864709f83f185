/**
 * The energy report (`plant/energy/aggregate`): the workbook read back with exceljs against day
 * rows put in the store (expected values summed here, independently), the date-range rules
 * (90 days counted inclusively, end at most a day after the plant-local today), plant ids the
 * caller cannot see (700, no file), duplicates, the plant limit and the request language.
 */

import { ErrorCode } from '@sunfleet/contracts';
import type ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness.ts';
import { type Account, account, company } from '../../../test/kits/plants.ts';
import {
  type DayRow,
  download,
  insertDays,
  plant,
  plusDays,
  randomDay,
  seeded,
  share,
  sheetRows,
  todayIn,
} from '../../../test/kits/reports.ts';
import { now } from '../../db/index.ts';

let s: TestServer;
let owner: Account;
let stranger: Account;
let visitor: Account;
let alpha: number;
let beta: number;
let other: number;
let foreign: number;
// A week well in the past, so "today" never matters for these.
const start = plusDays(todayIn('UTC'), -40);
const end = plusDays(start, 6);
const week = Array.from({ length: 7 }, (_, i) => plusDays(start, i));
const alphaDays: DayRow[] = [];
const betaDays: DayRow[] = [];

const url = (ids: Array<number | string>, from = start, to = end, extra = '') =>
  `/api/v1/plant/energy/aggregate?plantIds=${ids.join(',')}&startDate=${from}&endDate=${to}${extra}`;

beforeAll(async () => {
  s = await startServer();
  owner = await account(s);
  stranger = await account(s, { kind: 'company_admin', companyId: await company(s) });
  visitor = await account(s);
  const rnd = seeded(20260101);
  alpha = await plant(s, { owner: owner.id, name: 'Alpha Rooftop', timezone: 'Europe/Madrid', capacity: 12.5, price: 0.15 });
  beta = await plant(s, { owner: owner.id, name: 'Beta Farm', timezone: 'Asia/Tokyo', capacity: 0, currency: null });
  other = await plant(s, { owner: owner.id, name: 'Gamma Unasked' });
  foreign = await plant(s, { owner: stranger.id, name: 'Foreign Plant' });
  // Alpha: days 0, 1, 5 and 6 of the week (2–4 missing), and one day on each side of the range.
  for (const i of [0, 1, 5, 6]) alphaDays.push(randomDay(week[i]!, rnd));
  await insertDays(s, alpha, [...alphaDays, randomDay(plusDays(start, -1), rnd), randomDay(plusDays(end, 1), rnd)]);
  // Beta: day 3 only, with no peak.
  betaDays.push({ ...randomDay(week[3]!, rnd), peak: null });
  await insertDays(s, beta, betaDays);
  await insertDays(s, other, [randomDay(week[0]!, rnd)]);
  await insertDays(s, foreign, [randomDay(week[0]!, rnd)]);
  await share(s, alpha, visitor.id, 'visitor');
});
afterAll(() => s.close());

const sum = (days: DayRow[], key: keyof Omit<DayRow, 'day' | 'peak'>) => days.reduce((a, d) => a + d[key], 0);
const inRange = (days: DayRow[]) => days.filter((d) => d.day >= start && d.day <= end);
const num = (v: unknown) => v as number;
const dayText = (v: unknown) => (v instanceof Date ? v.toISOString().slice(0, 10) : v);

function expectSummary(
  row: unknown[],
  name: string,
  days: DayRow[],
  capacity: number,
  currency: string | null,
  income: number | null,
) {
  expect(row[0]).toBe(name);
  expect(row[2]).toBe(capacity);
  expect(row[3]).toBe(days.length);
  const keys = ['pv', 'load', 'gridImport', 'gridExport', 'charge', 'discharge'] as const;
  keys.forEach((k, i) => {
    expect(num(row[4 + i]), k).toBeCloseTo(sum(days, k) / 1000, 6);
  });
  if (income === null) expect(row[10] ?? null).toBeNull();
  else expect(num(row[10])).toBeCloseTo(income, 3);
  expect(row[11] ?? null).toBe(currency);
  if (capacity > 0) expect(num(row[12])).toBeCloseTo(sum(days, 'pv') / 1000 / capacity, 6);
  else expect(row[12] ?? null).toBeNull();
}

describe('energy report', () => {
  it('is an .xlsx with Summary and Daily whose numbers are the day rows of the range', async () => {
    const res = await download(s, owner, url([beta, alpha]));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="energy-${start}_${end}.xlsx"`);
    const wb = res.wb!;
    expect(wb.worksheets.map((w) => w.name)).toEqual(['Summary', 'Daily']);

    const summary = wb.getWorksheet('Summary')!;
    expect(String(summary.getCell('A1').value)).toContain(`${start} – ${end}`);
    const header = sheetRows(summary, 2)[0]!;
    expect(header).toEqual([
      'Plant',
      'Time zone',
      'Capacity (kWp)',
      'Days with data',
      'Generation (kWh)',
      'Consumption (kWh)',
      'Grid import (kWh)',
      'Grid export (kWh)',
      'Battery charge (kWh)',
      'Battery discharge (kWh)',
      'Income',
      'Currency',
      'Full-load hours (h)',
    ]);
    const rows = sheetRows(summary, 3);
    expect(rows).toHaveLength(2);
    // Sorted by name; values are kWh of the in-range day rows only.
    // Alpha is priced 0.15 per kWh generated (constant method); Beta has no price.
    expectSummary(rows[0]!, 'Alpha Rooftop', inRange(alphaDays), 12.5, 'EUR', (sum(inRange(alphaDays), 'pv') / 1000) * 0.15);
    expectSummary(rows[1]!, 'Beta Farm', betaDays, 0, null, null);
    expect(rows[0]![1]).toBe('Europe/Madrid');

    const daily = wb.getWorksheet('Daily')!;
    const drows = sheetRows(daily, 3);
    expect(drows).toHaveLength(14);
    expect(drows.map((r) => `${r[0]} ${dayText(r[1])}`)).toEqual([
      ...week.map((d) => `Alpha Rooftop ${d}`),
      ...week.map((d) => `Beta Farm ${d}`),
    ]);
    for (const [i, r] of drows.entries()) {
      const source = i < 7 ? alphaDays : betaDays;
      const d = source.find((x) => x.day === dayText(r[1]));
      if (!d) {
        // A day without data: blank cells, not zeros.
        expect(
          r.slice(2, 9).every((v) => v === undefined || v === null),
          `${r[0]} ${dayText(r[1])}`,
        ).toBe(true);
        continue;
      }
      expect(num(r[2])).toBeCloseTo(d.pv / 1000, 6);
      expect(num(r[3])).toBeCloseTo(d.load / 1000, 6);
      expect(num(r[4])).toBeCloseTo(d.gridImport / 1000, 6);
      expect(num(r[5])).toBeCloseTo(d.gridExport / 1000, 6);
      expect(num(r[6])).toBeCloseTo(d.charge / 1000, 6);
      expect(num(r[7])).toBeCloseTo(d.discharge / 1000, 6);
      if (d.peak === null) expect(r[8] ?? null).toBeNull();
      else expect(num(r[8])).toBeCloseTo(d.peak / 1000, 6);
      if (i < 7) expect(num(r[9])).toBeCloseTo((d.pv / 1000) * 0.15, 3);
      else expect(r[9] ?? null).toBeNull();
      expect(r[10] ?? null).toBe(i < 7 ? 'EUR' : null);
    }
  });

  it('has a bold frozen header, column widths and two-decimal number formats', async () => {
    const wb = (await download(s, owner, url([alpha]))).wb!;
    for (const ws of wb.worksheets as ExcelJS.Worksheet[]) {
      expect(ws.getRow(2).font?.bold).toBe(true);
      expect(ws.views[0]).toMatchObject({ state: 'frozen', ySplit: 2 });
      expect(ws.getColumn(1).width).toBeGreaterThanOrEqual(20);
    }
    const summary = wb.getWorksheet('Summary')!;
    expect(summary.getCell('E3').numFmt).toBe('#,##0.00');
    expect(wb.getWorksheet('Daily')!.getCell('C3').numFmt).toBe('#,##0.00');
  });

  it('speaks the request language (lan, then Accept-Language)', async () => {
    for (const [extra, headers] of [
      ['&lan=es', {}],
      ['', { 'accept-language': 'es-ES,es;q=0.9' }],
    ] as const) {
      const wb = (await download(s, owner, url([alpha], start, end, extra), headers)).wb!;
      const summary = wb.worksheets[0]!;
      expect(String(summary.getCell('A1').value)).toMatch(/^Informe de energía/);
      expect(summary.getCell('A2').value).toBe('Planta');
      expect(summary.getCell('E2').value).toBe('Generación (kWh)');
      expect(wb.worksheets[1]!.getCell('B2').value).toBe('Fecha');
    }
  });

  it('prices exported energy for a plant valued by generation fed in', async () => {
    const delta = await plant(s, { owner: owner.id, name: 'Delta Export', price: 0.1, valuation: 'generation', currency: 'MXN' });
    const days = [randomDay(week[2]!, seeded(3)), randomDay(week[4]!, seeded(4))];
    await insertDays(s, delta, days);
    const wb = (await download(s, owner, url([delta]))).wb!;
    const [row] = sheetRows(wb.getWorksheet('Summary')!, 3);
    expect(num(row![10])).toBeCloseTo((sum(days, 'gridExport') / 1000) * 0.1, 3);
    expect(row![11]).toBe('MXN');
    const daily = sheetRows(wb.getWorksheet('Daily')!, 3);
    expect(num(daily[2]![9])).toBeCloseTo((days[0]!.gridExport / 1000) * 0.1, 3);
    expect(daily[3]![9] ?? null).toBeNull();
  });

  it('ignores duplicate ids', async () => {
    const wb = (await download(s, owner, url([alpha, beta, alpha, alpha]))).wb!;
    expect(sheetRows(wb.getWorksheet('Summary')!, 3).map((r) => r[0])).toEqual(['Alpha Rooftop', 'Beta Farm']);
    expect(sheetRows(wb.getWorksheet('Daily')!, 3)).toHaveLength(14);
  });

  it('takes 90 days counted inclusively and refuses 91 naming the limit', async () => {
    const last = plusDays(todayIn('UTC'), -3);
    const ok = await download(s, owner, url([alpha], plusDays(last, -89), last));
    expect(ok.status).toBe(200);
    expect(sheetRows(ok.wb!.getWorksheet('Daily')!, 3)).toHaveLength(90);
    const tooLong = await download(s, owner, url([alpha], plusDays(last, -90), last));
    expect(tooLong.body).toMatchObject({ code: ErrorCode.validation, data: null });
    expect(tooLong.body!.msg).toContain('90 days');
    const es = await download(s, owner, url([alpha], plusDays(last, -90), last, '&lan=es'));
    expect(es.body!.msg).toContain('90 días');
  });

  it('refuses an end before the start, a date that does not exist, and an end past the plant’s tomorrow', async () => {
    expect((await download(s, owner, url([alpha], end, start))).body).toMatchObject({ code: ErrorCode.validation, data: null });
    expect((await download(s, owner, url([alpha], '2025-02-27', '2025-02-30'))).body).toMatchObject({
      code: ErrorCode.validation,
      data: null,
    });
    expect((await download(s, owner, url([alpha], '2025-13-01', '2025-13-02'))).body).toMatchObject({
      code: ErrorCode.validation,
      data: null,
    });
    // Lenient by a day: the plant-local tomorrow is fine, the day after is not.
    const tomorrow = plusDays(todayIn('Asia/Tokyo'), 1);
    expect((await download(s, owner, url([beta], plusDays(tomorrow, -5), tomorrow))).status).toBe(200);
    const after = plusDays(tomorrow, 1);
    const res = await download(s, owner, url([beta], plusDays(after, -5), after));
    expect(res.body).toMatchObject({ code: ErrorCode.validation, data: null });
  });

  it('refuses the whole request with 700 and no file when any id is not the caller’s', async () => {
    for (const ids of [[alpha, foreign], [foreign], [alpha, 987654], [alpha, 9_999_999_999]]) {
      const res = await download(s, owner, url(ids));
      expect(res.wb).toBeNull();
      expect(res.body).toMatchObject({ code: ErrorCode.plantMissing, data: null });
      expect(res.headers['content-disposition']).toBeUndefined();
    }
    // The other tenant cannot get the owner's plant either, alone or with its own.
    expect((await download(s, stranger, url([foreign, alpha]))).body).toMatchObject({ code: ErrorCode.plantMissing, data: null });
    // A deleted plant is gone.
    const gone = await plant(s, { owner: owner.id, name: 'Deleted Plant' });
    await s.db.updateTable('plants').set({ deleted_at: now() }).where('id', '=', gone).execute();
    expect((await download(s, owner, url([alpha, gone]))).body).toMatchObject({ code: ErrorCode.plantMissing, data: null });
  });

  it('refuses more plants than REPORT_MAX_PLANTS (distinct ids)', async () => {
    const ids = Array.from({ length: 501 }, (_, i) => i + 1);
    const res = await download(s, owner, url(ids));
    expect(res.body).toMatchObject({ code: ErrorCode.validation, data: null });
    expect(res.body!.msg).toContain('500');
    // 600 copies of one id are one plant.
    expect((await download(s, owner, url(Array(600).fill(alpha)))).status).toBe(200);
  });

  it('a visitor the plant is shared with can download it; without a token it is 401', async () => {
    const res = await download(s, visitor, url([alpha]));
    expect(res.wb?.worksheets.map((w) => w.name)).toEqual(['Summary', 'Daily']);
    expect(sheetRows(res.wb!.getWorksheet('Summary')!, 3)).toHaveLength(1);
    expect((await download(s, visitor, url([alpha, beta]))).body).toMatchObject({ code: ErrorCode.plantMissing, data: null });
    expect((await download(s, null, url([alpha]))).status).toBe(401);
  });
});
