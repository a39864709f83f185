/**
 * Alias and delete: the byte limit, forbidden characters, who may (button permission and edit
 * rights on the plant), soft delete that keeps history, ends the device's events, recomputes the
 * plant's status, tells ingest to forget, and a deleted device coming back on new data.
 */

import { ErrorCode } from '@sunfleet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { badInput } from '../../../test/envelopes.ts';
import { getAs, postAs, type World, world } from '../../../test/kits/devices.ts';
import { account } from '../../../test/kits/plants.ts';
import { STRING } from '../../../test/telemetry.ts';

let w: World;
beforeAll(async () => {
  w = await world();
}, 60_000);
afterAll(() => w.close());

const sns = async (who: World['O'], url: string) =>
  ((await getAs(w, who, url)).data as { list: Array<{ sn: string; alias: string | null }> }).list.map((r) => r.sn);
const aliasOf = async (sn: string) =>
  (await w.s.db.selectFrom('devices').select('alias').where('sn', '=', sn).executeTakeFirstOrThrow()).alias;

describe('alias', () => {
  it('renames an inverter; the list shows it, finds it and sorts by it; ingest is told', async () => {
    const res = await postAs(w, w.O, `/api/v1/inverter/${w.sn.INV1}/alias`, { alias: '  Roof east ' });
    expect(res).toMatchObject({ code: ErrorCode.ok, data: { sn: w.sn.INV1, alias: 'Roof east' } });
    expect(await aliasOf(w.sn.INV1)).toBe('Roof east');
    expect(w.forgotten).toContainEqual({ deviceSn: w.sn.INV1 });
    expect(await sns(w.O, '/api/v1/inverters?keyword=ROOF')).toEqual([w.sn.INV1]);
    await postAs(w, w.O, `/api/v1/inverter/${w.sn.MIC}/alias`, { alias: 'Attic' });
    expect((await sns(w.O, '/api/v1/inverters?sort=alias&order=2')).slice(0, 2)).toEqual([w.sn.INV1, w.sn.MIC]);
  });

  it('takes 32 bytes, refuses 33 bytes and forbidden characters, and clears on empty', async () => {
    const url = `/api/v1/inverter/${w.sn.INV1}/alias`;
    expect((await postAs(w, w.O, url, { alias: 'ñ'.repeat(16) })).data).toMatchObject({ alias: 'ñ'.repeat(16) });
    for (const alias of ['ñ'.repeat(17), 'x'.repeat(33), 'a<b>', 'a/b']) {
      expect(await postAs(w, w.O, url, { alias }), alias).toMatchObject(badInput('alias'));
    }
    expect(await postAs(w, w.O, url, {})).toMatchObject(badInput('alias'));
    expect(await aliasOf(w.sn.INV1)).toBe('ñ'.repeat(16));
    expect((await postAs(w, w.O, url, { alias: '' })).data).toMatchObject({ alias: null });
    expect(await aliasOf(w.sn.INV1)).toBeNull();
  });

  it('needs edit rights on the plant and the button permission', async () => {
    const url = `/api/v1/inverter/${w.sn.INV1}/alias`;
    expect(await postAs(w, w.visitor, url, { alias: 'Mine' })).toMatchObject({ code: ErrorCode.noPermission, data: null });
    expect(await postAs(w, w.P, url, { alias: 'Mine' })).toMatchObject({ code: ErrorCode.inverterMissing, data: null });
    const t = Date.now();
    const role = await w.s.db
      .insertInto('company_roles')
      .values({
        company_id: w.companyId,
        name: 'Viewer',
        permissions: JSON.stringify(['equip.view', 'inverter.view']),
        created_at: t,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const viewer = await account(w.s, { kind: 'company_user', companyId: w.companyId, roleId: role.id });
    expect(await postAs(w, viewer, url, { alias: 'Mine' })).toMatchObject({ code: ErrorCode.noPermission, data: null });
    expect(await aliasOf(w.sn.INV1)).toBeNull();
    // The agent company operates its customer's plant, and its own unbound gateway's devices.
    expect(await postAs(w, w.admin, url, { alias: 'By installer' })).toMatchObject({ code: ErrorCode.ok });
    expect(await postAs(w, w.admin, `/api/v1/inverter/${w.sn.INVU}/alias`, { alias: 'Stock' })).toMatchObject({
      code: ErrorCode.ok,
    });
    expect(await postAs(w, w.O, `/api/v1/inverter/${w.sn.INVU}/alias`, { alias: 'x' })).toMatchObject({
      code: ErrorCode.inverterMissing,
    });
  });

  it('renames a meter; a foreign meter answers 404', async () => {
    expect(await postAs(w, w.O, `/api/v1/meter/${w.sn.MET}/alias`, { alias: 'Grid meter' })).toMatchObject({
      code: ErrorCode.ok,
      data: { alias: 'Grid meter' },
    });
    expect(((await getAs(w, w.O, `/api/v1/meter/${w.sn.MET}/realtime`)).data as { alias: string }).alias).toBe('Grid meter');
    expect(await postAs(w, w.P, `/api/v1/meter/${w.sn.MET}/alias`, { alias: 'x' })).toMatchObject({
      code: ErrorCode.notFound,
      data: null,
    });
    expect(await postAs(w, w.O, `/api/v1/meter/${w.sn.INV1}/alias`, { alias: 'x' })).toMatchObject({
      code: ErrorCode.notFound,
      data: null,
    });
  });
});

describe('delete', () => {
  it('removes an inverter from lists and counts, keeps its history, ends its events, recomputes the plant', async () => {
    const plant = () => w.s.db.selectFrom('plants').select('status').where('id', '=', w.plantA).executeTakeFirstOrThrow();
    expect((await plant()).status).toBe('fault'); // INV2's fault bit
    expect(await postAs(w, w.visitor, `/api/v1/inverter/${w.sn.INV2}/delete`)).toMatchObject({
      code: ErrorCode.noPermission,
      data: null,
    });
    expect(await postAs(w, w.P, `/api/v1/inverter/${w.sn.INV2}/delete`)).toMatchObject({
      code: ErrorCode.inverterMissing,
      data: null,
    });
    expect(await postAs(w, w.O, `/api/v1/inverter/${w.sn.INV2}/delete`)).toEqual({ code: ErrorCode.ok, msg: 'ok', data: null });
    expect(w.forgotten).toContainEqual({ deviceSn: w.sn.INV2 });
    expect(await sns(w.O, '/api/v1/inverters')).not.toContain(w.sn.INV2);
    expect((await getAs(w, w.O, '/api/v1/inverters/count')).data).toMatchObject({ total: 2, fault: 0 });
    expect(await getAs(w, w.O, `/api/v1/inverter/${w.sn.INV2}`)).toMatchObject({ code: ErrorCode.inverterMissing, data: null });
    expect(await postAs(w, w.O, `/api/v1/inverter/${w.sn.INV2}/delete`)).toMatchObject({ code: ErrorCode.inverterMissing });
    const row = await w.s.db
      .selectFrom('devices')
      .select(['id', 'deleted_at'])
      .where('sn', '=', w.sn.INV2)
      .executeTakeFirstOrThrow();
    expect(row.deleted_at).not.toBeNull();
    const samples = await w.s.db.selectFrom('inverter_samples').select('ts').where('device_id', '=', row.id).execute();
    expect(samples).toHaveLength(2);
    const events = await w.s.db.selectFrom('events').select(['code', 'ended_at']).where('device_id', '=', row.id).execute();
    expect(events.map((e) => e.code)).toEqual(['pvOvervoltage']);
    expect(events.every((e) => e.ended_at !== null)).toBe(true);
    // What is left: normal inverters and a battery with a warning.
    expect((await plant()).status).toBe('warning');
  });

  it('a deleted inverter that sends data again is back', async () => {
    await w.send(w.GA.sn, Date.now() - 1000, [
      { sn: w.sn.INV2, protocol: STRING, values: { activePower: 4000 }, faults: ['pvOvervoltage'] },
    ]);
    expect(await sns(w.O, '/api/v1/inverters?size=10&sort=createAt')).toContain(w.sn.INV2);
    expect(await getAs(w, w.O, `/api/v1/inverter/${w.sn.INV2}`)).toMatchObject({
      code: ErrorCode.ok,
      data: { power: 4000, status: 'fault' },
    });
  });

  it('deletes a battery by id and a meter by SN; foreign ones answer 404', async () => {
    const id = (await w.s.db.selectFrom('devices').select('id').where('sn', '=', w.sn.BAT).executeTakeFirstOrThrow()).id;
    expect(await postAs(w, w.P, `/api/v1/battery/${id}/delete`)).toMatchObject({ code: ErrorCode.notFound, data: null });
    expect(await postAs(w, w.visitor, `/api/v1/battery/${id}/delete`)).toMatchObject({
      code: ErrorCode.noPermission,
      data: null,
    });
    expect(await postAs(w, w.O, `/api/v1/battery/${id}/delete`)).toMatchObject({ code: ErrorCode.ok, data: null });
    expect(await sns(w.O, '/api/v1/batteries')).toEqual([]);
    expect(await getAs(w, w.O, `/api/v1/battery/${w.sn.BAT}/info`)).toMatchObject({ code: ErrorCode.notFound, data: null });
    expect(await postAs(w, w.P, `/api/v1/meter/${w.sn.MET}/delete`)).toMatchObject({ code: ErrorCode.notFound, data: null });
    expect(await postAs(w, w.O, `/api/v1/meter/${w.sn.MET}/master`)).toMatchObject({ code: ErrorCode.ok });
    expect(await postAs(w, w.O, `/api/v1/meter/${w.sn.MET}/delete`)).toMatchObject({ code: ErrorCode.ok, data: null });
    // A deleted master meter is no longer the plant's: grid energy comes from the inverters again.
    const after = await w.s.db
      .selectFrom('plants')
      .select('master_meter_id')
      .where('id', '=', w.plantA)
      .executeTakeFirstOrThrow();
    expect(after.master_meter_id).toBeNull();
    const days = await w.s.db
      .selectFrom('plant_day')
      .select(['day', 'grid_import_wh'])
      .where('plant_id', '=', w.plantA)
      .execute();
    expect(days.length).toBeGreaterThan(0);
    for (const d of days) {
      const inverters = await w.s.db
        .selectFrom('device_day')
        .innerJoin('devices', 'devices.id', 'device_day.device_id')
        .select((eb) => eb.fn.sum<number>('device_day.grid_import_wh').as('wh'))
        .where('devices.plant_id', '=', w.plantA)
        .where('devices.kind', '=', 'inverter')
        .where('devices.deleted_at', 'is', null)
        .where('device_day.day', '=', d.day)
        .executeTakeFirstOrThrow();
      expect(d.grid_import_wh).toBeCloseTo(Number(inverters.wh ?? 0), 3);
    }
    expect(await sns(w.O, '/api/v1/meters')).toEqual([]);
    expect((await getAs(w, w.O, '/api/v1/meter/status/count')).data).toMatchObject({ total: 0 });
    // The battery was the plant's only warning.
    const plant = await w.s.db.selectFrom('plants').select('status').where('id', '=', w.plantA).executeTakeFirstOrThrow();
    expect(plant.status).toBe('fault'); // INV2 is back with its fault
  });
});
