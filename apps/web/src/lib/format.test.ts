import { describe, expect, it } from 'vitest';
import { quickRange, rangeDays, rangeProblem } from './dateRange.ts';
import {
  axisUnit,
  formatCapacity,
  formatCo2,
  formatDateTime,
  formatEnergy,
  formatMeasure,
  formatMoney,
  formatRate,
  formatWatts,
  relativeTime,
} from './format.ts';

describe('plant formatting', () => {
  it('capacity in kWp with separators; -- when missing', () => {
    expect(formatCapacity(6.6)).toBe('6.6 kWp');
    expect(formatCapacity(12345.678)).toBe('12,345.68 kWp');
    expect(formatCapacity(null)).toBe('--');
  });

  it('energy by the power rule: Wh, kWh (3–5 digits), MWh (6+)', () => {
    expect(formatEnergy(870)).toBe('0.9 kWh');
    expect(formatEnergy(12)).toBe('12 Wh');
    expect(formatEnergy(45_600)).toBe('45.6 kWh');
    expect(formatEnergy(1_234_567_890)).toBe('1,234.6 MWh');
    expect(formatEnergy(undefined)).toBe('--');
  });

  it('date-times as YYYY-MM-DD HH:mm:ss in local time', () => {
    const d = new Date(2026, 0, 2, 3, 4, 5);
    expect(formatDateTime(d.toISOString())).toBe('2026-01-02 03:04:05');
    expect(formatDateTime(null)).toBe('--');
    expect(formatDateTime('nonsense')).toBe('--');
  });

  it('relative times in the interface language', () => {
    const now = Date.UTC(2026, 0, 1, 12, 0, 0);
    expect(relativeTime(new Date(now - 10_000).toISOString(), 'en', now)).toBe('now');
    expect(relativeTime(new Date(now - 5 * 60_000).toISOString(), 'en', now)).toBe('5 minutes ago');
    expect(relativeTime(new Date(now - 3 * 3600_000).toISOString(), 'es', now)).toBe('hace 3 horas');
    expect(relativeTime(new Date(now - 2 * 86_400_000).toISOString(), 'en', now)).toBe('2 days ago');
    expect(relativeTime(null, 'en', now)).toBe('--');
  });
});

describe('report date ranges', () => {
  const today = new Date(2026, 2, 31);
  it('quick ranges end today (yesterday alone), counting both ends', () => {
    expect(quickRange('today', today)).toEqual({ start: '2026-03-31', end: '2026-03-31' });
    expect(quickRange('yesterday', today)).toEqual({ start: '2026-03-30', end: '2026-03-30' });
    expect(quickRange('last3', today)).toEqual({ start: '2026-03-29', end: '2026-03-31' });
    expect(rangeDays(quickRange('last90', today))).toBe(90);
    expect(rangeDays(quickRange('last30', today))).toBe(30);
  });

  it('ranges over 90 days, or ending before they start, are refused', () => {
    expect(rangeProblem(quickRange('last90', today))).toBeNull();
    expect(rangeProblem({ start: '2026-01-01', end: '2026-03-31' })).toBeNull(); // 90 days
    expect(rangeProblem({ start: '2025-12-31', end: '2026-03-31' })).toBe('tooLong');
    expect(rangeProblem({ start: '2026-03-02', end: '2026-03-01' })).toBe('order');
  });
});

describe('overview figures', () => {
  it('power: W below 100, kW with one decimal for 3–5 digits, MW from 6; -- when missing', () => {
    expect(formatWatts(42.6)).toBe('43 W');
    expect(formatWatts(3249.7)).toBe('3.3 kW'); // 3250 W → 3.25 → one decimal
    expect(formatWatts(-12_500)).toBe('-12.5 kW');
    expect(formatWatts(2_345_678)).toBe('2.3 MW');
    expect(formatWatts(null)).toBe('--');
    expect(formatWatts(Number.NaN)).toBe('--');
  });

  it('energy in Wh, kWh and MWh with separators', () => {
    expect(formatEnergy(18_400)).toBe('18.4 kWh');
    // One rule for every energy figure: whole watt-hours first, so a counter difference with float
    // noise reads as the figure it is (9149.9999 Wh is 9150 Wh: 9.2 kWh, never 9.1 beside it).
    expect(formatEnergy(9149.9999)).toBe(formatEnergy(9150));
    expect(formatEnergy(9149.9999)).toBe('9.2 kWh');
    expect(formatEnergy(85.333)).toBe('85 Wh');
    expect(formatEnergy(1_234_567_890)).toBe('1,234.6 MWh');
    expect(formatEnergy(undefined)).toBe('--');
  });

  it('money with two decimals, thousands separators and the currency', () => {
    expect(formatMoney(1234.5, 'EUR')).toBe('1,234.50 EUR');
    expect(formatMoney(0.005, 'USD')).toBe('0.01 USD');
    expect(formatMoney(12, null)).toBe('12.00');
    expect(formatMoney(null, 'EUR')).toBe('--');
  });

  it('CO₂ in kg below a tonne, t above; rates and measurements', () => {
    expect(formatCo2(8.74)).toBe('8.7 kg');
    expect(formatCo2(15_432)).toBe('15.43 t');
    expect(formatRate(0.8234)).toBe('82.3 %');
    expect(formatRate(null)).toBe('--');
    expect(formatMeasure(812.4, 'W/m²', 0)).toBe('812 W/m²');
    expect(formatMeasure(null, '°C')).toBe('--');
  });

  it('axis unit from the largest value', () => {
    expect(axisUnit(80, 'W')).toEqual({ divisor: 1, unit: 'W' });
    expect(axisUnit(5400, 'W')).toEqual({ divisor: 1000, unit: 'kW' });
    expect(axisUnit(-25_000, 'W')).toEqual({ divisor: 1000, unit: 'kW' });
    expect(axisUnit(250_000, 'W')).toEqual({ divisor: 1_000_000, unit: 'MW' }); // six digits
    expect(axisUnit(3_400_000, 'Wh')).toEqual({ divisor: 1_000_000, unit: 'MWh' });
  });
});
