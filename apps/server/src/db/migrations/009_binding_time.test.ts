import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStore, type TestStore } from '../../../test/store.ts';
import { makeGateway, makePlant, uniqueSn } from '../../../test/telemetry.ts';
import * as m009 from './009_binding_time.ts';

let store: TestStore;
beforeAll(async () => {
  store = await openTestStore(1);
});
afterAll(() => store.close());

describe('009: binding times of existing gateways and devices', () => {
  it('starts after the last event raised for another plant (or none); otherwise all history stays', async () => {
    const db = store.db;
    await m009.down(db); // the store as it was before 009
    const earlier = await makePlant(db);
    const current = await makePlant(db);
    const moved = await makeGateway(db, null);
    const stayed = await makeGateway(db, null);
    const loose = await makeGateway(db, null);
    await sql`update gateways set plant_id = ${current} where id in (${moved.id}, ${stayed.id})`.execute(db);
    const device = async (gatewayId: number, plantId: number | null) =>
      (
        await sql<{ id: number }>`insert into devices (sn, gateway_id, plant_id, kind, protocol_id, created_at, updated_at)
          values (${uniqueSn('DEV')}, ${gatewayId}, ${plantId}, 'inverter', 'x', 1, 1) returning id`.execute(db)
      ).rows[0]!.id;
    const movedDevice = await device(moved.id, current);
    const stayedDevice = await device(stayed.id, current);
    const unboundDevice = await device(loose.id, null);
    const event = (plantId: number | null, gatewayId: number, deviceId: number | null, startedAt: number) =>
      sql`insert into events (plant_id, gateway_id, device_id, sn, source, code, level, text_en, text_es, started_at, created_at)
        values (${plantId}, ${gatewayId}, ${deviceId}, ${uniqueSn('E')}, 'device', 'busError', 'fault', 'x', 'x', ${startedAt}, 1)`.execute(
        db,
      );
    await event(earlier, moved.id, movedDevice, 1000);
    await event(null, moved.id, movedDevice, 1200); // raised while unbound
    await event(current, moved.id, movedDevice, 5000);
    await event(earlier, moved.id, null, 1500); // the gateway's own, for the earlier plant
    await event(current, stayed.id, stayedDevice, 3000);
    await event(earlier, loose.id, unboundDevice, 4000);

    await m009.up(db);
    const bound = async (table: 'devices' | 'gateways', id: number) =>
      Number((await db.selectFrom(table).select('bound_at').where('id', '=', id).executeTakeFirstOrThrow()).bound_at);
    expect(await bound('devices', movedDevice)).toBe(1201);
    expect(await bound('gateways', moved.id)).toBe(1501);
    expect(await bound('devices', stayedDevice)).toBe(0);
    expect(await bound('gateways', stayed.id)).toBe(0);
    expect(await bound('devices', unboundDevice)).toBe(0);
  });
});
