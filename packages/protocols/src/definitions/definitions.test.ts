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
      'sunfleet-string-1p',
      'sunfleet-pcs-3p',
      'sunfleet-micro-2',
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

  it('carries the dyStore3p remote setting groups', () => {
    expect(plan.definition.settingFamily).toBe('dyStore3p');
    expect(new Set(plan.settingGroups())).toEqual(
      new Set([
        'basic',
        'systime',
        'batt',
        'workMode',
        'gridInput',
        'gridInput2',
        'smartLoad',
        'advanced',
        'advanced2',
        'reset',
        'arc',
        'arcClear',
      ]),
    );
  });

  it('maps the device type register: 1, 10 and 11 are selling first; 2, 3, 94, 21, 93 and 22 each have their own name', () => {
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

  it('the battery-only PCS keeps the layout without PV inputs: no PV field, the rest at the hybrid registers', () => {
    const pcs = protocolPlan('sunfleet-pcs-3p')!;
    expect(pcs.definition.fields.filter((f) => /^pv\d/.test(f.key)).map((f) => f.key)).toEqual([]);
    expect(plan.field('pv1Voltage')).toBeDefined();
    for (const key of ['runningState', 'gridVoltageL1', 'gridCurrentL3', 'gridFrequency', 'activePower', 'batterySoc']) {
      expect(pcs.field(key)!.address, key).toBe(plan.field(key)!.address);
    }
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

describe('"not available" values of the shipped maps', () => {
  const meter = protocolPlan('sunfleet-meter-3p')!;
  const hybrid = protocolPlan('sunfleet-hybrid-3p')!;

  it('decodes a meter counter at the u32 maximum as absent, and keeps the rest of the frame', () => {
    const blocks = meter.encode({ activePower: 1500, importEnergy: 1234.56, exportEnergy: 78.9 }, { groups: ['realtime'] });
    const energy = blocks.find((b) => b.functionCode === 4 && b.address === 100)!;
    const registers = [...energy.registers];
    registers[0] = 0xffff; // importEnergy: 0xFFFFFFFF
    registers[1] = 0xffff;
    const frame = meter.decode(blocks.map((b) => (b === energy ? { ...b, registers } : b)));
    expect(frame.values.importEnergy).toBeNull();
    expect(frame.values.exportEnergy).toBe(78.9);
    expect(frame.values.activePower).toBe(1500);
  });

  it('decodes the 16-bit sentinels (0xFFFF unsigned, 0x8000 signed, all-ones bitfields) and NaN floats as absent', () => {
    const values = { batterySoc: 55, inverterTemperature: 31.5, runningState: 2, pvEnergyTotal: 100.5 };
    const decoded = hybrid.decode(hybrid.encode(values, { groups: ['realtime'] })).values;
    expect(decoded).toMatchObject(values);
    const sentinels = hybrid.encode({}, { groups: ['realtime'] });
    for (const block of sentinels) {
      const registers = [...block.registers];
      for (const key of ['batterySoc', 'inverterTemperature', 'runningState', 'faultBits']) {
        const f = hybrid.field(key)!;
        if (f.functionCode !== block.functionCode) continue;
        const at = f.address - block.address;
        if (at < 0 || at >= registers.length) continue;
        for (let k = 0; k < f.count; k++) registers[at + k] = f.dataType === 's16' ? 0x8000 : 0xffff;
      }
      block.registers = registers;
    }
    const frame = hybrid.decode(sentinels);
    expect(frame.values).toMatchObject({ batterySoc: null, inverterTemperature: null, runningState: null, faultBits: null });
    expect(frame.faults).toEqual([]);
    const nan = meter.decode(
      meter
        .encode({ frequency: 50 }, { groups: ['realtime'] })
        .map((b) => (b.functionCode === 4 && b.address === 0 ? { ...b, registers: b.registers.map(() => 0x7fc0) } : b)),
    );
    expect(nan.values.frequency).toBeNull();
  });

  it('still encodes fault bits of an otherwise absent bitfield', () => {
    const frame = hybrid.decode(hybrid.encode({}, { groups: ['realtime'], faults: ['fanWarning'] }));
    expect(frame.faults).toEqual(['fanWarning']);
  });
});

describe('unmappedBlock', () => {
  const meter = protocolPlan('sunfleet-meter-3p')!;
  const block = (functionCode: number, address: number, count: number) => ({
    functionCode,
    address,
    registers: new Array<number>(count).fill(0),
  });

  it('finds blocks that read none of the map registers: past its end, in a gap between fields', () => {
    expect(meter.unmappedBlock(meter.encode({}, { groups: ['realtime', 'info'] }))).toBe(-1);
    expect(meter.unmappedBlock([block(4, 100, 8), block(4, 1000, 10)])).toBe(1);
    expect(meter.unmappedBlock([block(4, 60, 20)])).toBe(0); // between realtime (0..) and energy (100..)
    expect(meter.unmappedBlock([block(3, 10, 5)])).toBe(0); // holding registers 0..1 only
  });

  it('accepts a block that overlaps the map only in part', () => {
    expect(meter.unmappedBlock([block(4, 90, 12)])).toBe(-1); // 90..101 reaches importEnergy at 100
    expect(meter.unmappedBlock([block(3, 0, 50)])).toBe(-1);
  });
});
