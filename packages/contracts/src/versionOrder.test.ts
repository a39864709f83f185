import { describe, expect, it } from 'vitest';
import { isFirmwareVersion } from './validation.ts';
import { compareVersions, isHigherThanAll, registerVersion } from './versionOrder.ts';

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

  it('a firmware register version is its byte numbers in the version style, ordered as the library’s', () => {
    expect(registerVersion('03 02 00 05')).toBe('3_2_0_5');
    expect(registerVersion('0x01 0x0A')).toBe('1_10');
    expect(isFirmwareVersion(registerVersion('03 02 00 05')!)).toBe(true);
    expect(compareVersions(registerVersion('03 02 00 0a')!, '3_2_0_9')).toBe(1);
    expect(registerVersion('')).toBeNull();
    expect(registerVersion('3.2.0.5')).toBeNull();
  });
});
