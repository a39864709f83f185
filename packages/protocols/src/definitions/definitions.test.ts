// Every shipped definition: valid, round-trips through encode/decode, and has the fields the
// portal relies on (device type, setting groups, fault texts in en and es).
import { describe, expect, it } from 'vitest';
import { validateDefinition } from '../definition.ts';
import { randomValue, seededRandom } from '../fixtures/random.ts';
import { compile } from '../plan.ts';
import { getProtocol, hybridInverter1p, hybridInverter3p, listProtocols, protocolPlan, protocols } from './index.ts';

describe('shipped protocol definitions', () => {
  for (const definition of Object.values(protocols)) {
    describe(definition.id, () => {
      it('is valid', () => {
        expect(validateDefinition(definition)).toEqual([]);
      });

      it('names every field, option and bit in en and es', () => {
        for (const field of definition.fields) {
          expect(field.name.en && field.name.es, field.key).toBeTruthy();
          for (const option of Object.values(field.enum ?? {})) expect(option.en && option.es, field.key).toBeTruthy();
          for (const bit of Object.values(field.bits ?? {})) expect(bit.en && bit.es, bit.code).toBeTruthy();
        }
      });

      it('round-trips random values through encode and decode', () => {
        const plan = compile(definition);
        const random = seededRandom(definition.id.length * 7919);
        for (let round = 0; round < 25; round++) {
          const values = Object.fromEntries(definition.fields.map((f) => [f.key, randomValue(f, random)]));
          const frame = plan.decode(plan.encode(values));
          expect(frame.missing).toEqual([]);
          for (const field of definition.fields) {
            const want = values[field.key]!;
            const got = frame.values[field.key];
            if (typeof want === 'string') expect(got, field.key).toBe(want);
            else if (field.dataType === 'float32') expect(got as number, field.key).toBeCloseTo(Math.fround(want), 6);
            else expect(Math.abs((got as number) - want), field.key).toBeLessThanOrEqual(Math.abs(field.scale ?? 1) / 2 + 1e-9);
          }
        }
      });

      it('reads in ranges a gateway can ask for', () => {
        const ranges = compile(definition).readRanges();
        for (const range of ranges) expect(range.count).toBeLessThanOrEqual(125);
        expect(ranges.length).toBeGreaterThan(0);
      });
    });
  }

  it('lists id, name and kind for the dictionary', () => {
    const list = listProtocols();
    expect(list.map((p) => p.id)).toEqual([
      'sunfleet-hybrid-1p',
      'sunfleet-hybrid-3p',
      'sunfleet-string-3p',
      'sunfleet-micro',
      'sunfleet-battery',
      'sunfleet-meter-3p',
      'sunfleet-weather',
    ]);
    expect(new Set(list.map((p) => p.kind))).toEqual(new Set(['inverter', 'battery', 'meter', 'weather']));
    expect(getProtocol('toString')).toBeUndefined();
    expect(protocolPlan('sunfleet-micro')).toBe(protocolPlan('sunfleet-micro'));
  });
});

describe('hybrid inverter family', () => {
  const plan = compile(hybridInverter3p);

  it('carries the portal remote setting groups', () => {
    expect(plan.settingGroups()).toEqual(['basic', 'systime', 'batt', 'workMode', 'gridInput', 'smartLoad']);
  });

  it('maps the device type register as spec §9 does', () => {
    const types = plan.field('deviceType')!.enum!;
    expect([1, 10, 11].map((v) => types[v]!.en)).toEqual(['Selling first', 'Selling first', 'Selling first']);
    expect(types[2]!.en).toBe('Single-phase');
    expect(types[3]!.en).toBe('Micro-inverter');
    expect(types[94]!.en).toBe('Three-phase high-voltage');
    expect(types[21]!.en).toBe('Single-phase high-voltage');
    expect(types[93]!.en).toBe('Three-phase low-voltage');
    expect(types[22]!.en).toBe('Single-phase (other)');
  });

  it('shares one layout between single- and three-phase models', () => {
    const one = compile(hybridInverter1p);
    const three = plan;
    for (const key of ['gridVoltageL1', 'gridCurrentL1', 'gridFrequency', 'batterySoc', 'pvEnergyTotal']) {
      expect(one.field(key)!.address, key).toBe(three.field(key)!.address);
    }
    expect(one.field('gridVoltageL2')).toBeUndefined();
  });

  it('reports fault and warning bits with their meaning', () => {
    const blocks = plan.encode(
      { runningState: 4 },
      { groups: ['realtime'], faults: ['gridOvervoltage', 'eepromFailure', 'fanWarning'] },
    );
    const frame = plan.decode(blocks);
    expect(frame.faults).toEqual(['gridOvervoltage', 'eepromFailure', 'fanWarning']);
    expect(plan.bit('eepromFailure')).toMatchObject({ level: 'fault', es: 'Fallo de EEPROM', field: 'faultBits', bit: 33 });
    expect(plan.bit('fanWarning')!.level).toBe('warning');
  });

  it('keeps energy counters as u32 in 0.1 kWh', () => {
    const frame = plan.decode(plan.encode({ pvEnergyTotal: 123456.7 }, { groups: ['realtime'] }));
    expect(frame.values.pvEnergyTotal).toBe(123456.7);
    expect(plan.field('pvEnergyTotal')).toMatchObject({ dataType: 'u32', count: 2, scale: 0.1 });
  });
});
