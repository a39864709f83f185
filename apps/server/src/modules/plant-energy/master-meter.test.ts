/**
 * The master meter: only the owner's editors may set it, a foreign or non-meter SN looks unknown,
 * the plant's days are re-summed from the master's device days, and ingest then counts only the
 * master (later frames, and a meter arriving later, which re-sums the plant's day).
 */

import { ErrorCode } from '@sunfleet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OverviewServer, overviewServer } from '../../../test/kits/plant-energy.ts';
import { type Account, account, createPlant, gateway } from '../../../test/kits/plants.ts';
import { HYBRID, METER, uniqueSn } from '../../../test/telemetry.ts';

let o: OverviewServer;
let owner: Account;
let visitor: Account;
let stranger: Account;
let plantId: number;
let gwSn: string;
const A = uniqueSn('INV');
const M1 = uniqueSn('MET');
const M2 = uniqueSn('MET');
const M3 = uniqueSn('MET');
const t = (h: number) => Date.UTC(2025, 8, 3, h);

beforeAll(async () => {
  o = await overviewServer();
  owner = await account(o.s);
  visitor = await account(o.s);
  stranger = await account(o.s);
  plantId = await createPlant(o.s, owner, { timezone: 'UTC' });
  await o.s.db
    .insertInto('plant_shares')
    .values({ plant_id: plantId, user_id: visitor.id, role: 'visitor', created_at: Date.now() })
    .execute();
  gwSn = (await gateway(o.s, plantId)).sn;
  // 10:00 → 11:00: A imports 1 kWh by its own CT; M1 2 kWh in, 0.5 out; M2 3 kWh in, 0.25 out.
  for (const [h, step] of [
    [10, 0],
    [11, 1],
  ] as const) {
    await o.send(gwSn, t(h), [
      {
        sn: A,
        protocol: HYBRID,
        values: { pvEnergyTotal: 100 + step, gridImportEnergyTotal: 50 + step, gridExportEnergyTotal: 20 },
      },
      { sn: M1, protocol: METER, values: { activePower: 1000, importEnergy: 10 + 2 * step, exportEnergy: 5 + 0.5 * step } },
      { sn: M2, protocol: METER, values: { activePower: 3000, importEnergy: 30 + 3 * step, exportEnergy: 7 + 0.25 * step } },
    ]);
  }
});
afterAll(() => o.close());

const grid = async () =>
  o.s.db
    .selectFrom('plant_day')
    .select(['grid_import_wh', 'grid_export_wh', 'pv_wh'])
    .where('plant_id', '=', plantId)
    .where('day', '=', '2025-09-03')
    .executeTakeFirstOrThrow();
const master = async () =>
  (await o.s.db.selectFrom('plants').select('master_meter_id').where('id', '=', plantId).executeTakeFirstOrThrow())
    .master_meter_id;
const deviceId = async (sn: string) =>
  (await o.s.db.selectFrom('devices').select('id').where('sn', '=', sn).executeTakeFirstOrThrow()).id;
const setMaster = (who: Account, sn: string) => o.s.call(who.token, 'POST', `/api/v1/meter/${sn}/master`);

describe('master meter', () => {
  it('sums all meters while none is set', async () => {
    expect(await grid()).toEqual({ grid_import_wh: 5000, grid_export_wh: 750, pv_wh: 1000 });
  });

  it('refuses a visitor (2), and answers 404 for a non-meter, an unknown and a foreign SN alike', async () => {
    expect((await setMaster(visitor, M1)).body).toMatchObject({ code: ErrorCode.noPermission, data: null });
    expect((await setMaster(owner, A)).body).toMatchObject({ code: ErrorCode.notFound, data: null });
    expect((await setMaster(owner, 'NOSUCHMETER')).body).toMatchObject({ code: ErrorCode.notFound, data: null });
    expect((await setMaster(stranger, M1)).body).toMatchObject({ code: ErrorCode.notFound, data: null });
    expect(await master()).toBeNull();
    expect(await grid()).toMatchObject({ grid_import_wh: 5000 });
  });

  it("re-sums the plant's days from the master's device days, and the API shows the master only", async () => {
    expect((await setMaster(owner, M1)).body).toMatchObject({ code: ErrorCode.ok, data: null });
    expect(await master()).toBe(await deviceId(M1));
    expect(await grid()).toEqual({ grid_import_wh: 2000, grid_export_wh: 500, pv_wh: 1000 });
    const day = (await o.s.call(owner.token, 'GET', `/api/v1/plant/energy/${plantId}/day?date=2025-09-03`)).body.data as {
      totals: Record<string, number>;
    };
    expect(day.totals).toMatchObject({ gridImport: 2000, gridExport: 500 });
    const curve = (await o.s.call(owner.token, 'GET', `/api/v1/plant/${plantId}/power/day?date=2025-09-03`)).body.data as {
      points: { grid: number }[];
    };
    expect(curve.points.map((p) => p.grid)).toEqual([1000, 1000]);
  });

  it('ingest counts only the master afterwards, also when another meter arrives', async () => {
    // 12:00: M1 +1 kWh in, M2 +4 kWh in; a new meter M3 (two readings, 6 kWh) joins the plant.
    await o.send(gwSn, t(12), [
      { sn: M1, protocol: METER, values: { importEnergy: 13, exportEnergy: 5.5 } },
      { sn: M2, protocol: METER, values: { importEnergy: 37, exportEnergy: 7.25 } },
      { sn: M3, protocol: METER, values: { importEnergy: 1, exportEnergy: 0 } },
    ]);
    expect(await grid()).toMatchObject({ grid_import_wh: 3000, grid_export_wh: 500 });
    await o.send(gwSn, t(13), [{ sn: M3, protocol: METER, values: { importEnergy: 7, exportEnergy: 0 } }]);
    expect(await grid()).toMatchObject({ grid_import_wh: 3000, grid_export_wh: 500 });
  });

  it('switching the master re-sums again', async () => {
    expect((await setMaster(owner, M2)).body.code).toBe(ErrorCode.ok);
    // M2: 30 → 37 kWh in, 7 → 7.25 out.
    expect(await grid()).toEqual({ grid_import_wh: 7000, grid_export_wh: 250, pv_wh: 1000 });
    await o.send(gwSn, t(14), [
      { sn: M1, protocol: METER, values: { importEnergy: 20, exportEnergy: 6 } },
      { sn: M2, protocol: METER, values: { importEnergy: 38, exportEnergy: 7.5 } },
    ]);
    expect(await grid()).toMatchObject({ grid_import_wh: 8000, grid_export_wh: 500 });
  });
});
