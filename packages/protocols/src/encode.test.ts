import { describe, expect, it } from 'vitest';
import { hybridInverter3p } from './definitions/hybrid-inverter.ts';
import { mtStringInverter } from './definitions/mt-inverter.ts';
import { testField as field, testPlan as plan } from './fixtures/fields.ts';
import { compile } from './plan.ts';

describe('encode', () => {
  it('builds contiguous blocks per function code, splitting at 125 registers and at wide gaps', () => {
    const p = plan(
      field('a', 0),
      field('b', 5, { dataType: 's32', count: 2 }),
      field('c', 100, { dataType: 'string', count: 40 }),
      field('d', 0, { functionCode: 4 }),
      field('e', 500),
    );
    const blocks = p.encode({ a: 1, b: -2, c: 'X', d: 4, e: 5 });
    expect(blocks.map(({ functionCode, address, registers }) => [functionCode, address, registers.length])).toEqual([
      [3, 0, 7],
      [3, 100, 40],
      [3, 500, 1],
      [4, 0, 1],
    ]);
    expect(blocks[0]!.registers).toEqual([1, 0, 0, 0, 0, 0xffff, 0xfffe]);
    const long = plan(...Array.from({ length: 130 }, (_, i) => field(`r${i}`, i)));
    expect(long.readRanges()).toEqual([
      { functionCode: 3, address: 0, count: 125 },
      { functionCode: 3, address: 125, count: 5 },
    ]);
  });

  it('writes SunSpec sentinels for absent values and uses the given scale factor', () => {
    const p = plan(
      field('W', 0, { dataType: 's16', scaleFactorField: 'W_SF', notImplemented: 'sunspec' }),
      field('W_SF', 1, { dataType: 's16', notImplemented: 'sunspec' }),
      field('Hz', 2, { notImplemented: 'sunspec' }),
    );
    expect(p.encode({ W: 3680, W_SF: 1 })[0]!.registers).toEqual([368, 1, 0xffff]);
    expect(p.decode(p.encode({ W: 3680, W_SF: 1 })).values).toEqual({ W: 3680, W_SF: 1, Hz: null });
  });

  it('clamps values beyond the register range', () => {
    const p = plan(field('u', 0), field('s', 1, { dataType: 's16' }));
    expect(p.decode(p.encode({ u: 70000, s: -40000 })).values).toEqual({ u: 65535, s: -32768 });
  });
});

describe('setting writes', () => {
  const p = compile(hybridInverter3p);

  it('encodes one writable field as a Modbus write (6 for one register, 16 for more)', () => {
    const capacity = p.field('batteryCapacity')!;
    expect(p.encodeField('batteryCapacity', 200)).toEqual({ functionCode: 6, address: capacity.address, registers: [200] });
    const mt = compile(mtStringInverter);
    expect(mt.encodeField('energyTotalPreset', 7000)).toEqual({
      functionCode: 16,
      address: mt.field('energyTotalPreset')!.address,
      registers: [1, 4464],
    });
  });

  it('refuses read-only fields, values out of range, unknown options and wrong types', () => {
    expect(() => p.encodeField('batterySoc', 50)).toThrow('field "batterySoc" is not writable');
    expect(() => p.encodeField('maxChargeCurrent', 351)).toThrow(RangeError);
    expect(() => p.encodeField('workMode', 9)).toThrow('field "workMode" has no option 9');
    expect(() => p.encodeField('batteryCapacity', '200')).toThrow(TypeError);
    expect(() => p.encodeField('nope', 1)).toThrow('unknown field "nope"');
  });

  it('merges the writes of a setting group into contiguous ranges', () => {
    const writes = p.encodeWrites({
      batteryType: 1,
      batteryEqualizationVoltage: 57.6,
      batteryAbsorptionVoltage: 56.4,
      batteryLowSoc: 20,
    });
    const base = p.field('batteryType')!.address;
    expect(writes).toEqual([
      { functionCode: 16, address: base, registers: [1, 576, 564] },
      { functionCode: 6, address: p.field('batteryLowSoc')!.address, registers: [20] },
    ]);
  });

  it('reads exactly the registers of one setting group', () => {
    // Battery type (0x62) … low voltage (0x78), Deye's three-phase battery settings.
    expect(p.readRanges({ groups: ['setting:batt'] })).toEqual([{ functionCode: 3, address: 0x62, count: 0x78 - 0x62 + 1 }]);
  });
});
