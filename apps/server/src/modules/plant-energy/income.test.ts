/**
 * Income by valuation method, fed by real frames through ingest; every expected value is worked
 * out by hand in the comments. Time of use: counter readings at the segment boundaries, kept for
 * past days, computed again after a price edit or late data.
 */

import { ErrorCode } from '@sunfleet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataFor, HOUR, type OverviewServer, overviewServer } from '../../../test/kits/plant-energy.ts';
import { type Account, account, createPlant, gateway } from '../../../test/kits/plants.ts';
import { HYBRID, STRING, uniqueSn } from '../../../test/telemetry.ts';
import type { Plant } from '../../db/schema.ts';
import { dayIncomes } from './income.ts';

let o: OverviewServer;
let owner: Account;

beforeAll(async () => {
  o = await overviewServer();
  owner = await account(o.s);
});
afterAll(() => o.close());

const data = <T = Record<string, unknown>>(url: string) => dataFor<T>(o.s, owner.token, url);
const plantRow = (id: number) =>
  o.s.db.selectFrom('plants').selectAll().where('id', '=', id).executeTakeFirstOrThrow() as Promise<Plant>;
const closeTo = (actual: Map<string, number | null>, expected: Record<string, number | null>) => {
  expect([...actual.keys()]).toEqual(Object.keys(expected));
  for (const [day, v] of Object.entries(expected)) {
    if (v === null) expect(actual.get(day), day).toBeNull();
    else expect(actual.get(day), day).toBeCloseTo(v, 6);
  }
};

/** Two readings of inverter `sn` on `day` (UTC plant), `kwh` apart. */
async function dayOf(gwSn: string, sn: string, day: string, from: number, kwh: number, exportFrom = 0, exportKwh = 0) {
  const t = Date.parse(`${day}T09:00:00Z`);
  await o.send(gwSn, t, [{ sn, protocol: HYBRID, values: { pvEnergyTotal: from, gridExportEnergyTotal: exportFrom } }]);
  await o.send(gwSn, t + 6 * HOUR, [
    { sn, protocol: HYBRID, values: { pvEnergyTotal: from + kwh, gridExportEnergyTotal: exportFrom + exportKwh } },
  ]);
}

describe('constant price and price by generation', () => {
  it('constant: price × kWh generated; total adds the manual income', async () => {
    const id = await createPlant(o.s, owner, { timezone: 'UTC', valuationMethod: 'constant', price: 0.25, income: 10 });
    const gw = await gateway(o.s, id);
    const sn = uniqueSn('INV');
    await dayOf(gw.sn, sn, '2025-04-01', 100, 4, 50, 1);
    await dayOf(gw.sn, sn, '2025-04-02', 104, 6, 51, 2);
    // 4 kWh × 0.25 = 1.00; 6 kWh × 0.25 = 1.50.
    closeTo(await dayIncomes(o.s.db, await plantRow(id), '2025-04-01', '2025-04-03'), {
      '2025-04-01': 1,
      '2025-04-02': 1.5,
      '2025-04-03': 0,
    });
    expect(await data(`/api/v1/plant/${id}/realtime`)).toMatchObject({ todayIncome: 0, totalIncome: 12.5 });
    expect(await data(`/api/v1/plant/${id}/power/month?date=2025-04-15`)).toMatchObject({
      bars: [{ income: 1 }, { income: 1.5 }],
      income: 2.5,
    });
  });

  it('generation: price × kWh fed into the grid', async () => {
    const id = await createPlant(o.s, owner, { timezone: 'UTC', valuationMethod: 'generation', price: 0.4 });
    const gw = await gateway(o.s, id);
    const sn = uniqueSn('INV');
    await dayOf(gw.sn, sn, '2025-04-01', 100, 4, 50, 1);
    await dayOf(gw.sn, sn, '2025-04-02', 104, 6, 51, 2.5);
    // 1 kWh × 0.4 = 0.40; 2.5 kWh × 0.4 = 1.00.
    closeTo(await dayIncomes(o.s.db, await plantRow(id), '2025-04-01', '2025-04-02'), { '2025-04-01': 0.4, '2025-04-02': 1 });
    expect(await data(`/api/v1/plant/${id}/realtime`)).toMatchObject({ totalIncome: 1.4 });
  });

  it('no price: null income everywhere', async () => {
    const id = await createPlant(o.s, owner, { timezone: 'UTC', valuationMethod: 'constant', price: null, income: 5 });
    const gw = await gateway(o.s, id);
    await dayOf(gw.sn, uniqueSn('INV'), '2025-04-01', 100, 4);
    closeTo(await dayIncomes(o.s.db, await plantRow(id), '2025-04-01', '2025-04-02'), { '2025-04-01': null, '2025-04-02': null });
    expect(await data(`/api/v1/plant/${id}/realtime`)).toMatchObject({ todayIncome: null, totalIncome: null });
    expect(await data(`/api/v1/plant/${id}/power/month?date=2025-04-01`)).toMatchObject({
      bars: [{ income: null }],
      income: null,
    });
  });
});

describe('time-of-use price', () => {
  // Madrid in June is UTC+2. Segments: 00:00–08:00 at 0.1, 08:00–18:00 at 0.3, 18:00–23:59 at 0.2.
  const segments = [
    { start: '00:00', end: '08:00', price: 0.1 },
    { start: '08:00', end: '18:00', price: 0.3 },
    { start: '18:00', end: '23:59', price: 0.2 },
  ];
  const utc = (day: number, h: number, m = 0) => Date.UTC(2025, 5, day, h, m);
  const A = uniqueSn('INVA');
  const B = uniqueSn('INVB');
  let id: number;
  let gwSn: string;

  beforeAll(async () => {
    id = await createPlant(o.s, owner, {
      timezone: 'Europe/Madrid',
      currency: 'EUR',
      valuationMethod: 'tou',
      priceSegments: segments,
      income: 10,
    });
    gwSn = (await gateway(o.s, id)).sn;
    const a = (t: number, kwh: number) => o.send(gwSn, t, [{ sn: A, protocol: HYBRID, values: { pvEnergyTotal: kwh } }]);
    const b = (t: number, kwh: number) => o.send(gwSn, t, [{ sn: B, protocol: STRING, values: { energyTotal: kwh } }]);
    await a(utc(9, 21, 55), 500); // 9 June 23:55 local
    await a(utc(10, 5), 500.5); // 10 June 07:00
    await a(utc(10, 6), 501); // 08:00, on the boundary
    await b(utc(10, 7), 200); // 09:00
    await a(utc(10, 10), 505); // 12:00
    await b(utc(10, 10), 202); // 12:00
    await b(utc(10, 14), 204); // 16:00
    await a(utc(10, 15, 55), 510); // 17:55
    await a(utc(10, 16, 10), 510.5); // 18:10
    await a(utc(10, 21, 50), 511); // 23:50
    await a(utc(10, 22, 5), 511.2); // 11 June 00:05
    await a(utc(11, 7), 512.2); // 11 June 09:00
  });

  it('sums each segment’s energy × price, from the counters at its boundaries', async () => {
    // 10 June, A: [00–08) 501 − 500 (reading at 23:55 the day before) = 1 kWh × 0.1 = 0.10;
    //   [08–18) 510 (17:55) − 501 (08:00) = 9 kWh × 0.3 = 2.70; [18–24) 511 − 510 = 1 kWh × 0.2 = 0.20.
    // B: no reading before 08:00: its first segment is empty; [08–18) starts at its first reading
    //   (09:00, 200) and ends at 16:00 (204): 4 kWh × 0.3 = 1.20; [18–24) has no reading within an
    //   hour before 18:00 nor after it: nothing. 10 June: 3.00 + 1.20 = 4.20.
    // 11 June, A: [00–08) 511.2 − 511 (23:50 the day before) = 0.2 kWh × 0.1 = 0.02; [08–18) starts
    //   at its first reading (09:00) and ends there: nothing.
    // 9 June: A's one reading (23:55) starts and ends its last segment: nothing.
    closeTo(await dayIncomes(o.s.db, await plantRow(id), '2025-06-09', '2025-06-12'), {
      '2025-06-09': 0,
      '2025-06-10': 4.2,
      '2025-06-11': 0.02,
      '2025-06-12': 0,
    });
    expect(await data(`/api/v1/plant/${id}/power/month?date=2025-06-01`)).toEqual({
      period: 'month',
      date: '2025-06-01',
      bars: [
        expect.objectContaining({ label: '2025-06-09', income: 0 }),
        expect.objectContaining({ label: '2025-06-10', income: 4.2 }),
        expect.objectContaining({ label: '2025-06-11', income: 0.02 }),
      ],
      energy: expect.any(Number),
      income: 4.22,
    });
    expect(await data(`/api/v1/plant/${id}/realtime`)).toMatchObject({ todayIncome: 0, totalIncome: 14.22 });
  });

  it('keeps past days, and computes them again after a price edit and after late data', async () => {
    const kept = await o.s.db
      .selectFrom('plant_day_income')
      .select(['day', 'income'])
      .where('plant_id', '=', id)
      .orderBy('day')
      .execute();
    expect(kept.map((r) => [r.day, Math.round(r.income * 100) / 100])).toEqual([
      ['2025-06-09', 0],
      ['2025-06-10', 4.2],
      ['2025-06-11', 0.02],
    ]);
    // A kept day is read, not computed again.
    await o.s.db
      .updateTable('plant_day_income')
      .set({ income: 99 })
      .where('plant_id', '=', id)
      .where('day', '=', '2025-06-10')
      .execute();
    expect((await dayIncomes(o.s.db, await plantRow(id), '2025-06-10', '2025-06-10')).get('2025-06-10')).toBe(99);

    // New prices: 00:00–12:00 at 0.1, 12:00–23:59 at 0.5.
    const edit = await o.s.call(owner.token, 'POST', `/api/v1/plant/${id}/income`, {
      valuationMethod: 'tou',
      priceSegments: [
        { start: '00:00', end: '12:00', price: 0.1 },
        { start: '12:00', end: '23:59', price: 0.5 },
      ],
    });
    expect(edit.body.code).toBe(ErrorCode.ok);
    // 10 June, A: [00–12) 505 − 500 = 5 × 0.1 = 0.50; [12–24) 511 − 505 = 6 × 0.5 = 3.00.
    //   B: [00–12) 202 − 200 (first reading, 09:00) = 2 × 0.1 = 0.20; [12–24) 204 − 202 = 2 × 0.5 = 1.00. Total 4.70.
    // 11 June, A: [00–12) 512.2 (09:00) − 511 (23:50 before) = 1.2 × 0.1 = 0.12.
    closeTo(await dayIncomes(o.s.db, await plantRow(id), '2025-06-10', '2025-06-11'), { '2025-06-10': 4.7, '2025-06-11': 0.12 });

    // A late reading at 23:58 on 10 June (511.1): [12–24) of the 10th ends there, 6.1 × 0.5 = 3.05 (4.75 in all);
    // the 11th starts from it: 512.2 − 511.1 = 1.1 × 0.1 = 0.11.
    await o.send(gwSn, utc(10, 21, 58), [{ sn: A, protocol: HYBRID, values: { pvEnergyTotal: 511.1 } }], Date.now());
    closeTo(await dayIncomes(o.s.db, await plantRow(id), '2025-06-10', '2025-06-11'), { '2025-06-10': 4.75, '2025-06-11': 0.11 });
    expect(await data(`/api/v1/plant/${id}/realtime`)).toMatchObject({ totalIncome: 14.86 });
  });
});
