/**
 * A dispatch as the battery feels it: an event planned and sent through the simulator's command
 * execution onto two hybrid inverters (single- and three-phase) and a PCS of one plant, then the
 * plant stepped minute by minute. A DISPATCH_SETPOINT of −8 kW discharges each battery at its
 * share (measured battery power, energy over the window, state of charge falling, grid export
 * rising); +6 kW charges them from the grid; 0 holds them at 0 W. The restore writes back every
 * field of every group the event changed, and the batteries go back to their own work mode.
 */
import { hexToRegisters } from '@sunfleet/contracts';
import { decodeSettingGroup, settingGroupReads } from '@sunfleet/protocols';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeviceSpec, Plant } from '../../../simulator/src/plant.ts';
import { startServer, type TestServer } from '../../test/harness.ts';
import { addDevice, site } from '../../test/kits/events.ts';
import { SimulatedChannel, simPlant } from '../../test/sim-channel.ts';
import { controlGroups } from './controls.ts';
import { planEvent, runDue } from './dispatch.ts';
import { type EventRow, upsertEvent } from './store.ts';
import { asEvent } from './wire.ts';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

interface Fleet {
  plant: Plant;
  channel: SimulatedChannel;
  owner: number;
  gatewaySn: string;
  devices: { id: number; sn: string; protocol: string }[];
}

/** A plant with two hybrids (PV 2 and 4 kWp, so PV and discharge fit their rating at any hour) and a PCS, enrolled with 4 kW each. */
async function fleet(programId: string, soc: number): Promise<Fleet> {
  const a = await site(s, { timezone: 'Europe/Madrid' });
  const three = await addDevice(s, a.gatewayId, a.plantId, 'inverter', 'sunfleet-hybrid-3p');
  const pcs = await addDevice(s, a.gatewayId, a.plantId, 'inverter', 'sunfleet-pcs-3p');
  const devices = [
    { ...a.inverter, protocol: 'sunfleet-hybrid-1p', rated: 5000 },
    { ...three, protocol: 'sunfleet-hybrid-3p', rated: 10_000 },
    { ...pcs, protocol: 'sunfleet-pcs-3p', rated: 5000 },
  ];
  const specs: DeviceSpec[] = [
    { kind: 'hybrid', sn: a.inverter.sn, phases: 1, ratedW: 5000, pvKwp: 2, battery: { packs: 2, highVoltage: false } },
    { kind: 'hybrid', sn: three.sn, phases: 3, ratedW: 10_000, pvKwp: 4, battery: { packs: 4, highVoltage: true } },
    { kind: 'hybrid', sn: pcs.sn, phases: 3, pcs: true, ratedW: 5000, pvKwp: 0, battery: { packs: 3, highVoltage: false } },
  ];
  const plant = simPlant(specs, 6);
  for (const h of plant.hybrids) h.battery!.soc = soc;
  const channel = new SimulatedChannel();
  channel.attach(a.gatewaySn, plant);
  const t = Date.now();
  const e = await s.db
    .insertInto('dr_enrollments')
    .values({
      user_id: a.owner.id,
      program_id: programId,
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
      utility_account: `u${a.owner.id}`,
      station_id: null,
      state: 'accepted',
      terms_accepted_at: t,
      created_at: t,
      updated_at: t,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const d of devices) {
    await s.db.updateTable('devices').set({ rated_power_w: d.rated, protocol_id: d.protocol }).where('id', '=', d.id).execute();
    await s.db
      .insertInto('device_latest')
      .values({ device_id: d.id, ts: t, values: JSON.stringify({ batterySoc: Math.round(soc * 100) }), updated_at: t })
      .execute();
    await s.db
      .insertInto('dr_enrollment_devices')
      .values({
        enrollment_id: e.id,
        device_id: d.id,
        sn: d.sn,
        manufacturer: 'Sunfleet',
        model: d.protocol,
        install_date: null,
        charge_w: 4000,
        discharge_w: 4000,
        storage_wh: 10_000,
        resource_id: 'r',
        added_at: t,
        removed_at: null,
      })
      .execute();
  }
  return { plant, channel, owner: a.owner.id, gatewaySn: a.gatewaySn, devices };
}

/** Every group the control may write, as the simulated device holds it now (flat by field). */
async function deviceSettings(f: Fleet, sn: string, protocol: string): Promise<Record<string, unknown>> {
  const groups = controlGroups(protocol)!;
  const job = await f.channel.run({
    gatewaySn: f.gatewaySn,
    deviceSn: sn,
    requestedBy: 0,
    body: {
      type: 'read',
      device: sn,
      reads: groups
        .flatMap((g) => settingGroupReads(protocol, g)!)
        .map((r) => ({ fc: r.functionCode, addr: r.address, count: r.count })),
    },
  });
  const blocks = (job.reply?.blocks ?? []).map((b) => ({
    functionCode: b.fc,
    address: b.addr,
    registers: hexToRegisters(b.regs),
  }));
  return Object.assign({}, ...groups.map((g) => decodeSettingGroup(protocol, g, blocks)));
}

/** Step the plant `minutes` from `start`: per device mean battery power (+ discharge) and energy (kWh), SOC moved, mean export. */
function measure(f: Fleet, start: number, minutes: number) {
  const hybrids = f.devices.map((d) => f.plant.hybrids.find((h) => h.sn === d.sn)!);
  const soc0 = hybrids.map((h) => h.battery!.soc);
  const wh = hybrids.map(() => 0);
  let exportWh = 0;
  let loadWh = 0;
  for (let k = 1; k <= minutes; k++) {
    f.plant.advance(start + k * 60_000);
    hybrids.forEach((h, i) => {
      wh[i]! += h.flows.batteryW / 60;
    });
    exportWh += -f.plant.gridW / 60;
    loadWh += f.plant.loadW / 60;
  }
  return {
    meanW: wh.map((x) => (x * 60) / minutes),
    kwh: wh.map((x) => x / 1000),
    socMoved: hybrids.map((h, i) => h.battery!.soc - soc0[i]!),
    exportW: (exportWh * 60) / minutes,
    loadW: (loadWh * 60) / minutes,
  };
}

async function dispatch(f: Fleet, programId: string, kw: number, start: number) {
  const event = asEvent({
    id: `e-${programId}`,
    programID: programId,
    intervalPeriod: { start: new Date(start - 1000).toISOString(), duration: 'PT1H' },
    intervals: [{ id: 0, payloads: [{ type: 'DISPATCH_SETPOINT', values: [kw] }] }],
  })!;
  // The store's upsert with or without the verdict argument (its signature is being extended).
  const upsert = upsertEvent as unknown as (...args: unknown[]) => Promise<{ row: EventRow }>;
  const { row } = await (upsert.length >= 3
    ? upsert(s.db, event, { ignoredReason: null, only: null }, start)
    : upsert(s.db, event, start));
  await planEvent(s.db, row, start);
  await runDue({ db: s.db, commands: f.channel, requestedBy: async () => f.owner, now: start });
  const rows = await s.db.selectFrom('dr_dispatches').selectAll().where('event_id', '=', row.id).orderBy('id').execute();
  return { eventId: row.id, rows, end: start - 1000 + 3_600_000 };
}

describe('a dispatch moves the batteries', () => {
  it('−8 kW over two hybrids and a PCS: each battery discharges at its share; energy, SOC and export follow; the restore puts every group back', async () => {
    const f = await fleet('phys-discharge', 1);
    const start = Date.now();
    f.plant.advance(start);
    const before = await Promise.all(f.devices.map((d) => deviceSettings(f, d.sn, d.protocol)));
    const { rows, end } = await dispatch(f, 'phys-discharge', -8, start);
    const sent = rows.filter((r) => r.action === 'discharge');
    expect(sent.map((r) => [r.state, Number(r.target_w), r.reason])).toEqual([
      ['succeeded', 2667, null],
      ['succeeded', 2667, null],
      ['succeeded', 2667, null],
    ]);
    // Everything the control may write was read before the write (for the restore).
    for (const [i, r] of sent.entries())
      expect(Object.keys(JSON.parse(r.previous_values!) as object).sort()).toEqual(Object.keys(before[i]!).sort());

    const m = measure(f, start, 30);
    for (const [i, w] of m.meanW.entries()) {
      // The PCS's rate is snapped to 0.1 % of 5 kW (5 W).
      expect(w, f.devices[i]!.sn).toBeGreaterThan(2667 - 10);
      expect(w).toBeLessThanOrEqual(2667 + 1);
      expect(m.kwh[i]).toBeCloseTo(2.667 / 2, 1);
      expect(m.socMoved[i]).toBeLessThan(-0.05);
    }
    // The plant exports what the batteries put out beyond the load (less conversion losses).
    expect(m.exportW).toBeGreaterThan(0.9 * 8000 - m.loadW);

    // The restore: every changed field of every group back as it was; the batteries leave forced discharge.
    await runDue({ db: s.db, commands: f.channel, requestedBy: async () => f.owner, now: end });
    const restore = await s.db
      .selectFrom('dr_dispatches')
      .select(['state', 'setting_group'])
      .where(
        'device_sn',
        'in',
        f.devices.map((d) => d.sn),
      )
      .where('action', '=', 'restore')
      .execute();
    expect(restore.map((r) => r.state)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    expect(restore.some((r) => r.setting_group === 'setBattery,pcsWorkModel')).toBe(true);
    for (const [i, d] of f.devices.entries()) expect(await deviceSettings(f, d.sn, d.protocol)).toEqual(before[i]);
    const after = measure(f, start + 30 * 60_000, 10);
    for (const w of after.meanW) expect(w).toBeLessThan(2000);
  });

  it('+6 kW charges each battery from the grid at its share, its SOC rising', async () => {
    const f = await fleet('phys-charge', 0.4);
    const start = Date.now();
    f.plant.advance(start);
    const { rows } = await dispatch(f, 'phys-charge', 6, start);
    expect(rows.filter((r) => r.action === 'charge').map((r) => [r.state, Number(r.target_w)])).toEqual([
      ['succeeded', 2000],
      ['succeeded', 2000],
      ['succeeded', 2000],
    ]);
    const m = measure(f, start, 20);
    for (const [i, w] of m.meanW.entries()) {
      expect(w, f.devices[i]!.sn).toBeCloseTo(-2000, -1);
      expect(m.socMoved[i]).toBeGreaterThan(0.02);
    }
    // Imported from the grid: the charge and the load, less what PV gives.
    expect(-m.exportW).toBeGreaterThan(6000 + m.loadW - 6000 * 0.5);
  });

  it('0 kW holds every battery at 0 W', async () => {
    const f = await fleet('phys-hold', 0.6);
    const start = Date.now();
    f.plant.advance(start);
    const { rows } = await dispatch(f, 'phys-hold', 0, start);
    expect(rows.filter((r) => r.action === 'hold').map((r) => r.state)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    const m = measure(f, start, 15);
    for (const [i, w] of m.meanW.entries()) {
      expect(Math.abs(w), f.devices[i]!.sn).toBeLessThan(1);
      expect(m.socMoved[i]).toBeCloseTo(0, 6);
    }
  });
});
