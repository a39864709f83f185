import { describe, expect, it } from 'vitest';
import { assertValidDefinition, type FieldDefinition, type ProtocolDefinition, validateDefinition } from './definition.ts';
import { testField } from './fixtures/fields.ts';

const field = (key: string, address: number, extra: Partial<FieldDefinition> = {}) =>
  testField(key, address, { functionCode: 4, ...extra });

const definition = (...fields: FieldDefinition[]): ProtocolDefinition => ({
  id: 'test',
  name: { en: 'Test', es: 'Prueba' },
  version: '1',
  kind: 'inverter',
  fields,
});

describe('validateDefinition', () => {
  it('accepts a well-formed map', () => {
    expect(
      validateDefinition(
        definition(field('a', 0), field('b', 1, { dataType: 'u32', count: 2 }), field('c', 0, { functionCode: 3 })),
      ),
    ).toEqual([]);
  });

  it('rejects overlapping registers of one function code, even across a long field', () => {
    const problems = validateDefinition(
      definition(field('long', 0, { dataType: 'string', count: 10 }), field('inside', 2), field('alsoInside', 5)),
    );
    expect(problems).toEqual(['inside: overlaps long at register 2', 'alsoInside: overlaps long at register 5']);
  });

  it('rejects unknown, self and non-s16 scale factor references', () => {
    expect(validateDefinition(definition(field('w', 0, { scaleFactorField: 'W_SF' })))).toEqual([
      'w: unknown scale factor field "W_SF"',
    ]);
    expect(validateDefinition(definition(field('w', 0, { dataType: 's16', scaleFactorField: 'w' })))).toEqual([
      'w: is its own scale factor',
    ]);
    expect(validateDefinition(definition(field('w', 0, { scaleFactorField: 'sf' }), field('sf', 1)))).toEqual([
      'w: scale factor field "sf" must be a plain s16',
    ]);
  });

  it('rejects registers outside the address space and wrong register counts', () => {
    expect(validateDefinition(definition(field('a', 65535, { dataType: 'u32', count: 2 })))).toEqual([
      'a: registers 65535..65536 out of the 0..65535 address space',
    ]);
    expect(validateDefinition(definition(field('a', 0, { dataType: 'float32', count: 1 })))).toEqual([
      'a: float32 needs 2 registers',
    ]);
    expect(validateDefinition(definition(field('a', 40000, { base: 40001 })))).toEqual([
      'a: registers -1..-1 out of the 0..65535 address space',
    ]);
  });

  it('rejects duplicate keys and bit codes, bad groups and writable input registers', () => {
    const bit = { code: 'x', level: 'fault' as const, en: 'x', es: 'x' };
    const problems = validateDefinition(
      definition(
        field('a', 0, { dataType: 'bitfield', bits: { 0: bit } }),
        field('a', 1, { dataType: 'bitfield', bits: { 0: bit, 16: { ...bit, code: 'y' } } }),
        field('b', 2, { group: 'settings' as never }),
        field('c', 3, { access: 'rw' }),
        field('d', 4, { skipBytes: 1, dataType: 'u32', count: 2 }),
        field('__proto__', 6),
      ),
    );
    expect(problems).toEqual([
      'duplicate field key "a"',
      'a: bit 16 outside the field',
      'a: duplicate bit code "x"',
      'b: unknown group "settings"',
      'c: writable fields must be holding registers (function code 3)',
      'd: skipBytes 1 not allowed on u32 of 2 registers',
      '__proto__: "__proto__" cannot be a key',
    ]);
    expect(() => assertValidDefinition(definition(field('a', 0), field('a', 0)))).toThrow(/invalid protocol definition "test"/);
  });
});
