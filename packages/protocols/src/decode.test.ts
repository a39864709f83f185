import { describe, expect, it } from 'vitest';
import { registerBlockProblem } from './decode.ts';
import { testField as field, testPlan as plan } from './fixtures/fields.ts';

const block = (address: number, ...registers: number[]) => ({ functionCode: 3, address, registers });

describe('decode', () => {
  it('reads byte- and word-swapped 32-bit values', () => {
    const p = plan(
      field('abcd', 0, { dataType: 'u32', count: 2 }),
      field('cdab', 2, { dataType: 'u32', count: 2, wordSwap: true }),
      field('badc', 4, { dataType: 'u32', count: 2, byteSwap: true }),
      field('dcba', 6, { dataType: 'u32', count: 2, byteSwap: true, wordSwap: true }),
    );
    const { values } = p.decode([block(0, 0x1234, 0x5678, 0x5678, 0x1234, 0x3412, 0x7856, 0x7856, 0x3412)]);
    expect(values).toEqual({ abcd: 0x12345678, cdab: 0x12345678, badc: 0x12345678, dcba: 0x12345678 });
  });

  it('reads signed, 64-bit and float values', () => {
    const p = plan(
      field('s16', 0, { dataType: 's16' }),
      field('s32', 1, { dataType: 's32', count: 2 }),
      field('s64', 3, { dataType: 's64', count: 4 }),
      field('f32', 7, { dataType: 'float32', count: 2 }),
      field('lowByte', 9, { dataType: 's16', skipBytes: 1 }),
    );
    const { values } = p.decode([block(0, 0xfc18, 0xffff, 0xfffe, 0xffff, 0xffff, 0xffff, 0xfffd, 0x449a, 0x5225, 0x12f6)]);
    expect(values).toMatchObject({ s16: -1000, s32: -2, s64: -3, lowByte: -10 });
    expect(values.f32).toBeCloseTo(1234.567, 3);
  });

  it('scales by dividing where the scale is a reciprocal, so 0.1 steps stay exact', () => {
    const p = plan(field('v', 0, { scale: 0.1 }), field('t', 1, { scale: 0.1, offset: -100 }), field('k', 2, { scale: 10 }));
    expect(p.decode([block(0, 3, 1250, 7)]).values).toEqual({ v: 0.3, t: 25, k: 70 });
  });

  it('applies SunSpec scale factors and sentinels', () => {
    const sunspec = { notImplemented: 'sunspec' as const };
    const p = plan(
      field('W', 0, { dataType: 's16', scaleFactorField: 'W_SF', ...sunspec }),
      field('W_SF', 1, { dataType: 's16', ...sunspec }),
      field('A', 2, { scaleFactorField: 'A_SF', ...sunspec }),
      field('A_SF', 3, { dataType: 's16', ...sunspec }),
      field('WH', 4, { dataType: 'u32', count: 2, notImplemented: [[0, 0]] }),
      field('Tms', 6, { dataType: 'u32', count: 2, ...sunspec }),
      field('Evt', 8, { dataType: 'bitfield', count: 2, ...sunspec }),
      field('F', 10, { dataType: 'float32', count: 2, ...sunspec }),
    );
    const frame = p.decode([block(0, 368, 1, 0x0097, 0x8000, 0, 0, 0xffff, 0xffff, 0xffff, 0xffff, 0x7fc0, 0)]);
    expect(frame.values).toEqual({ W: 3680, W_SF: 1, A: null, A_SF: null, WH: null, Tms: null, Evt: null, F: null });
    expect(frame.faults).toEqual([]);
    expect(p.decode([block(0, 0x8000, 2)]).values.W).toBeNull();
  });

  it('decodes strings: NUL terminated, trailing spaces trimmed, byte swap and skipped bytes', () => {
    const p = plan(
      field('sn', 0, { dataType: 'string', count: 4 }),
      field('swapped', 4, { dataType: 'string', count: 2, byteSwap: true }),
      field('skipped', 6, { dataType: 'string', count: 2, skipBytes: 1 }),
      field('utf8', 8, { dataType: 'string', count: 2 }),
    );
    const { values } = p.decode([block(0, 0x4142, 0x4320, 0x2000, 0x4445, 0x4241, 0x0043, 0x5841, 0x4200, 0xc3b1, 0x0000)]);
    expect(values).toEqual({ sn: 'ABC', swapped: 'ABC', skipped: 'AB', utf8: 'ñ' });
  });

  it('reports set bits lowest first, unknown bits by number, and enum raw values', () => {
    const p = plan(
      field('bits', 0, {
        dataType: 'bitfield',
        count: 2,
        bits: { 0: { code: 'low', level: 'fault', en: 'l', es: 'l' }, 17: { code: 'high', level: 'warning', en: 'h', es: 'h' } },
      }),
      field('mode', 2, { dataType: 'enum', enum: { 1: { en: 'One', es: 'Uno' } } }),
    );
    const frame = p.decode([block(0, 0x0002, 0x0009, 7)]);
    expect(frame.faults).toEqual(['low', 'bits.bit3', 'high']);
    expect(frame.values).toEqual({ bits: 0x20009, mode: 7 });
  });

  it('lists required fields the frame lacks and forgets values of earlier frames', () => {
    const p = plan(
      field('a', 0, { required: true }),
      field('b', 1),
      field('c', 100, { required: true, dataType: 'u32', count: 2 }),
    );
    expect(p.decode([block(0, 1, 2), block(100, 3, 4)])).toEqual({ values: { a: 1, b: 2, c: 0x30004 }, faults: [], missing: [] });
    expect(p.decode([block(1, 5), block(99, 0, 1)])).toEqual({
      values: { a: null, b: 5, c: null },
      faults: [],
      missing: ['a', 'c'],
    });
  });

  it('ignores other function codes and registers outside the map', () => {
    const p = plan(field('a', 10), field('b', 10, { functionCode: 4 }));
    const frame = p.decode([
      { functionCode: 4, address: 0, registers: new Array(20).fill(9) },
      { functionCode: 1, address: 10, registers: [1] },
    ]);
    expect(frame.values).toEqual({ a: null, b: 9 });
  });

  it('honours the address base of vendor documentation', () => {
    const p = plan(field('a', 40001, { base: 40001 }), field('b', 3, { base: 1 }));
    expect(p.decode([block(0, 7, 8, 9)]).values).toEqual({ a: 7, b: 9 });
  });
});

describe('registerBlockProblem', () => {
  it('accepts a well-formed block and names what is wrong otherwise', () => {
    expect(registerBlockProblem({ functionCode: 4, address: 0, registers: [0, 65535] })).toBeNull();
    expect(registerBlockProblem(null)).toBe('block is not an object');
    expect(registerBlockProblem({ functionCode: 5, address: 0, registers: [1] })).toBe('functionCode must be 3 or 4');
    expect(registerBlockProblem({ functionCode: 3, address: -1, registers: [1] })).toBe('address must be 0..65535');
    expect(registerBlockProblem({ functionCode: 3, address: 0, registers: [] })).toBe('registers must be a non-empty array');
    expect(registerBlockProblem({ functionCode: 3, address: 65535, registers: [1, 2] })).toBe('registers run past address 65535');
    expect(registerBlockProblem({ functionCode: 3, address: 0, registers: [1.5] })).toBe('registers must be integers 0..65535');
  });
});
