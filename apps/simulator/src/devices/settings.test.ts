// Remote settings on the simulated inverters of every setting family: complete and valid from
// the start, out-of-range writes refused naming the field (nothing changes), and the physics
// following the power switch and the active power limit in the next reading.

import { registersToHex, settingFamilies } from '@sunfleet/contracts';
import {
  decodeSettingGroup,
  powerSwitchValues,
  settingGroupFields,
  settingGroupReads,
  settingValueProblem,
  stepOf,
  supportedSettings,
  validateSettingValues,
} from '@sunfleet/protocols';
import { describe, expect, it } from 'vitest';
import { executeCommand } from '../commands.ts';
import { makeDemoFleet } from '../demo.ts';
import { type DeviceSpec, Plant, type PlantSpec } from '../plant.ts';
import { madrid, newPlant, num, runPlant } from '../testing/plants.ts';
import type { VirtualDevice } from './device.ts';

const noon = Date.parse('2025-06-20T13:30:00+02:00');
const sunny = { ...madrid, climate: { sunny: 1 } };
const battery = (packs: number, highVoltage: boolean) => ({ packs, highVoltage });

/** One small plant per inverter protocol; the inverter under test is unit 1. */
const plants: Record<string, [PlantSpec, DeviceSpec[]]> = {
  'sunfleet-hybrid-1p': [
    { ...sunny, capacityKw: 6.5, type: 'dc' },
    [{ kind: 'hybrid', sn: 'HY00000001', unit: 1, phases: 1, ratedW: 5000, pvKwp: 6.5, battery: battery(2, false) }],
  ],
  'sunfleet-hybrid-3p': [
    { ...sunny, capacityKw: 12, type: 'dc' },
    [{ kind: 'hybrid', sn: 'HY00000001', unit: 1, phases: 3, ratedW: 10000, pvKwp: 12, battery: battery(4, true) }],
  ],
  'sunfleet-pcs-3p': [
    { ...sunny, capacityKw: 9, type: 'ac' },
    [
      { kind: 'hybrid', sn: 'PC00000001', unit: 1, phases: 3, pcs: true, ratedW: 5000, pvKwp: 0, battery: battery(3, false) },
      { kind: 'string', sn: 'ST00000001', unit: 2, ratedW: 8000, pvKwp: 9 },
    ],
  ],
  'sunfleet-string-3p': [
    { ...sunny, capacityKw: 30, type: 'grid' },
    [{ kind: 'string', sn: 'ST00000001', unit: 1, ratedW: 20000, pvKwp: 24 }],
  ],
  'sunfleet-string-1p': [
    { ...sunny, capacityKw: 5.5, type: 'grid' },
    [{ kind: 'string', sn: 'ST00000001', unit: 1, phases: 1, ratedW: 5000, pvKwp: 5.5 }],
  ],
  'sunfleet-micro': [
    { ...sunny, capacityKw: 1.7, type: 'grid' },
    [{ kind: 'micro', sn: 'MI00000001', unit: 1, ratedW: 1600, panelWp: 430 }],
  ],
  'sunfleet-micro-2': [
    { ...sunny, capacityKw: 0.86, type: 'grid' },
    [{ kind: 'micro', sn: 'MI00000001', unit: 1, panels: 2, ratedW: 800, panelWp: 430 }],
  ],
};

const inverterOf = (plant: Plant) => plant.devices.find((d) => d.unit === 1)!;

function write(device: VirtualDevice, values: Record<string, number>, group: string): void {
  const result = validateSettingValues(device.protocol, group, values);
  if (!result.ok) throw new Error(result.problems.map((p) => p.message).join('; '));
  for (const w of result.writes) expect(device.bank.write(w.address, w.registers)).toBeNull();
  device.settingsWritten();
}

const groupOf = (device: VirtualDevice, key: string) => device.plan.field(key)!.group.slice('setting:'.length);

describe('simulated devices of every setting family', () => {
  it('are in the demo fleet: every family has devices', () => {
    const families = new Set<string>();
    for (const g of makeDemoFleet({ count: 12 })) {
      for (const d of new Plant(g.plant, g.devices, { seed: 1 }).devices) {
        const family = d.plan.definition.settingFamily;
        if (family) families.add(family);
      }
    }
    expect(families).toEqual(new Set(settingFamilies.map((f) => f.id)));
  });

  it('cover exactly their family’s groups', () => {
    for (const id of Object.keys(plants)) {
      const support = supportedSettings(id)!;
      const family = settingFamilies.find((f) => f.id === support.family)!;
      expect(new Set(support.groups), id).toEqual(new Set(family.groups));
    }
  });

  for (const [id, spec] of Object.entries(plants)) {
    describe(id, () => {
      it('runs this protocol and answers every group with values its fields accept', () => {
        const plant = newPlant(spec, 1);
        const device = inverterOf(plant);
        expect(device.protocol).toBe(id);
        device.read(plant.advance(noon));
        for (const group of supportedSettings(id)!.groups) {
          const blocks = settingGroupReads(id, group)!.map((r) => ({
            functionCode: r.functionCode,
            address: r.address,
            registers: device.bank.read(r.functionCode, r.address, r.count)!,
          }));
          const values = decodeSettingGroup(id, group, blocks)!;
          for (const field of settingGroupFields(id, group)!) {
            if (field.access !== 'rw') continue;
            expect(settingValueProblem(field, values[field.key]), `${group}.${field.key} = ${values[field.key]}`).toBeNull();
          }
        }
      });

      it('refuses a write past a field’s range, naming the field, and keeps the old value', () => {
        const device = inverterOf(newPlant(spec, 1));
        for (const group of supportedSettings(id)!.groups) {
          for (const field of settingGroupFields(id, group)!) {
            if (field.access !== 'rw' || field.enum) continue;
            const wire = field.address;
            const before = device.bank.read(3, wire, field.count)!;
            // The registers of a value one step past the maximum, built without the validation.
            const block = device.plan
              .encode({ [field.key]: field.max! + stepOf(field)! }, { groups: [field.group] })
              .find((b) => b.functionCode === 3 && b.address <= wire && wire < b.address + b.registers.length)!;
            const registers = block.registers.slice(wire - block.address, wire - block.address + field.count);
            const error = device.bank.write(wire, registers);
            expect(error, field.key).toContain(field.key);
            expect(error).toMatch(/^illegal data value: /);
            expect(device.bank.read(3, wire, field.count), field.key).toEqual(before);
          }
          for (const field of settingGroupFields(id, group)!) {
            if (field.access !== 'rw' || !field.enum) continue;
            const outside = Math.max(...Object.keys(field.enum).map(Number)) + 1;
            expect(device.bank.write(field.address, [outside]), field.key).toContain(field.key);
          }
        }
      });

      it('answers an out-of-range write command with an error naming the field', () => {
        const plant = newPlant(spec, 1);
        const device = inverterOf(plant);
        const field = device.plan.field('activePowerLimit')!;
        const raw = Math.round((field.max! + stepOf(field)!) / (field.scale ?? 1));
        const outcome = executeCommand(plant, {
          v: 1,
          id: 'write-limit-01',
          ts: noon,
          type: 'write',
          device: device.sn,
          writes: [{ fc: 6, addr: field.address, regs: registersToHex([raw]) }],
        });
        expect(outcome.reply).toMatchObject({ status: 'error', error: expect.stringContaining('activePowerLimit') });
      });

      it('drops the AC power to 0 in the next reading when switched off, and produces again when on', () => {
        const plant = newPlant(spec, 1);
        const device = inverterOf(plant);
        const before = runPlant(plant, noon, 0.25, 300).at(-1)!;
        expect(num(before.values[device.sn]!.activePower)).not.toBe(0);
        const power = powerSwitchValues(id)!;
        write(device, { powerSwitch: power.off }, groupOf(device, 'powerSwitch'));
        const off = runPlant(plant, noon + 30 * 60_000, 0.25, 300);
        for (const r of off) {
          expect(num(r.values[device.sn]!.activePower)).toBe(0);
          expect(num(r.values[device.sn]!.runningState)).toBe(5);
        }
        write(device, { powerSwitch: power.on }, groupOf(device, 'powerSwitch'));
        const on = runPlant(plant, noon + 60 * 60_000, 0.25, 300).at(-1)!;
        expect(num(on.values[device.sn]!.activePower)).not.toBe(0);
      });

      it('caps the output at a lower active power limit', () => {
        const plant = newPlant(spec, 1);
        const device = inverterOf(plant);
        const field = device.plan.field('activePowerLimit')!;
        const rated = num(device.plan.decode(device.read(plant.advance(noon))).values.ratedPower);
        const free = runPlant(plant, noon, 0.25, 300).map((r) => Math.abs(num(r.values[device.sn]!.activePower)));
        // Half of what it puts out now, as the field takes it (% of rated power or W, on its step).
        const step = stepOf(field)!;
        const wanted = field.unit === '%' ? (50 * Math.max(...free)) / rated : Math.max(...free) / 2;
        const limit = Number((Math.round(wanted / step) * step).toFixed(6));
        const capW = field.unit === '%' ? (rated * limit) / 100 : limit;
        expect(capW).toBeGreaterThan(0);
        write(device, { activePowerLimit: limit }, groupOf(device, 'activePowerLimit'));
        const capped = runPlant(plant, noon + 20 * 60_000, 1, 300).map((r) => Math.abs(num(r.values[device.sn]!.activePower)));
        expect(Math.max(...capped)).toBeLessThanOrEqual(capW + 1);
        // The cap binds: without it the output would be higher.
        expect(Math.max(...capped)).toBeGreaterThan(capW * 0.9);
      });
    });
  }
});
