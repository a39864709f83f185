/**
 * Ingest caches each gateway's plant: a binding changed through the API reaches the data of the
 * very next message (npm start runs API and ingest in one process: deps.ingest).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../../test/harness.ts';
import { type Ingest, type IngestServer, ingestServer } from '../../../test/ingest.ts';
import { type Account, account, createPlant, gateway } from '../../../test/kits/plants.ts';
import { dataMessage, HYBRID, uniqueSn } from '../../../test/telemetry.ts';

let s: TestServer;
let ingest: Ingest;
let owner: Account;
let server: IngestServer;

beforeAll(async () => {
  server = await ingestServer();
  ({ s, ingest } = server);
  owner = await account(s);
});
afterAll(() => server.close());

describe('ingest after a binding change', () => {
  it('data after binding a gateway that was already sending lands in the plant at once', async () => {
    const gw = await gateway(s, null, 'KEY-CACHE');
    const inv = uniqueSn('INV');
    const t0 = Date.now() - 120_000;
    ingest.message(gw.sn, 'data', dataMessage(t0, [{ sn: inv, protocol: HYBRID }]), t0);
    await ingest.flush(); // the unbound gateway (no plant) is now cached
    const plantId = await createPlant(s, owner);
    expect(
      (await s.call(owner.token, 'POST', `/api/v1/plant/${plantId}/gateway`, { sn: gw.sn, key: 'KEY-CACHE' })).body.code,
    ).toBe(0);
    // Taken after the binding (a frame taken before it is the earlier owner's: ownership tests).
    const t1 = Date.now() + 1000;
    ingest.message(gw.sn, 'data', dataMessage(t1, [{ sn: inv, protocol: HYBRID }]), t1);
    await ingest.flush();
    const days = await s.db.selectFrom('plant_day').select('plant_id').where('plant_id', '=', plantId).execute();
    expect(days.length).toBe(1);
    const latest = await s.db
      .selectFrom('devices')
      .innerJoin('device_latest', 'device_latest.device_id', 'devices.id')
      .select(['devices.plant_id', 'device_latest.ts'])
      .where('devices.sn', '=', inv)
      .executeTakeFirstOrThrow();
    expect(latest).toEqual({ plant_id: plantId, ts: t1 });
  });
});
