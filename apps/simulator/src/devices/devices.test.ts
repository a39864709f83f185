import { protocolPlan } from '@sunfleet/protocols';
import { describe, expect, it } from 'vitest';
import { Plant } from '../plant.ts';
import { dcPlant, madrid, newPlant, num, runPlant, stringPlant } from '../testing/plants.ts';

const noon = Date.parse('2025-06-20T14:00:00+02:00');
const MINUTE = 60_000;

describe('virtual devices', () => {
  it('raise a fault bit for a while, trip the inverter, then clear it', () => {
    const plant = newPlant(stringPlant({ climate: { sunny: 1 } }), 1);
    const inverter = plant.pvInverters[0]!;
    plant.advance(noon - 5 * MINUTE);
    inverter.faults.raise('gridOvervoltage', noon - MINUTE, 20 * MINUTE);
    const during = runPlant(plant, noon, 0.25, 300);
    for (const r of during) {
      expect(r.faults.ST00000001).toEqual(['gridOvervoltage']);
      expect(num(r.values.ST00000001!.runningState)).toBe(4);
      expect(num(r.values.ST00000001!.activePower)).toBe(0);
    }
    const after = runPlant(plant, noon + 30 * MINUTE, 0.1, 300);
    expect(after[0]!.faults.ST00000001).toEqual([]);
    expect(num(after[0]!.values.ST00000001!.activePower)).toBeGreaterThan(5000);
  });

  it('inject faults and warnings at the configured rate, from the protocol’s own codes', () => {
    const [spec, devices] = stringPlant();
    const plant = new Plant(spec, devices, { seed: 3, faultRate: 4 });
    const codes = new Set<string>();
    const plan = protocolPlan('sunfleet-string-3p')!;
    for (const r of runPlant(plant, noon, 24 * 5, 300)) for (const c of r.faults.ST00000001!) codes.add(c);
    expect(codes.size).toBeGreaterThan(3);
    for (const c of codes) expect(plan.bit(c)).toBeDefined();
  });

  it('answer reads from their register banks and refuse addresses outside the map', () => {
    const plant = newPlant(dcPlant(), 2);
    const env = plant.advance(noon);
    const hybrid = plant.hybrids[0]!;
    const blocks = hybrid.read(env);
    const first = blocks.find((b) => b.functionCode === 4 && b.address === 100)!;
    expect(hybrid.bank.read(4, 100, 10)).toEqual(first.registers.slice(0, 10));
    expect(hybrid.bank.read(4, 5000, 2)).toBeNull();
    const settings = hybrid.bank.read(3, hybrid.plan.field('workMode')!.address, 1)!;
    expect(settings).toEqual([0]); // export first (self-consumption)
    expect(hybrid.bank.write(100, [1])).toMatch(/illegal data address/);
  });

  it('keep the device clock in the settings registers', () => {
    const plant = newPlant(dcPlant(), 2);
    plant.hybrids[0]!.read(plant.advance(Date.parse('2025-06-20T14:05:00+02:00')));
    const clock = plant.hybrids[0]!.plan.field('timeYear')!.address;
    expect(plant.hybrids[0]!.bank.read(3, clock, 6)).toEqual([2025, 6, 20, 14, 5, 0]);
  });

  it('leave the blocks of battery packs that are not fitted out of the upload', () => {
    const plant = newPlant(dcPlant(), 2);
    const env = plant.advance(noon);
    const battery = plant.batteries[0]!;
    const blocks = battery.read(env);
    expect(blocks.some((b) => b.address === 100)).toBe(true);
    expect(blocks.some((b) => b.address === 120)).toBe(true);
    expect(blocks.some((b) => b.address === 140)).toBe(false);
    const { values } = battery.plan.decode(blocks);
    expect(values.slavePackCount).toBe(1);
    expect(values['pack3.soc']).toBeNull();
  });

  it('charge an AC-coupled battery from the string inverter’s surplus', () => {
    const plant = new Plant(
      { ...madrid, capacityKw: 9, type: 'ac', climate: { sunny: 1 } },
      [
        { kind: 'string', sn: 'ST00000009', ratedW: 8000, pvKwp: 9 },
        {
          kind: 'hybrid',
          sn: 'HY00000009',
          unit: 2,
          phases: 1,
          ratedW: 5000,
          pvKwp: 0,
          battery: { packs: 2, highVoltage: false },
        },
        { kind: 'meter', sn: 'MT00000009', unit: 3 },
      ],
      { seed: 4 },
    );
    const readings = runPlant(plant, Date.parse('2025-06-20T06:00:00+02:00'), 8);
    const charging = readings.filter((r) => num(r.values.HY00000009!.batteryPower) < -500);
    expect(charging.length).toBeGreaterThan(5);
    for (const r of charging) expect(num(r.values.HY00000009!.activePower)).toBeLessThan(0);
  });
});
