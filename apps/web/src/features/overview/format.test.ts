import { describe, expect, it } from 'vitest';
import { axisUnit, formatCo2, formatMeasure, formatMoney, formatRate, formatWatts, formatWh } from './format.ts';

describe('overview figures (spec §9)', () => {
  it('power: W below 100, kW with one decimal for 3–5 digits, MW from 6; -- when missing', () => {
    expect(formatWatts(42.6)).toBe('43 W');
    expect(formatWatts(3249.7)).toBe('3.3 kW'); // 3250 W → 3.25 → one decimal
    expect(formatWatts(-12_500)).toBe('-12.5 kW');
    expect(formatWatts(2_345_678)).toBe('2.3 MW');
    expect(formatWatts(null)).toBe('--');
    expect(formatWatts(Number.NaN)).toBe('--');
  });

  it('energy in Wh, kWh and MWh with separators', () => {
    expect(formatWh(18_400)).toBe('18.4 kWh');
    expect(formatWh(1_234_567_890)).toBe('1,234.6 MWh');
    expect(formatWh(undefined)).toBe('--');
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
