import { describe, expect, it } from 'vitest';
import { bucketWidth, formatValue, paramTitle, wallClockMs } from './format.ts';

describe('operation-data formatting', () => {
  it('the chart axis: the wall clock read as UTC', () => {
    expect(new Date(wallClockMs('2026-05-20T10:04:05.000Z', 'Europe/Madrid')).toISOString()).toBe('2026-05-20T12:04:05.000Z');
  });

  it('values: enum labels, rounded numbers with separators, text, missing', () => {
    const options = { '1': 'Selling first', '3': 'Micro-inverter' };
    expect(formatValue(3, { options })).toBe('Micro-inverter');
    expect(formatValue(7, { options })).toBe('7');
    expect(formatValue(12345.678912, { options: null })).toBe('12,345.679');
    expect(formatValue(0.1 + 0.2, { options: null })).toBe('0.3');
    expect(formatValue('V1.2.3', { options: null })).toBe('V1.2.3');
    expect(formatValue(null, { options: null })).toBe('--');
  });

  it('titles and bucket widths', () => {
    const signs = { grid: '+ import / − export', battery: '+ discharge / − charge' };
    expect(paramTitle({ name: 'Output power', unit: 'W', flow: null }, signs)).toBe('Output power (W)');
    expect(paramTitle({ name: 'Device type', unit: null, flow: null }, signs)).toBe('Device type');
    // Signed power names the convention its values are in.
    expect(paramTitle({ name: 'Grid power', unit: 'W', flow: 'grid' }, signs)).toBe('Grid power (W, + import / − export)');
    expect(paramTitle({ name: 'Power', unit: 'W', flow: 'battery' }, signs)).toBe('Power (W, + discharge / − charge)');
    expect(bucketWidth(45)).toBe('45 s');
    expect(bucketWidth(300)).toBe('5 min');
    expect(bucketWidth(3600)).toBe('1 h');
    expect(bucketWidth(5400)).toBe('1 h 30 min');
  });
});
