// Deye maps from the shared solarman-maps converted to definitions, checked with registers
// computed by hand from the Deye documentation conventions.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateDefinition } from './definition.ts';
import { readYaml, sharedDataDir } from './fixtures/shared-data.ts';
import { compile } from './plan.ts';
import { fromSolarmanMap, type SolarmanMap } from './solarman.ts';

const convert = (name: string) =>
  fromSolarmanMap(readYaml(path.join(sharedDataDir(), 'solarman-maps', `${name}.yaml`)) as SolarmanMap, { id: `deye-${name}` });

/** Registers at arbitrary addresses, one single-register block each. */
const registers = (words: Record<number, number>) =>
  Object.entries(words).map(([address, word]) => ({ functionCode: 3, address: Number(address), registers: [word] }));

describe('Deye maps from solarman-maps', () => {
  for (const name of ['deye_hybrid', 'deye_micro', 'deye_p3', 'deye_string']) {
    it(`${name} converts to a valid definition`, () => {
      const { definition, skipped } = convert(name);
      expect(validateDefinition(definition)).toEqual([]);
      expect(definition.fields.length).toBeGreaterThan(40);
      // Skips are explained, never silent.
      for (const skip of skipped) expect(skip.reason).not.toBe('');
    });
  }

  it('hybrid: u32 low word first, signed power, offset temperature, enums', () => {
    const plan = compile(convert('deye_hybrid').definition);
    const { values } = plan.decode(
      registers({
        0: 0x0300, // device type
        59: 2, // device state
        72: 0x86a0, // total battery charge, low word
        73: 0x0001, // high word → 100000 × 0.1 kWh
        182: 1250, // battery temperature: (1250 - 1000) × 0.1
        183: 5234, // battery voltage × 0.01
        190: 0xfc18, // battery power −1000 W
        16: 0x2710, // rated power low word
        17: 0x0000,
      }),
    );
    expect(values.totalBatteryCharge).toBe(10000);
    expect(values.batteryTemperature).toBeCloseTo(25, 10);
    expect(values.batteryVoltage).toBe(52.34);
    expect(values.batteryPower).toBe(-1000);
    expect(values.deviceRatedPower).toBe(1000);
    expect(plan.field('device')!.enum![values.device as number]!.en).toBe('Single-Phase Hybrid Inverter');
    expect(plan.field('deviceState')!.enum![values.deviceState as number]!.en).toBe('Normal');
  });

  it('hybrid: serial number string and alarm bits over two low-word-first registers', () => {
    const plan = compile(convert('deye_hybrid').definition);
    const frame = plan.decode(
      registers({
        3: 0x3231, // "21"
        4: 0x3039,
        5: 0x3837,
        6: 0x3635,
        7: 0x3433,
        101: 0x0002, // low word: bit 1 fan failure
        102: 0x4000, // high word: bit 30 battery loss
      }),
    );
    expect(frame.values.deviceSerialNumber).toBe('2109876543');
    expect(frame.faults).toEqual(['deviceAlarm.fanFailure', 'deviceAlarm.batteryLoss']);
    expect(plan.bit('deviceAlarm.batteryLoss')).toMatchObject({ field: 'deviceAlarm', bit: 30, en: 'Battery loss' });
  });

  it('string inverter: total production counter', () => {
    const plan = compile(convert('deye_string').definition);
    const { values } = plan.decode(registers({ 63: 0x5678, 64: 0x0012 }));
    expect(values.totalProduction).toBe((0x12 * 65536 + 0x5678) / 10);
  });

  it('micro-inverter: per-input production counters', () => {
    const plan = compile(convert('deye_micro').definition);
    const field = plan.field('totalProduction1')!;
    const { values } = plan.decode(registers({ [field.address]: 1234, [field.address + 1]: 0 }));
    expect(values.totalProduction1).toBe(123.4);
  });

  it('three-phase: per-variant scale list takes the chosen variant', () => {
    const map = readYaml(path.join(sharedDataDir(), 'solarman-maps', 'deye_p3.yaml')) as SolarmanMap;
    const lv = compile(fromSolarmanMap(map, { id: 'p3-lv', scaleVariant: 0 }).definition);
    const hv = compile(fromSolarmanMap(map, { id: 'p3-hv', scaleVariant: 2 }).definition);
    const blocks = registers({ 516: 500, 517: 0 });
    expect(lv.decode(blocks).values.totalBatteryCharge).toBe(50);
    expect(hv.decode(blocks).values.totalBatteryCharge).toBe(500);
  });

  it('writable items become setting fields that encode a Modbus write', () => {
    const plan = compile(convert('deye_hybrid').definition);
    const writable = plan.definition.fields.filter((f) => f.access === 'rw');
    expect(writable.length).toBeGreaterThan(10);
    expect(writable.every((f) => f.group.startsWith('setting:'))).toBe(true);
    const capacity = plan.field('batteryCapacity')!;
    expect(plan.encodeField('batteryCapacity', 200)).toEqual({ functionCode: 6, address: capacity.address, registers: [200] });
  });
});
