/**
 * Every overview route against another tenant's plant or device (path id, query plantId, body
 * plantId, SN): a non-zero code and no data. A visitor the plant is shared with reads everything
 * but may not set the master meter nor attach a station (2).
 */
import { companyGrantable, ErrorCode } from '@sunfleet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { someBadInput } from '../../../test/envelopes.ts';
import { type OverviewServer, overviewServer } from '../../../test/kits/plant-energy.ts';
import { type Account, account, createPlant, gateway } from '../../../test/kits/plants.ts';
import { HYBRID, METER, uniqueSn, WEATHER } from '../../../test/telemetry.ts';

let o: OverviewServer;
let owner: Account;
let visitor: Account;
let stranger: Account;
let plantId: number;
const INV = uniqueSn('INV');
const MET = uniqueSn('MET');
const WS = uniqueSn('WS');

beforeAll(async () => {
  o = await overviewServer();
  owner = await account(o.s);
  visitor = await account(o.s);
  // Another tenant's administrator holding every company permission: only the object scope stops them.
  const t = Date.now();
  const company = await o.s.db
    .insertInto('companies')
    .values({ name: 'Other Co', permissions: JSON.stringify(companyGrantable), created_at: t, updated_at: t })
    .returning('id')
    .executeTakeFirstOrThrow();
  stranger = await account(o.s, { kind: 'company_admin', companyId: company.id });
  plantId = await createPlant(o.s, owner, { timezone: 'UTC', valuationMethod: 'constant', price: 0.2 });
  await o.s.db
    .insertInto('plant_shares')
    .values({ plant_id: plantId, user_id: visitor.id, role: 'visitor', created_at: t })
    .execute();
  const gw = await gateway(o.s, plantId);
  await o.send(gw.sn, t - 60_000, [
    { sn: INV, protocol: HYBRID },
    { sn: MET, protocol: METER },
    { sn: WS, protocol: WEATHER },
  ]);
});
afterAll(() => o.close());

const reads = () => [
  `/api/v1/plant/${plantId}/realtime`,
  `/api/v1/plant/${plantId}/power/day`,
  `/api/v1/plant/${plantId}/power/day?date=2025-01-01`,
  `/api/v1/plant/${plantId}/power/month`,
  `/api/v1/plant/${plantId}/power/year`,
  `/api/v1/plant/${plantId}/power/total`,
  `/api/v1/plant/energy/${plantId}/flow`,
  `/api/v1/plant/energy/${plantId}/generation/use`,
  `/api/v1/plant/energy/${plantId}/day`,
  `/api/v1/plant/energy/${plantId}/month`,
  `/api/v1/plant/energy/${plantId}/year`,
  `/api/v1/plant/energy/${plantId}/total`,
  `/api/v1/weather?plantId=${plantId}`,
  `/api/v1/getWeatherStationInfo?plantId=${plantId}`,
  `/api/v1/plant/meteorological/${plantId}/realtime`,
  `/api/v1/meteorological/${WS}/realtime`,
  `/api/v1/meteorological/${WS}/day`,
  `/api/v1/inverter/${INV}/flow`,
];

describe('overview access', () => {
  it("answers another tenant's plant or device with a non-zero code and no data", async () => {
    for (const url of reads()) {
      const body = (await o.s.call(stranger.token, 'GET', url)).body;
      expect(body.code, url).not.toBe(ErrorCode.ok);
      expect(body.data, url).toBeNull();
    }
    const master = (await o.s.call(stranger.token, 'POST', `/api/v1/meter/${MET}/master`)).body;
    expect(master).toMatchObject({ code: ErrorCode.notFound, data: null });
    const attach = (await o.s.call(stranger.token, 'POST', '/api/v1/saveAuthInfo', { plantId, sn: WS })).body;
    expect(attach).toMatchObject({ code: ErrorCode.plantMissing, data: null });
    // Their own plant, the victim's station: not behind their gateways.
    const own = await createPlant(o.s, stranger, { timezone: 'UTC' });
    expect((await o.s.call(stranger.token, 'POST', '/api/v1/saveAuthInfo', { plantId: own, sn: WS })).body).toMatchObject({
      code: ErrorCode.notFound,
      data: null,
    });
    const plantRow = await o.s.db
      .selectFrom('plants')
      .select('master_meter_id')
      .where('id', '=', plantId)
      .executeTakeFirstOrThrow();
    expect(plantRow.master_meter_id).toBeNull();
  });

  it('lets a visitor read everything, but not set the master meter nor attach a station', async () => {
    for (const url of reads()) {
      const body = (await o.s.call(visitor.token, 'GET', url)).body;
      expect(body.code, url).toBe(ErrorCode.ok);
      expect(body.data, url).not.toBeNull();
    }
    expect((await o.s.call(visitor.token, 'POST', `/api/v1/meter/${MET}/master`)).body).toMatchObject({
      code: ErrorCode.noPermission,
      data: null,
    });
    expect((await o.s.call(visitor.token, 'POST', '/api/v1/saveAuthInfo', { plantId, sn: WS })).body).toMatchObject({
      code: ErrorCode.noPermission,
      data: null,
    });
    // The owner may.
    expect((await o.s.call(owner.token, 'POST', `/api/v1/meter/${MET}/master`)).body).toMatchObject({ code: ErrorCode.ok });
    expect((await o.s.call(owner.token, 'POST', '/api/v1/saveAuthInfo', { plantId, sn: WS })).body).toMatchObject({
      code: ErrorCode.ok,
    });
  });

  it('refuses bad input with code 4', async () => {
    for (const url of [
      `/api/v1/plant/${plantId}/power/month?date=2025-13-01`,
      `/api/v1/plant/energy/${plantId}/day?date=yesterday`,
      `/api/v1/plant/energy/${plantId}/generation/use?period=week`,
      '/api/v1/weather?plantId=abc',
      `/api/v1/meteorological/${WS}/day?date=2025-02-29`,
    ]) {
      expect((await o.s.call(owner.token, 'GET', url)).body, url).toMatchObject(someBadInput);
    }
    expect((await o.s.call(owner.token, 'POST', '/api/v1/saveAuthInfo', { plantId })).body).toMatchObject({
      code: ErrorCode.validation,
    });
  });
});
