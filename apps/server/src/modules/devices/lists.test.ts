/**
 * The device lists and counts (inverters, batteries, meters, weather stations) on data that came
 * through ingest: columns, filters, sorts, paging, counts per status, who sees what, refusals.
 */

import { ErrorCode } from '@sunfleet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { someBadInput } from '../../../test/envelopes.ts';
import { dataAs, getAs, postAs, type World, world } from '../../../test/kits/devices.ts';
import { account } from '../../../test/kits/plants.ts';

let w: World;
beforeAll(async () => {
  w = await world();
}, 60_000);
afterAll(() => w.close());

type Row = Record<string, unknown> & { sn: string };
const list = (who: World['O'], url: string) => dataAs<{ total: number; list: Row[] }>(w, who, url);
const sns = (data: { list: Row[] }) => data.list.map((r) => r.sn);

describe('inverters', () => {
  it('lists the visible inverters in SN order with type, power and energy', async () => {
    const data = await list(w.O, '/api/v1/inverters?size=100');
    expect(data.total).toBe(3);
    expect(sns(data)).toEqual([w.sn.INV1, w.sn.INV2, w.sn.MIC].sort());
    const by = Object.fromEntries(data.list.map((r) => [r.sn, r]));
    expect(by[w.sn.INV1]).toMatchObject({
      alias: null,
      plant: { id: w.plantA, timezone: w.zone },
      gateway: { id: w.GA.id, sn: w.GA.sn },
      protocol: 'sunfleet-hybrid-3p',
      deviceType: 93,
      typeKey: 'threePhaseLowVoltage',
      ratedPower: 10_000,
      power: 3400,
      // pvEnergyTotal went 1000 → 1002.5 kWh today
      todayEnergy: 2500,
      totalEnergy: 1_002_500,
      status: 'normal',
      lastUpdate: new Date(w.now).toISOString(),
    });
    expect(by[w.sn.INV2]).toMatchObject({ typeKey: 'threePhaseHighVoltage', status: 'fault', power: 4900, todayEnergy: 1500 });
    expect(by[w.sn.MIC]).toMatchObject({ typeKey: 'micro', deviceType: 3, ratedPower: 800, power: 250, todayEnergy: 400 });
  });

  it('sorts by power, energy, rated power and status, both ways', async () => {
    expect(sns(await list(w.O, '/api/v1/inverters?sort=power&order=2'))).toEqual([w.sn.INV2, w.sn.INV1, w.sn.MIC]);
    expect(sns(await list(w.O, '/api/v1/inverters?sort=power&order=1'))).toEqual([w.sn.MIC, w.sn.INV1, w.sn.INV2]);
    expect(sns(await list(w.O, '/api/v1/inverters?sort=todayEnergy&order=1'))).toEqual([w.sn.MIC, w.sn.INV2, w.sn.INV1]);
    expect(sns(await list(w.O, '/api/v1/inverters?sort=ratedPower&order=2'))).toEqual([w.sn.INV2, w.sn.INV1, w.sn.MIC]);
    expect(sns(await list(w.O, '/api/v1/inverters?sort=status&order=2'))[0]).toBe(w.sn.INV2);
    expect(sns(await list(w.O, '/api/v1/inverters?order=2'))).toEqual([w.sn.INV1, w.sn.INV2, w.sn.MIC].sort().reverse());
  });

  it('pages on the server, in the default and in a computed order', async () => {
    const all = [w.sn.INV1, w.sn.INV2, w.sn.MIC].sort();
    const p1 = await list(w.O, '/api/v1/inverters?size=2&page=1');
    const p2 = await list(w.O, '/api/v1/inverters?size=2&page=2');
    expect([p1.total, p2.total]).toEqual([3, 3]);
    expect([...sns(p1), ...sns(p2)]).toEqual(all);
    const q2 = await list(w.O, '/api/v1/inverters?size=2&page=2&sort=power&order=2');
    expect(q2).toMatchObject({ total: 3 });
    expect(sns(q2)).toEqual([w.sn.MIC]);
    expect((await list(w.O, '/api/v1/inverters?size=2&page=3')).list).toEqual([]);
  });

  it('filters by status, type, plant, gateway and SN or alias', async () => {
    expect(sns(await list(w.O, '/api/v1/inverters?status=fault'))).toEqual([w.sn.INV2]);
    expect(sns(await list(w.O, '/api/v1/inverters?type=micro'))).toEqual([w.sn.MIC]);
    expect(sns(await list(w.O, '/api/v1/inverters?type=threePhaseLowVoltage'))).toEqual([w.sn.INV1]);
    expect((await list(w.O, '/api/v1/inverters?type=threePhase')).total).toBe(0);
    expect(sns(await list(w.admin, '/api/v1/inverters?type=singlePhase'))).toEqual([w.sn.INVU]);
    expect((await list(w.O, `/api/v1/inverters?plantId=${w.plantA}`)).total).toBe(3);
    expect((await list(w.O, `/api/v1/inverters?plantId=${w.plantB}`)).total).toBe(0);
    expect((await list(w.O, `/api/v1/inverters?gatewayId=${w.GA.id}`)).total).toBe(3);
    expect(sns(await list(w.O, `/api/v1/inverters?keyword=${w.sn.INV2.slice(1).toLowerCase()}`))).toEqual([w.sn.INV2]);
    expect((await list(w.O, '/api/v1/inverters?keyword=%25')).total).toBe(0);
  });

  it('counts per status with the other filters', async () => {
    expect((await getAs(w, w.O, '/api/v1/inverters/count')).data).toEqual({
      total: 3,
      normal: 2,
      offline: 0,
      warning: 0,
      fault: 1,
      upgrading: 0,
      off: 0,
    });
    expect((await getAs(w, w.O, '/api/v1/inverters/count?type=micro')).data).toMatchObject({ total: 1, normal: 1, fault: 0 });
    expect((await getAs(w, w.P, '/api/v1/inverters/count')).data).toMatchObject({ total: 1, normal: 1 });
  });

  it('shows each caller their own: owner, agent company (with its unbound gateway), visitor, other tenant, system administrator', async () => {
    expect(sns(await list(w.P, '/api/v1/inverters'))).toEqual([w.sn.INVB]);
    expect(sns(await list(w.visitor, '/api/v1/inverters'))).toEqual([w.sn.INV1, w.sn.INV2, w.sn.MIC].sort());
    const company = await list(w.admin, '/api/v1/inverters?size=100');
    expect(sns(company)).toEqual([w.sn.INV1, w.sn.INV2, w.sn.MIC, w.sn.INVU].sort());
    expect(company.list.find((r) => r.sn === w.sn.INVU)).toMatchObject({ plant: null, gateway: { sn: w.GU.sn } });
    const all = await list(w.sysadmin, '/api/v1/inverters?size=100');
    expect(sns(all)).toEqual([w.sn.INV1, w.sn.INV2, w.sn.MIC, w.sn.INVB, w.sn.INVU].sort());
  });

  it('refuses bad input (code 4) and a caller without the permission (code 2)', async () => {
    for (const q of ['size=101', 'page=0', 'sort=bogus', 'order=3', 'status=broken', 'type=hexagonal', 'plantId=0']) {
      const body = await getAs(w, w.O, `/api/v1/inverters?${q}`);
      expect(body, q).toMatchObject(someBadInput);
    }
    const t = Date.now();
    const role = await w.s.db
      .insertInto('company_roles')
      .values({
        company_id: w.companyId,
        name: 'Gateways only',
        permissions: JSON.stringify(['equip.view', 'gateway.view']),
        created_at: t,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const user = await account(w.s, { kind: 'company_user', companyId: w.companyId, roleId: role.id });
    for (const url of [
      '/api/v1/inverters',
      '/api/v1/inverters/count',
      '/api/v1/batteries',
      '/api/v1/meters',
      '/api/v1/meteorological',
    ]) {
      expect(await getAs(w, user, url), url).toMatchObject({ code: ErrorCode.noPermission, data: null });
    }
    expect((await getAs(w, user, '/api/v1/gateways')).code).toBe(ErrorCode.ok);
    expect((await w.s.call(null, 'GET', '/api/v1/inverters')).status).toBe(401);
  });
});

describe('batteries, meters and weather stations', () => {
  it('lists batteries with SOC, SOH, power and the packs of the system', async () => {
    const data = await list(w.O, '/api/v1/batteries');
    expect(data.total).toBe(1);
    expect(data.list[0]).toMatchObject({
      sn: w.sn.BAT,
      protocol: 'sunfleet-battery',
      soc: 77,
      soh: 97,
      power: -640,
      voltage: 51.5,
      current: -12.5,
      packs: 3,
      // pack 2 reports a cell imbalance (a warning bit)
      status: 'warning',
    });
    expect((await getAs(w, w.O, '/api/v1/batteries/count')).data).toMatchObject({ total: 1, normal: 0, warning: 1 });
    expect(sns(await list(w.O, '/api/v1/batteries?status=warning'))).toEqual([w.sn.BAT]);
    expect((await list(w.P, '/api/v1/batteries')).total).toBe(0);
    expect(sns(await list(w.O, '/api/v1/batteries?sort=soc&order=2'))).toEqual([w.sn.BAT]);
  });

  it('lists meters with power and today’s and lifetime import and export', async () => {
    const data = await list(w.O, '/api/v1/meters');
    expect(data.list).toHaveLength(1);
    expect(data.list[0]).toMatchObject({
      sn: w.sn.MET,
      power: -500,
      importToday: 250,
      exportToday: 500,
      importTotal: 300_250,
      exportTotal: 400_500,
      master: false,
    });
    expect((await getAs(w, w.O, '/api/v1/meter/status/count')).data).toMatchObject({ total: 1, normal: 1 });
    expect((await getAs(w, w.O, '/api/v1/meter/status/count?keyword=nomatch')).data).toMatchObject({ total: 0 });
  });

  it('lists weather stations with their readings', async () => {
    const data = await list(w.O, '/api/v1/meteorological?sort=irradiance&order=2');
    expect(data.list).toHaveLength(1);
    expect(data.list[0]).toMatchObject({
      sn: w.sn.WEA,
      irradiance: 640,
      ambientTemperature: 21.5,
      moduleTemperature: 38,
      windSpeed: 3.2,
      humidity: 40,
      dailyIrradiation: 2500,
    });
    expect((await getAs(w, w.O, '/api/v1/meteorological/status/count')).data).toMatchObject({ total: 1, normal: 1 });
    expect((await getAs(w, w.P, '/api/v1/meteorological/status/count')).data).toMatchObject({ total: 0 });
    expect(await getAs(w, w.O, '/api/v1/meteorological?sort=power')).toMatchObject({ code: ErrorCode.validation });
  });
});

describe('what each row lets its caller do', () => {
  const lists = ['/api/v1/inverters', '/api/v1/batteries', '/api/v1/meters', '/api/v1/meteorological'];
  const rights = (data: { list: Row[] }) => data.list.map((r) => ({ sn: r.sn, canEdit: r.canEdit, canDelete: r.canDelete }));

  it('the owner operates every device and deletes those of the kinds that are deleted', async () => {
    for (const url of lists) {
      const data = await list(w.O, `${url}?size=100`);
      expect(data.list.length, url).toBeGreaterThan(0);
      const deletable = !url.endsWith('meteorological');
      for (const r of rights(data)) expect(r, url).toEqual({ sn: r.sn, canEdit: true, canDelete: deletable });
    }
  });

  it('a visitor of the plant sees the rows with no edit and no delete, and the server refuses the delete', async () => {
    for (const url of lists) {
      const data = await list(w.visitor, `${url}?size=100`);
      expect(data.list.length, url).toBeGreaterThan(0);
      for (const r of rights(data)) expect(r, url).toEqual({ sn: r.sn, canEdit: false, canDelete: false });
    }
    expect((await postAs(w, w.visitor, `/api/v1/inverter/${w.sn.INV1}/delete`)).code).toBe(ErrorCode.noPermission);
  });

  it('a read-only account of the agent company sees no edit and no delete; its administrator both', async () => {
    const readOnly = await account(w.s, { kind: 'company_admin', companyId: w.companyId, readOnly: true });
    const admin = await list(w.admin, '/api/v1/inverters?size=100');
    const looker = await list(readOnly, '/api/v1/inverters?size=100');
    expect(sns(looker)).toEqual(sns(admin));
    for (const r of rights(admin)) expect(r).toEqual({ sn: r.sn, canEdit: true, canDelete: true });
    for (const r of rights(looker)) expect(r).toEqual({ sn: r.sn, canEdit: false, canDelete: false });
  });

  it('the same in a computed order (rows from the cached order)', async () => {
    const data = await list(w.visitor, '/api/v1/inverters?sort=power&order=2');
    for (const r of rights(data)) expect(r).toEqual({ sn: r.sn, canEdit: false, canDelete: false });
  });

  it('gateways: the owner operates its gateway, the visitor does not', async () => {
    const mine = await list(w.O, '/api/v1/gateways');
    expect(mine.list.find((g) => g.sn === w.GA.sn)).toMatchObject({ canEdit: true });
    const visited = await list(w.visitor, '/api/v1/gateways');
    expect(visited.list.map((g) => [g.sn, g.canEdit])).toEqual([[w.GA.sn, false]]);
  });
});
