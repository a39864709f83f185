import { describe, expect, it } from 'vitest';
import { formatNumber, formatPower, inverterTypeKey } from './format.ts';

describe('formatNumber', () => {
  it('groups thousands and shows -- for a missing value', () => {
    expect(formatNumber(1234567)).toBe('1,234,567');
    expect(formatNumber(1234.5, 2)).toBe('1,234.50');
    expect(formatNumber(12)).toBe('12');
    expect(formatNumber(null)).toBe('--');
    expect(formatNumber(undefined)).toBe('--');
    expect(formatNumber(Number.NaN)).toBe('--');
  });
});

describe('formatPower', () => {
  it('keeps 1-2 digit values, divides 3-5 digits by 1000 and 6+ by a million', () => {
    expect(formatPower(45)).toBe('45 W');
    expect(formatPower(450)).toBe('0.5 kW');
    expect(formatPower(4500)).toBe('4.5 kW');
    expect(formatPower(45000)).toBe('45.0 kW');
    expect(formatPower(4_500_000)).toBe('4.5 MW');
    expect(formatPower(null)).toBe('--');
  });
});

describe('inverterTypeKey', () => {
  it.each([
    [1, 'sellingFirst'],
    [10, 'sellingFirst'],
    [11, 'sellingFirst'],
    [2, 'singlePhase'],
    [3, 'micro'],
    [94, 'threePhaseHighVoltage'],
    [21, 'singlePhaseHighVoltage'],
    [93, 'threePhaseLowVoltage'],
    [22, 'singlePhaseOther'],
    [5, 'threePhase'],
    ['', '--'],
    [null, '--'],
  ])('%s → %s', (value, key) => {
    expect(inverterTypeKey(value)).toBe(key);
  });
});
