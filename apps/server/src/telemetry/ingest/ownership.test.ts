/**
 * A device answers to its bound gateway only: another tenant's gateway reporting its SN cannot
 * revive, move or write into it, whether the device is live or deleted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type IngestStore, openIngestStore } from '../../../test/ingest.ts';
import { dataMessage, HYBRID, makeGateway, makePlant, uniqueSn } from '../../../test/telemetry.ts';

const T0 = Date.UTC(2025, 5, 10, 10, 0, 0);
const MIN = 60_000;

let store: IngestStore;
beforeAll(async () => {
  store = await openIngestStore();
});
afterAll(() => store.close());

const device = (sn: string) => store.db.selectFrom('devices').selectAll().where('sn', '=', sn).executeTakeFirstOrThrow();
const sampleTimes = async (deviceId: number) =>
  (await store.db.selectFrom('inverter_samples').select('ts').where('device_id', '=', deviceId).orderBy('ts').execute()).map(
    (r) => Number(r.ts),
  );
const send = async (gatewaySn: string, sn: string, ts: number) => {
  store.ingest.message(gatewaySn, 'data', dataMessage(ts, [{ sn, protocol: HYBRID }]), ts);
  await store.ingest.flush();
};

describe('a deleted device reported by another gateway', () => {
  it('is refused and counted, keeps its owner, and its own gateway still revives it', async () => {
    const victimPlant = await makePlant(store.db);
    const intruderPlant = await makePlant(store.db);
    const victim = await makeGateway(store.db, victimPlant);
    const intruder = await makeGateway(store.db, intruderPlant);
    const inv = uniqueSn('INV');
    await send(victim.sn, inv, T0);
    const { id } = await device(inv);
    // What the device delete API does: soft delete, then ingest forgets its entry.
    await store.db
      .updateTable('devices')
      .set({ deleted_at: T0 + MIN })
      .where('id', '=', id)
      .execute();
    store.ingest.forget({ deviceSn: inv });

    const before = store.ingest.stats().badFrames.foreignDevice;
    await send(intruder.sn, inv, T0 + 2 * MIN);
    expect(store.ingest.stats().badFrames.foreignDevice).toBe(before + 1);
    expect(await device(inv)).toMatchObject({ id, gateway_id: victim.id, plant_id: victimPlant, deleted_at: T0 + MIN });
    expect(await sampleTimes(id)).toEqual([T0]);
    expect(await store.db.selectFrom('devices').select('id').where('sn', '=', inv).execute()).toHaveLength(1);

    await send(victim.sn, inv, T0 + 3 * MIN);
    expect(store.ingest.stats().badFrames.foreignDevice).toBe(before + 1);
    expect(await device(inv)).toMatchObject({ id, gateway_id: victim.id, plant_id: victimPlant, deleted_at: null });
    expect(await sampleTimes(id)).toEqual([T0, T0 + 3 * MIN]);
  });

  it('a live device reported by another gateway is refused too, and the owner’s frames still count', async () => {
    const ownerPlant = await makePlant(store.db);
    const owner = await makeGateway(store.db, ownerPlant);
    const other = await makeGateway(store.db, await makePlant(store.db));
    const inv = uniqueSn('INV');
    await send(owner.sn, inv, T0);
    const before = store.ingest.stats().badFrames.foreignDevice;
    await send(other.sn, inv, T0 + MIN);
    await send(owner.sn, inv, T0 + 2 * MIN);
    expect(store.ingest.stats().badFrames.foreignDevice).toBe(before + 1);
    const row = await device(inv);
    expect(row).toMatchObject({ gateway_id: owner.id, plant_id: ownerPlant });
    expect(await sampleTimes(row.id)).toEqual([T0, T0 + 2 * MIN]);
  });
});
