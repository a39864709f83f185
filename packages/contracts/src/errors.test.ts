import { describe, expect, it } from 'vitest';
import { ErrorCode, errorCatalogue } from './errors.ts';

describe('error codes by name', () => {
  const entries = Object.entries(errorCatalogue);

  it('gives every catalogue code its own name', () => {
    const keys = entries.map(([, e]) => e.key);
    const repeated = keys.filter((key, i) => keys.indexOf(key) !== i);
    expect(repeated, 'a name given to two codes').toEqual([]);
    expect(Object.keys(ErrorCode)).toHaveLength(entries.length);
  });

  it('maps each name to the number the catalogue gives it', () => {
    for (const [code, entry] of entries) expect(ErrorCode[entry.key as keyof typeof ErrorCode], entry.key).toBe(Number(code));
    expect(ErrorCode.ok).toBe(0);
    expect(ErrorCode.validation).toBe(4);
    expect(ErrorCode.notFound).toBe(404);
    expect(ErrorCode.drSameSn).toBe(6006);
  });

  it('names are identifiers, so code can write ErrorCode.name', () => {
    for (const [, entry] of entries) expect(entry.key).toMatch(/^[a-z][A-Za-z0-9]*$/);
  });

  it('cannot be changed at run time', () => {
    expect(Object.isFrozen(ErrorCode)).toBe(true);
  });
});
