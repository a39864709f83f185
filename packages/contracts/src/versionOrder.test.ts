import { describe, expect, it } from 'vitest';
import { compareVersions, isHigherThanAll } from './versionOrder.ts';

describe('compareVersions', () => {
  it.each([
    ['V1.10', 'V1.9', 1],
    ['1.9', '1.10', -1],
    ['1.007', '1.7', 0],
    ['V1.0', 'v1.0', 0],
    ['1.0', '1.0.1', -1],
    ['1.0-b', '1.0', 1],
    ['1.1', '1.rc', 1],
    ['1.rc2', '1.rc10', -1],
    ['2024_05_01', '2024_4_30', 1],
    ['1.alpha', '1.beta', -1],
    ['99999999999999999999.1', '99999999999999999999.0', 1],
  ])('%s vs %s → %i', (a, b, want) => {
    expect(compareVersions(a, b)).toBe(want);
    expect(compareVersions(b, a)).toBe(-want || 0);
  });

  it('higher than all: strictly above every existing version', () => {
    expect(isHigherThanAll('1.10', ['1.2', '1.9'])).toBe(true);
    expect(isHigherThanAll('1.9', ['1.9'])).toBe(false);
    expect(isHigherThanAll('1.0', [])).toBe(true);
  });
});
