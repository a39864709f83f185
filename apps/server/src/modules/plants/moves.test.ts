/**
 * A gateway that moves to another plant (unbind and bind, or a new plant created with it) takes
 * its devices along, but not their history: the new plant sees their data from the binding on,
 * in every read (device detail, curves, energy, events, operation data, plant totals and curve),
 * and the earlier plant keeps its energy and events.
 */

import { ErrorCode } from '@sunfleet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../../test/harness.ts';
import { type Ingest, type IngestServer, ingestServer } from '../../../test/ingest.ts';
import { type Account, account, createPlant, gateway, uniqueName } from '../../../test/kits/plants.ts';
import { dataMessage, eventMessage, HYBRID, uniqueSn } from '../../../test/telemetry.ts';

let s: TestServer;
let ingest: Ingest;
let server: IngestServer;

beforeAll(async () => {
  server = await ingestServer();
  ({ s, ingest } = server);
});
afterAll(() => server.close());

const MIN = 60_000;
const day = (t: number) => new Date(t).toISOString().slice(0, 10);
const get = async (who: Account, url: string) => {
  const res = await s.call(who.token, 'GET', url);
  expect(res.body.code, `${url}: ${JSON.stringify(res.body)}`).toBe(ErrorCode.ok);
  return res.body.data as Record<string, unknown>;
};
const post = (who: Account, url: string, body?: unknown) => s.call(who.token, 'POST', url, body);
/**
 * `ago` before now, or the start of today when the `span` after it would cross midnight: a day's
 * energy and curve are that day's readings, so readings either side of midnight share no day.
 */
function sameDay(ago: number, span: number): number {
  const now = Date.now();
  return day(now - ago) === day(now - ago + span) ? now - ago : Date.parse(day(now));
}

/** One inverter frame at `ts` with its lifetime PV counter at `kwh`. */
async function frame(gatewaySn: string, sn: string, ts: number, kwh: number) {
  ingest.message(gatewaySn, 'data', dataMessage(ts, [{ sn, protocol: HYBRID, values: { pvEnergyTotal: kwh } }]), ts);
  await ingest.flush();
}
async function fault(gatewaySn: string, sn: string, ts: number) {
  ingest.message(gatewaySn, 'event', eventMessage({ ts, code: 'busError', level: 'fault', active: true, device: sn }), ts);
  await ingest.flush();
}

/** The earlier owner's plant with a gateway, an inverter, 2 kWh of generation and a fault. */
async function earlierOwner() {
  const owner = await account(s);
  const key = 'KEY-MOVE';
  const gw = await gateway(s, null, key);
  const plant = await createPlant(s, owner, { timezone: 'UTC', gateway: { sn: gw.sn, key } });
  // Bound an hour ago (the binding is now; the frames below are from the last half hour).
  await s.db
    .updateTable('gateways')
    .set({ bound_at: Date.now() - 60 * MIN })
    .where('id', '=', gw.id)
    .execute();
  ingest.forget();
  const inv = uniqueSn('INV');
  const t1 = sameDay(30 * MIN, 10 * MIN);
  await frame(gw.sn, inv, t1, 1000);
  await frame(gw.sn, inv, t1 + 10 * MIN, 1002);
  await fault(gw.sn, inv, t1 + 10 * MIN);
  return { owner, gw, key, plant, inv, before: [t1, t1 + 10 * MIN] };
}

/** What the new plant shows of the inverter, and what the earlier one keeps. */
async function expectFromBindingOn(
  a: Awaited<ReturnType<typeof earlierOwner>>,
  newOwner: Account,
  newPlant: number,
  boundAt: number,
) {
  const { inv } = a;
  // Before any data since the binding: nothing of the earlier owner's.
  const detail = await get(newOwner, `/api/v1/inverter/${inv}`);
  expect(detail).toMatchObject({ plant: { id: newPlant }, lastUpdate: null, todayEnergy: 0 });
  for (const t of a.before) {
    const curve = await get(newOwner, `/api/v1/inverter/${inv}/day?date=${day(t)}`);
    expect(curve.times).toEqual([]);
  }
  expect(((await get(newOwner, `/api/v1/inverter/${inv}/total`)).totals as { pv: number }).pv).toBe(0);
  const listed = ((await get(newOwner, '/api/v1/plants')).list as { id: number }[]).find((p) => p.id === newPlant);
  expect(listed).toMatchObject({ lastUpdate: null, totalEnergy: 0 });
  const inverters = (await get(newOwner, `/api/v1/plant/${newPlant}/inverters`)).list as { sn: string }[];
  expect(inverters).toEqual([expect.objectContaining({ sn: inv, lastUpdate: null, todayEnergy: 0 })]);
  expect((await get(newOwner, `/api/v1/event/${inv}`)).total).toBe(0);
  // Also for someone who sees both plants: the device's events start at its binding.
  const admin = await account(s, { kind: 'sysadmin' });
  expect((await get(admin, `/api/v1/event/${inv}`)).total).toBe(0);
  expect((await get(admin, `/api/v1/events?plantId=${a.plant}`)).total).toBe(1);
  const range = `startDate=${day(a.before[0]!)}&endDate=${day(Date.now() + 10 * MIN)}`;
  expect((await get(newOwner, `/api/v1/workdata/dynamic?sn=${inv}&${range}`)).total).toBe(0);

  // Data after the binding is the new plant's: 1 kWh, two samples.
  const t3 = Date.now() + 2 * MIN;
  await frame(a.gw.sn, inv, t3, 1005);
  await frame(a.gw.sn, inv, t3 + MIN, 1006);
  const after = await get(newOwner, `/api/v1/inverter/${inv}`);
  expect(after.lastUpdate).toBe(new Date(t3 + MIN).toISOString());
  // Today's energy counts when both samples fall on today (not so a few minutes before midnight).
  expect(after.todayEnergy).toBe(day(t3) === day(t3 + MIN) && day(t3) === day(Date.now()) ? 1000 : 0);
  const curve = await get(newOwner, `/api/v1/inverter/${inv}/day?date=${day(t3)}`);
  for (const t of curve.times as string[]) expect(Date.parse(t)).toBeGreaterThanOrEqual(boundAt);
  expect((curve.times as string[]).length).toBeGreaterThan(0);
  expect(((await get(newOwner, `/api/v1/inverter/${inv}/total`)).totals as { pv: number }).pv).toBeLessThanOrEqual(1000);
  const rows = await get(newOwner, `/api/v1/workdata/dynamic?sn=${inv}&${range}`);
  expect(rows.total).toBe(2);
  for (const r of rows.list as { ts: string }[]) expect(Date.parse(r.ts)).toBeGreaterThanOrEqual(boundAt);
  const plantTotal = (await get(newOwner, `/api/v1/plant/energy/${newPlant}/total`)).totals as { pv: number };
  expect(plantTotal.pv).toBeLessThanOrEqual(1000);
  for (const t of [...a.before, t3]) {
    const power = await get(newOwner, `/api/v1/plant/${newPlant}/power/day?date=${day(t)}`);
    for (const p of power.points as { time: string }[]) expect(Date.parse(p.time)).toBeGreaterThanOrEqual(boundAt - 5 * MIN);
  }
  expect((await get(newOwner, `/api/v1/events?plantId=${newPlant}`)).total).toBe(0);

  // The earlier plant keeps its curve, its 2 kWh and its fault (ended when the gateway left).
  const keptCurve = await get(a.owner, `/api/v1/plant/${a.plant}/power/day?date=${day(a.before[1]!)}`);
  const keptTimes = (keptCurve.points as { time: string; pv: number }[]).filter((p) => p.pv > 0).map((p) => Date.parse(p.time));
  expect(keptTimes.length).toBeGreaterThan(0);
  for (const t of keptTimes) expect(t).toBeLessThan(boundAt);
  const kept = (await get(a.owner, `/api/v1/plant/energy/${a.plant}/total`)).totals as { pv: number };
  expect(kept.pv).toBe(2000);
  const events = await get(a.owner, `/api/v1/events?plantId=${a.plant}`);
  expect(events.total).toBe(1);
  expect((events.list as { code: string; endedAt: string | null }[])[0]).toMatchObject({ code: 'busError' });
  expect((events.list as { endedAt: string | null }[])[0]!.endedAt).not.toBeNull();
}

describe('a gateway claimed for the first time', () => {
  it('takes everything it sent before the claim into its first plant, buffered frames too', async () => {
    const key = 'KEY-FIRST';
    const gw = await gateway(s, null, key);
    const inv = uniqueSn('INV');
    const t1 = sameDay(40 * MIN, 10 * MIN);
    await frame(gw.sn, inv, t1, 1000); // commissioning, before anyone claimed the gateway
    const owner = await account(s);
    const plant = await createPlant(s, owner, { timezone: 'UTC', gateway: { sn: gw.sn, key } });
    const refused = ingest.stats().badFrames.beforeBinding;
    await frame(gw.sn, inv, t1 + 10 * MIN, 1002); // kept while offline, uploaded after the claim
    expect(ingest.stats().badFrames.beforeBinding).toBe(refused);
    const curve = await get(owner, `/api/v1/inverter/${inv}/day?date=${day(t1)}`);
    expect((curve.times as string[]).map(Date.parse)).toEqual(expect.arrayContaining([t1, t1 + 10 * MIN]));
    const inverters = (await get(owner, `/api/v1/plant/${plant}/inverters`)).list as { sn: string }[];
    expect(inverters.map((i) => i.sn)).toEqual([inv]);
  });
});

describe('a gateway moving to another owner', () => {
  it('unbind and bind: the new plant sees its devices from the binding on; the earlier plant keeps its history', async () => {
    const a = await earlierOwner();
    expect((await post(a.owner, `/api/v1/gateway/${a.gw.sn}/unbind`)).body.code).toBe(ErrorCode.ok);
    const newOwner = await account(s);
    const newPlant = await createPlant(s, newOwner, { timezone: 'UTC' });
    const boundAt = Date.now();
    expect((await post(newOwner, `/api/v1/plant/${newPlant}/gateway`, { sn: a.gw.sn, key: a.key })).body.code).toBe(ErrorCode.ok);
    await expectFromBindingOn(a, newOwner, newPlant, boundAt);
  });

  it('POST plant with the gateway: the same', async () => {
    const a = await earlierOwner();
    expect((await post(a.owner, `/api/v1/gateway/${a.gw.sn}/unbind`)).body.code).toBe(ErrorCode.ok);
    const newOwner = await account(s);
    const boundAt = Date.now();
    const created = await post(newOwner, '/api/v1/plant', {
      name: uniqueName(),
      capacity: 5,
      type: 0,
      timezone: 'UTC',
      gateway: { sn: a.gw.sn, key: a.key },
    });
    expect(created.body.code).toBe(ErrorCode.ok);
    await expectFromBindingOn(a, newOwner, (created.body.data as { id: number }).id, boundAt);
  });

  it('a frame taken before the binding and uploaded after it is refused and counted', async () => {
    const a = await earlierOwner();
    expect((await post(a.owner, `/api/v1/gateway/${a.gw.sn}/unbind`)).body.code).toBe(ErrorCode.ok);
    const newOwner = await account(s);
    const newPlant = await createPlant(s, newOwner, { timezone: 'UTC' });
    expect((await post(newOwner, `/api/v1/plant/${newPlant}/gateway`, { sn: a.gw.sn, key: a.key })).body.code).toBe(ErrorCode.ok);
    const refused = ingest.stats().badFrames.beforeBinding;
    await frame(a.gw.sn, a.inv, Date.now() - 5 * MIN, 1003);
    expect(ingest.stats().badFrames.beforeBinding).toBe(refused + 1);
    const device = await s.db.selectFrom('devices').select('id').where('sn', '=', a.inv).executeTakeFirstOrThrow();
    const samples = await s.db.selectFrom('inverter_samples').select('ts').where('device_id', '=', device.id).execute();
    expect(samples.map((r) => Number(r.ts))).toEqual(a.before);
  });

  it('binding again to the plant it is in keeps the history', async () => {
    const a = await earlierOwner();
    expect((await post(a.owner, `/api/v1/plant/${a.plant}/gateway`, { sn: a.gw.sn, key: a.key })).body.code).toBe(ErrorCode.ok);
    const curve = await get(a.owner, `/api/v1/inverter/${a.inv}/day?date=${day(a.before[1]!)}`);
    expect((curve.times as string[]).map(Date.parse)).toContain(a.before[1]);
    expect(((await get(a.owner, `/api/v1/inverter/${a.inv}/total`)).totals as { pv: number }).pv).toBe(2000);
  });
});
