/**
 * Dispatch rules: power split over devices by capacity and never above it; a battery at its
 * reserve is not discharged; the upkeep lease held by one process at a time (a claimed row).
 * The physical effect on the simulator's storage inverters: `send.test.ts`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/harness.ts';
import { site } from '../../test/kits/events.ts';
import { hybridPlant, SimulatedChannel } from '../../test/sim-channel.ts';
import { allocate, planEvent, RESERVE_SOC, runDue } from './dispatch.ts';
import { releaseLease, takeLease, upsertEvent } from './store.ts';
import { asEvent } from './wire.ts';

describe('allocation', () => {
  it('splits in proportion to capacity, caps each at its capacity and gives the rest to the others', () => {
    expect(allocate(6000, [5000, 5000, 2000])).toEqual([2500, 2500, 1000]);
    const all = allocate(11000, [5000, 5000, 2000]);
    expect(all.map(Math.round)).toEqual([4583, 4583, 1833]);
    expect(all.reduce((x, y) => x + y, 0)).toBeCloseTo(11000);
    expect(allocate(99_000, [5000, 3000]).map(Math.round)).toEqual([5000, 3000]);
    expect(allocate(1000, [0, 4000])).toEqual([0, 1000]);
    expect(allocate(-5, [1000])).toEqual([0]);
  });
});

describe('dispatch in the store', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(() => s.close());

  it('a battery at or below its reserve gets no share and is not discharged; the others are, within their capacity', async () => {
    const channel = new SimulatedChannel();
    const a = await site(s);
    const low = await site(s);
    channel.attach(a.gatewaySn, hybridPlant([a.inverter.sn], 3));
    channel.attach(low.gatewaySn, hybridPlant([low.inverter.sn], 3));
    const t = Date.now();
    await s.db
      .insertInto('device_latest')
      .values({ device_id: low.inverter.id, ts: t, values: JSON.stringify({ batterySoc: RESERVE_SOC }), updated_at: t })
      .execute();
    await s.db
      .insertInto('device_latest')
      .values({ device_id: a.inverter.id, ts: t, values: JSON.stringify({ batterySoc: 80 }), updated_at: t })
      .execute();
    for (const [who, cap] of [
      [a, 4000],
      [low, 4000],
    ] as const) {
      const e = await s.db
        .insertInto('dr_enrollments')
        .values({
          user_id: who.owner.id,
          program_id: 'p',
          program_name: 'BESS-DR-2026',
          email: 'x@example.com',
          first_name: 'X',
          last_name: 'Y',
          service_country: null,
          service_region: null,
          service_locality: null,
          service_extended: null,
          service_street: null,
          service_postal: null,
          mailing_country: null,
          mailing_region: null,
          mailing_locality: null,
          mailing_extended: null,
          mailing_street: null,
          mailing_postal: null,
          source_account: '1',
          utility_account: `u${who.owner.id}`,
          station_id: null,
          state: 'accepted',
          terms_accepted_at: t,
          created_at: t,
          updated_at: t,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await s.db
        .insertInto('dr_enrollment_devices')
        .values({
          enrollment_id: e.id,
          device_id: who.inverter.id,
          sn: who.inverter.sn,
          manufacturer: 'S',
          model: 'H',
          install_date: null,
          charge_w: cap,
          discharge_w: cap,
          storage_wh: 10_000,
          resource_id: 'r',
          added_at: t,
          removed_at: null,
        })
        .execute();
    }
    const event = asEvent({
      id: 'soc',
      programID: 'p',
      intervalPeriod: { start: new Date(t - 1000).toISOString(), duration: 'PT1H' },
      intervals: [{ id: 0, payloads: [{ type: 'DISPATCH_SETPOINT', values: [-10] }] }],
    })!;
    const { row } = await upsertEvent(s.db, event, { ignoredReason: null, only: null }, t);
    await planEvent(s.db, row, t);
    // Planned: the whole 10 kW falls to the battery with charge, capped at its 4 kW.
    const planned = await s.db
      .selectFrom('dr_dispatches')
      .select(['device_sn', 'action', 'target_w'])
      .where('event_id', '=', row.id)
      .orderBy('id')
      .execute();
    expect(planned).toEqual([
      { device_sn: a.inverter.sn, action: 'discharge', target_w: 4000 },
      { device_sn: a.inverter.sn, action: 'restore', target_w: 0 },
    ]);
    // Its charge falls to the reserve before the command goes: the row is skipped, saying why.
    await s.db
      .updateTable('device_latest')
      .set({ values: JSON.stringify({ batterySoc: 15 }) })
      .where('device_id', '=', a.inverter.id)
      .execute();
    expect(await runDue({ db: s.db, commands: channel, requestedBy: async () => a.owner.id })).toBe(1);
    const rows = await s.db
      .selectFrom('dr_dispatches')
      .selectAll()
      .where('event_id', '=', row.id)
      .where('action', '=', 'discharge')
      .execute();
    expect(rows.map((r) => [r.device_sn, r.state])).toEqual([[a.inverter.sn, 'skipped']]);
    expect(rows[0]!.reason).toMatch(/15% at or below the 20% reserve/);
    expect(channel.sent).toEqual([]);
    // Claimed once: a second run finds nothing due.
    expect(await runDue({ db: s.db, commands: channel, requestedBy: async () => a.owner.id })).toBe(0);
  });

  it('one process holds the upkeep lease until it releases it or it expires', async () => {
    expect(await takeLease(s.db, 'test', 'p1', 60_000)).toBe(true);
    expect(await takeLease(s.db, 'test', 'p2', 60_000)).toBe(false);
    expect(await takeLease(s.db, 'test', 'p1', 60_000)).toBe(true);
    expect(await takeLease(s.db, 'test', 'p2', 60_000, Date.now() + 61_000)).toBe(true);
    expect(await takeLease(s.db, 'test', 'p1', 60_000)).toBe(false);
    await releaseLease(s.db, 'test', 'p2');
    expect(await takeLease(s.db, 'test', 'p1', 60_000)).toBe(true);
  });
});
