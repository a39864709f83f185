// Storage inverters follow the settings that force their battery: a Deye hybrid's time-of-use
// program slots (by the plant's local time: discharge at the slot's power down to its SOC,
// exporting; charge from the grid at its power when its charging includes Grid; power 0 holds)
// and the PCS's SunSpec model 124 storage control (StorCtl_Mod and rates, lapsing after the
// revert time). The effect is measured: battery power, state of charge, grid export, PV.
import { PROTOCOL_VERSION, registersToHex } from '@sunfleet/contracts';
import { validateSettingValues } from '@sunfleet/protocols';
import { describe, expect, it } from 'vitest';
import { executeCommand } from '../commands.ts';
import { type DeviceSpec, Plant } from '../plant.ts';
import { madrid } from '../testing/plants.ts';
import type { HybridInverter } from './hybrid-inverter.ts';

const noon = Date.parse('2025-06-20T13:30:00+02:00');
const evening = Date.parse('2025-06-20T21:00:00+02:00');
const hybrid1p: DeviceSpec = {
  kind: 'hybrid',
  sn: 'HY00000001',
  unit: 1,
  phases: 1,
  ratedW: 5000,
  pvKwp: 6.5,
  battery: { packs: 2, highVoltage: false },
};
const hybrid3p: DeviceSpec = { ...hybrid1p, phases: 3, ratedW: 10_000, pvKwp: 12, battery: { packs: 4, highVoltage: true } };
const pcs: DeviceSpec = {
  kind: 'hybrid',
  sn: 'PC00000001',
  unit: 1,
  phases: 3,
  pcs: true,
  ratedW: 5000,
  pvKwp: 0,
  battery: { packs: 3, highVoltage: false },
};

function plantOf(device: DeviceSpec, soc: number): { plant: Plant; inverter: HybridInverter } {
  const plant = new Plant({ ...madrid, capacityKw: 6.5, type: 'dc', climate: { sunny: 1 } }, [device], { seed: 3 });
  const inverter = plant.hybrids[0]!;
  inverter.battery!.soc = soc;
  return { plant, inverter };
}

/** Write setting groups as the server does: the protocol's own check, then a Modbus write command. */
function write(plant: Plant, inverter: HybridInverter, groups: Record<string, Record<string, number>>) {
  const writes = Object.entries(groups).flatMap(([group, values]) => {
    const checked = validateSettingValues(inverter.protocol, group, values);
    if (!checked.ok) throw new Error(checked.problems.map((p) => p.message).join('; '));
    return checked.writes.map((w) => ({ fc: w.functionCode as 6 | 16, addr: w.address, regs: registersToHex(w.registers) }));
  });
  const outcome = executeCommand(plant, {
    v: PROTOCOL_VERSION,
    id: 'w',
    ts: 0,
    type: 'write',
    device: inverter.sn,
    unit: 1,
    writes,
  });
  expect(outcome.reply.status).toBe('ok');
}

/** Run `minutes` from `start` in 1-minute steps: mean battery power (+ discharge), energy out (kWh), grid export (kWh), PV (kWh). */
function run(plant: Plant, inverter: HybridInverter, start: number, minutes: number) {
  let batteryWh = 0;
  let exportWh = 0;
  let pvWh = 0;
  const soc0 = inverter.battery!.soc;
  for (let k = 1; k <= minutes; k++) {
    plant.advance(start + k * 60_000);
    batteryWh += inverter.flows.batteryW / 60;
    exportWh += Math.max(0, -plant.gridW) / 60;
    pvWh += inverter.flows.pvDcW / 60;
  }
  return {
    meanW: (batteryWh * 60) / minutes,
    batteryKwh: batteryWh / 1000,
    exportKwh: exportWh / 1000,
    pvKwh: pvWh / 1000,
    socMoved: inverter.battery!.soc - soc0,
  };
}

const slots = (power: number, soc: number, charging: number) =>
  Object.fromEntries(
    [0, 400, 800, 1200, 1600, 2000].flatMap((time, i) => [
      [`program${i + 1}Time`, time],
      [`program${i + 1}Power`, power],
      [`program${i + 1}Soc`, soc],
      [`program${i + 1}Charging`, charging],
    ]),
  );
const forcedDischarge = (w: number, ratedW: number) => ({
  workMode: { timeOfUse: 255, workMode: 0, solarSell: 1, maxSellPower: ratedW, ...slots(w, 20, 0) },
});
const forcedCharge = (w: number) => ({
  workMode: { timeOfUse: 255, ...slots(w, 98, 1) },
  gridInput: { gridCharge: 1, gridChargeCurrent: 240 },
});

describe('Deye hybrid: time-of-use program slots', () => {
  it('a full battery at noon discharges at the slot power, exporting it; PV is not curtailed', () => {
    // PV 3 kWp: PV and the discharge fit the 5 kW rating (at the rating the discharge gives way, not PV).
    const small: DeviceSpec = { ...hybrid1p, pvKwp: 3 };
    const start = noon;
    const idle = plantOf(small, 1);
    idle.plant.advance(start);
    const base = run(idle.plant, idle.inverter, start, 30);
    const { plant, inverter } = plantOf(small, 1);
    plant.advance(start);
    write(plant, inverter, forcedDischarge(2500, 5000));
    const forced = run(plant, inverter, start, 30);
    expect(base.meanW).toBeLessThan(50);
    expect(forced.meanW).toBeGreaterThan(2400);
    expect(forced.meanW).toBeLessThanOrEqual(2501);
    expect(forced.batteryKwh).toBeCloseTo(1.25, 1);
    expect(forced.socMoved).toBeLessThan(-0.1);
    expect(forced.exportKwh - base.exportKwh).toBeGreaterThan(1.1);
    expect(base.pvKwh).toBeGreaterThan(0.8);
    expect(forced.pvKwh).toBeCloseTo(base.pvKwh, 3);
  });

  it('at its rating the inverter gives the discharge up before it curtails PV', () => {
    const { plant, inverter } = plantOf(hybrid1p, 1);
    plant.advance(noon);
    write(plant, inverter, forcedDischarge(2500, 5000));
    const r = run(plant, inverter, noon, 10);
    expect(r.pvKwh * 6).toBeGreaterThan(4.5);
    expect(r.meanW).toBeLessThan(500);
  });

  it('stops at the slot’s state of charge', () => {
    const { plant, inverter } = plantOf(hybrid1p, 0.25);
    plant.advance(evening);
    write(plant, inverter, forcedDischarge(5000, 5000));
    run(plant, inverter, evening, 60);
    expect(inverter.battery!.soc).toBeGreaterThanOrEqual(0.2 - 1e-9);
    expect(inverter.battery!.soc).toBeLessThan(0.201);
    expect(inverter.flows.batteryW).toBeLessThanOrEqual(0);
  });

  it('charges from the grid at the slot power when the slot charges from Grid and grid charging is on', () => {
    const { plant, inverter } = plantOf(hybrid3p, 0.4);
    plant.advance(evening);
    write(plant, inverter, forcedCharge(3000));
    const r = run(plant, inverter, evening, 30);
    expect(r.meanW).toBeCloseTo(-3000, -1);
    expect(r.socMoved).toBeGreaterThan(0.05);
    expect(plant.gridW).toBeGreaterThan(3000);
  });

  it('holds at power 0: neither charges from the PV surplus nor discharges', () => {
    for (const [t, soc] of [
      [noon, 0.5],
      [evening, 0.9],
    ] as const) {
      const { plant, inverter } = plantOf(hybrid1p, soc);
      plant.advance(t);
      write(plant, inverter, { workMode: { timeOfUse: 255, ...slots(0, 20, 0) } });
      const r = run(plant, inverter, t, 20);
      expect(Math.abs(r.meanW)).toBeLessThan(1);
      expect(r.socMoved).toBeCloseTo(0, 6);
    }
  });

  it('follows the slot of the plant’s local time, and only on the days time of use is on', () => {
    const { plant, inverter } = plantOf(hybrid1p, 0.9);
    const nine = Date.parse('2025-06-20T20:55:00+02:00'); // a Friday
    plant.advance(nine);
    write(plant, inverter, {
      workMode: {
        timeOfUse: 1 | (1 << 5), // Fridays
        workMode: 0,
        maxSellPower: 5000,
        ...slots(0, 20, 0),
        program6Time: 2100,
        program6Power: 3000,
      },
    });
    expect(run(plant, inverter, nine, 4).meanW).toBeCloseTo(0, 3);
    expect(run(plant, inverter, nine + 5 * 60_000, 5).meanW).toBeCloseTo(3000, -1);
    // Saturday at the same hour: time of use is off, self-consumption covers the house load only.
    const saturday = nine + 86_400_000 + 10 * 60_000;
    plant.advance(saturday);
    expect(run(plant, inverter, saturday, 5).meanW).toBeLessThan(2000);
  });
});

describe('PCS: SunSpec model 124 storage control', () => {
  it('discharges at OutWRte of WChaMax, charges from the grid at InWRte, holds at 0 %, and lapses after the revert time', () => {
    const { plant, inverter } = plantOf(pcs, 0.8);
    plant.advance(evening);
    write(plant, inverter, { setBattery: { storageMaxPower: 5000, storageControl: 2, dischargeRate: 60, rateRevertTime: 0 } });
    const out = run(plant, inverter, evening, 30);
    expect(out.meanW).toBeCloseTo(3000, -1);
    expect(out.exportKwh).toBeGreaterThan(0.5);
    expect(out.socMoved).toBeLessThan(-0.05);

    write(plant, inverter, { setBattery: { storageControl: 1, chargeRate: 40, chargeFromGrid: 1 } });
    const t1 = evening + 30 * 60_000;
    const into = run(plant, inverter, t1, 20);
    expect(into.meanW).toBeCloseTo(-2000, -1);
    expect(into.socMoved).toBeGreaterThan(0.02);

    write(plant, inverter, { setBattery: { storageControl: 3, chargeRate: 0, dischargeRate: 0 } });
    const t2 = t1 + 20 * 60_000;
    expect(Math.abs(run(plant, inverter, t2, 10).meanW)).toBeLessThan(1);

    // Rates that lapse after 5 minutes: then the PCS is back to its own work mode.
    write(plant, inverter, { setBattery: { storageControl: 2, dischargeRate: 80, rateRevertTime: 300 } });
    const t3 = t2 + 10 * 60_000;
    expect(run(plant, inverter, t3, 4).meanW).toBeCloseTo(4000, -1);
    expect(run(plant, inverter, t3 + 6 * 60_000, 5).meanW).toBeLessThan(3000);
  });
});
