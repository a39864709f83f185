import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStore, type TestStore } from '../../test/store.ts';
import { dataMessage, HYBRID, makeGateway, makePlant, uniqueSn } from '../../test/telemetry.ts';
import { silentLogger } from '../log.ts';
import { createIngest, type Ingest } from '../telemetry/ingest/index.ts';
import { startOfflineJob, sweepOffline } from './offline.ts';

const MIN = 60_000;
const T0 = Date.UTC(2025, 5, 10, 12, 0);

let store: TestStore;
let ingest: Ingest;
let clock = T0;
beforeAll(async () => {
  store = await openTestStore();
  ingest = createIngest({ db: store.db, dialect: store.dialect, log: silentLogger, flushMs: 20, now: () => clock });
});
afterAll(async () => {
  await ingest.close();
  await store.close();
});

async function upload(gatewaySn: string, sn: string, at: number) {
  clock = at;
  ingest.message(gatewaySn, 'data', dataMessage(at, [{ sn, protocol: HYBRID }]), at);
  await ingest.flush();
}
const sweep = (at: number) => sweepOffline({ db: store.db, now: () => at });
const row = <T extends 'devices' | 'gateways' | 'plants'>(table: T, id: number) =>
  store.db
    .selectFrom(table as 'plants')
    .select('status')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
const openEvents = (sn: string) =>
  store.db.selectFrom('events').select(['code', 'source', 'started_at', 'ended_at']).where('sn', '=', sn).orderBy('id').execute();

describe('offline detection', () => {
  it('marks a device and its gateway offline after three upload intervals of silence, once, and back on data', async () => {
    const plantId = await makePlant(store.db);
    const gw = await makeGateway(store.db, plantId, { uploadIntervalS: 60 });
    const inv = uniqueSn('INV');
    await upload(gw.sn, inv, T0);
    const device = await store.db.selectFrom('devices').select(['id', 'status']).where('sn', '=', inv).executeTakeFirstOrThrow();
    expect(device.status).toBe('normal');
    expect((await row('plants', plantId)).status).toBe('normal');

    expect(await sweep(T0 + 3 * MIN)).toEqual({ devices: 0, gateways: 0 });
    expect(await sweep(T0 + 3 * MIN + 1000)).toMatchObject({ devices: 1 });
    expect(await sweep(T0 + 10 * MIN)).toEqual({ devices: 0, gateways: 0 }); // already offline: nothing new
    const dev = await store.db.selectFrom('devices').select('status').where('id', '=', device.id).executeTakeFirstOrThrow();
    expect(dev.status).toBe('offline');
    expect((await row('plants', plantId)).status).toBe('offline');
    expect(await openEvents(inv)).toEqual([{ code: 'offline', source: 'rule', started_at: T0, ended_at: null }]);
    const gateway = await store.db.selectFrom('gateways').select(['online']).where('id', '=', gw.id).executeTakeFirstOrThrow();
    expect(gateway.online).toBe(0);
    expect(await openEvents(gw.sn)).toEqual([{ code: 'offline', source: 'rule', started_at: T0, ended_at: null }]);

    await upload(gw.sn, inv, T0 + 20 * MIN);
    const back = await store.db.selectFrom('devices').select('status').where('id', '=', device.id).executeTakeFirstOrThrow();
    expect(back.status).toBe('normal');
    expect((await row('plants', plantId)).status).toBe('normal');
    expect(await openEvents(inv)).toEqual([{ code: 'offline', source: 'rule', started_at: T0, ended_at: T0 + 20 * MIN }]);
    expect(await openEvents(gw.sn)).toEqual([{ code: 'offline', source: 'rule', started_at: T0, ended_at: T0 + 20 * MIN }]);
    expect(
      (await store.db.selectFrom('gateways').select('online').where('id', '=', gw.id).executeTakeFirstOrThrow()).online,
    ).toBe(1);
  });

  it('follows each gateway’s upload interval, and leaves upgrading devices alone', async () => {
    const plantId = await makePlant(store.db);
    const slow = await makeGateway(store.db, plantId, { uploadIntervalS: 300 });
    const [a, b] = [uniqueSn('INV'), uniqueSn('INV')];
    await upload(slow.sn, a, T0);
    await upload(slow.sn, b, T0);
    await store.db.updateTable('devices').set({ status: 'upgrading' }).where('sn', '=', b).execute();
    expect(await sweep(T0 + 14 * MIN)).toMatchObject({ devices: 0 });
    await sweep(T0 + 16 * MIN);
    const statuses = await store.db
      .selectFrom('devices')
      .select(['sn', 'status'])
      .where('sn', 'in', [a, b])
      .orderBy('sn')
      .execute();
    expect(Object.fromEntries(statuses.map((s) => [s.sn, s.status]))).toEqual({ [a]: 'offline', [b]: 'upgrading' });
    expect((await row('plants', plantId)).status).toBe('upgrading');
  });

  it('runs on a timer until stopped', async () => {
    const gw = await makeGateway(store.db, await makePlant(store.db), { uploadIntervalS: 10 });
    const inv = uniqueSn('INV');
    await upload(gw.sn, inv, T0);
    const job = startOfflineJob({ db: store.db, intervalMs: 10, now: () => T0 + 31_000, log: silentLogger });
    for (let i = 0; i < 100; i++) {
      const d = await store.db.selectFrom('devices').select('status').where('sn', '=', inv).executeTakeFirstOrThrow();
      if (d.status === 'offline') break;
      await new Promise((r) => setTimeout(r, 10));
    }
    await job.stop();
    expect((await store.db.selectFrom('devices').select('status').where('sn', '=', inv).executeTakeFirstOrThrow()).status).toBe(
      'offline',
    );
    expect(await job.runOnce()).toEqual({ devices: 0, gateways: 0 });
  });
});
