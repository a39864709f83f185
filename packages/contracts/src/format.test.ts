import { describe, expect, it } from 'vitest';
import {
  formatNumber,
  formatPower,
  fromCelsius,
  inTemperatureUnit,
  inverterTypeKey,
  spanFromCelsius,
  temperatureSymbol,
} from './format.ts';

describe('formatNumber', () => {
  it('groups thousands and shows -- for a missing value', () => {
    expect(formatNumber(1234567)).toBe('1,234,567');
    expect(formatNumber(1234.5, 2)).toBe('1,234.50');
    expect(formatNumber(12)).toBe('12');
    expect(formatNumber(null)).toBe('--');
    expect(formatNumber(undefined)).toBe('--');
    expect(formatNumber(Number.NaN)).toBe('--');
    expect(formatNumber(Number.POSITIVE_INFINITY)).toBe('--');
  });

  it("uses the language's decimal mark and thousands separator", () => {
    expect(formatNumber(1234.5, 1, 'en')).toBe('1,234.5');
    expect(formatNumber(1234.5, 1, 'es')).toBe('1.234,5');
    expect(formatNumber(1234567, undefined, 'es')).toBe('1.234.567');
    expect(formatNumber(0.25, 2, 'es')).toBe('0,25');
    expect(formatNumber(-1234.56, 1, 'es')).toBe('-1.234,6');
  });

  it('keeps up to six decimals without a fixed count, and shows no minus on a rounded zero', () => {
    expect(formatNumber(1.2345)).toBe('1.2345');
    expect(formatNumber(0.1 + 0.2)).toBe('0.3');
    expect(formatNumber(-0.04, 1)).toBe('0.0');
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

  it("writes the scaled value with the language's decimal mark", () => {
    expect(formatPower(4500, 'W', 'es')).toBe('4,5 kW');
    expect(formatPower(1_234_567_890, 'Wh', 'es')).toBe('1.234,6 MWh');
  });
});

describe('temperature units', () => {
  it('converts a °C measurement to °F and leaves °C as it is', () => {
    expect(fromCelsius(0, 'F')).toBe(32);
    expect(fromCelsius(100, 'F')).toBe(212);
    expect(fromCelsius(-40, 'F')).toBe(-40);
    expect(fromCelsius(25.5, 'C')).toBe(25.5);
    expect(spanFromCelsius(4, 'F')).toBeCloseTo(7.2);
    expect(spanFromCelsius(4, 'C')).toBe(4);
    expect(temperatureSymbol('F')).toBe('°F');
    expect(temperatureSymbol('C')).toBe('°C');
  });

  it('converts only values measured in °C, keeping a missing value missing', () => {
    expect(inTemperatureUnit(20, '°C', 'F')).toEqual({ value: 68, unit: '°F' });
    expect(inTemperatureUnit(null, '°C', 'F')).toEqual({ value: null, unit: '°F' });
    expect(inTemperatureUnit(20, '°C', 'C')).toEqual({ value: 20, unit: '°C' });
    expect(inTemperatureUnit(20, 'V', 'F')).toEqual({ value: 20, unit: 'V' });
    expect(inTemperatureUnit(20, null, 'F')).toEqual({ value: 20, unit: null });
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
