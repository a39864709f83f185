import { describe, expect, it } from 'vitest';
import { setNumberLocale, setTemperatureUnit } from '../../../lib/format.ts';
import {
  aliasBytes,
  aliasTooLong,
  deviceName,
  formatDuration,
  formatField,
  formatValue,
  formatValueRange,
  typeKeyOf,
} from './format.ts';

describe('device values in the user settings', () => {
  it('temperatures in the profile unit, numbers in the interface language', () => {
    expect(formatValue(25, '°C')).toBe('25.0 °C');
    expect(formatValueRange(20, 25.5, '°C')).toBe('20.0 – 25.5 °C');
    setTemperatureUnit('F');
    expect(formatValue(25, '°C')).toBe('77.0 °F');
    expect(formatField({ value: 40, unit: '°C', text: null })).toBe('104.0 °F');
    expect(formatValueRange(20, 25.5, '°C')).toBe('68.0 – 77.9 °F');
    expect(formatValueRange(null, 25, '°C')).toBe('-- – 77.0 °F');
    setNumberLocale('es');
    expect(formatValue(3.2015, 'V', 3)).toBe('3,202 V');
    expect(formatValueRange(3.201, 3.345, 'V', 3)).toBe('3,201 – 3,345 V');
    expect(formatValue(3579, 'W')).toBe('3,6 kW');
  });
});

describe('device formatting', () => {
  it('scales power-like units to k from 3 integer digits and M from 6, and keeps fixed decimals for the others', () => {
    expect(formatValue(99.6, 'W')).toBe('0.1 kW'); // rounded to 100 W first: 3 digits
    expect(formatValue(42, 'W')).toBe('42 W');
    expect(formatValue(756, 'W')).toBe('0.8 kW');
    expect(formatValue(3579, 'W')).toBe('3.6 kW');
    expect(formatValue(1_250_000, 'W')).toBe('1.3 MW');
    expect(formatValue(-4200, 'W')).toBe('-4.2 kW');
    expect(formatValue(21_506_800, 'Wh')).toBe('21.5 MWh');
    expect(formatValue(231.10000610351562, 'V')).toBe('231.1 V');
    expect(formatValue(9.444, 'A')).toBe('9.44 A');
    expect(formatValue(60.02, 'Hz')).toBe('60.02 Hz');
    expect(formatValue(3.2771, 'V', 3)).toBe('3.277 V');
    expect(formatValue(58, '%')).toBe('58 %');
    expect(formatValue(0.996, null)).toBe('0.996');
    expect(formatValue(null, 'V')).toBe('--');
    expect(formatValue(Number.NaN, 'W')).toBe('--');
  });

  it('shows a decoded field by its label, its text or its number', () => {
    expect(formatField({ value: 94, unit: null, text: 'Three-phase high-voltage' })).toBe('Three-phase high-voltage');
    expect(formatField({ value: ' 0x01 0x04 ', unit: null, text: null })).toBe('0x01 0x04');
    expect(formatField({ value: 10000, unit: 'W', text: null })).toBe('10.0 kW');
    expect(formatField({ value: null, unit: 'V', text: null })).toBe('--');
  });

  it('counts alias bytes, not characters (at most 32 bytes)', () => {
    expect(aliasBytes('Roof A')).toBe(6);
    expect(aliasBytes('Tejado Muñoz')).toBe(13); // ñ is 2 bytes
    expect(aliasBytes('€')).toBe(3);
    expect(aliasTooLong('a'.repeat(32))).toBe(false);
    expect(aliasTooLong('ñ'.repeat(16))).toBe(false);
    expect(aliasTooLong(`${'ñ'.repeat(16)}a`)).toBe(true);
  });

  it('names devices by alias or SN and maps inverter types', () => {
    expect(deviceName({ alias: 'East roof', sn: 'HY1' })).toBe('East roof');
    expect(deviceName({ alias: null, sn: 'HY1' })).toBe('HY1');
    expect(deviceName({ alias: '  ', sn: 'HY1' })).toBe('HY1');
    expect(typeKeyOf({ typeKey: 'micro', deviceType: 3 })).toBe('micro');
    expect(typeKeyOf({ deviceType: 94 })).toBe('threePhaseHighVoltage');
    expect(typeKeyOf({ deviceType: 11 })).toBe('sellingFirst');
    expect(typeKeyOf({ deviceType: 7 })).toBe('threePhase');
    expect(typeKeyOf({ deviceType: null })).toBe('--');
  });

  it('writes durations in the largest two units', () => {
    expect(formatDuration(45)).toBe('45 s');
    expect(formatDuration(12 * 60 + 5)).toBe('12 min');
    expect(formatDuration(5 * 3600 + 12 * 60)).toBe('5 h 12 min');
    expect(formatDuration(2 * 86_400 + 3 * 3600 + 59)).toBe('2 d 3 h');
    expect(formatDuration(3 * 86_400)).toBe('3 d');
    expect(formatDuration(null)).toBe('--');
  });
});
