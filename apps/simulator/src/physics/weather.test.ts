import { describe, expect, it } from 'vitest';
import { WeatherModel } from './weather.ts';

const day = Date.parse('2025-04-01T00:00:00Z');

describe('weather', () => {
  it('is a pure function of seed, place and time', () => {
    const a = new WeatherModel(5, 40.4, -3.7, { sunny: 0.5 });
    const b = new WeatherModel(5, 40.4, -3.7, { sunny: 0.5 });
    const times = [day + 9 * 3_600_000, day - 86_400_000, day + 13 * 3_600_000];
    for (const t of times) expect(a.at(t)).toEqual(b.at(t));
    expect(new WeatherModel(6, 40.4, -3.7).at(times[0]!)).not.toEqual(a.at(times[0]!));
  });

  it('keeps cloudiness in range with realistic persistence', () => {
    const w = new WeatherModel(11, 48, 11, { sunny: 0.35 });
    const series: number[] = [];
    for (let k = 0; k < 30 * 288; k++) series.push(w.at(day + k * 300_000).cloudiness);
    expect(Math.min(...series)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...series)).toBeLessThanOrEqual(1);
    const mean = series.reduce((a, b) => a + b, 0) / series.length;
    let num = 0;
    let den = 0;
    for (let k = 1; k < series.length; k++) num += (series[k]! - mean) * (series[k - 1]! - mean);
    for (const x of series) den += (x - mean) ** 2;
    // Five minutes apart, clouds are strongly correlated; yet the month has both clear and cloudy spells.
    expect(num / den).toBeGreaterThan(0.8);
    expect(series.some((c) => c < 0.15)).toBe(true);
    expect(series.some((c) => c > 0.7)).toBe(true);
  });

  it('has a daily temperature cycle: afternoons warmer than dawns, summers warmer than winters', () => {
    const w = new WeatherModel(3, 40.4, -3.7, { sunny: 0.6 });
    const summer = Date.parse('2025-07-15T00:00:00Z');
    const winter = Date.parse('2025-01-15T00:00:00Z');
    expect(w.at(summer + 15 * 3_600_000).ambientC).toBeGreaterThan(w.at(summer + 5 * 3_600_000).ambientC + 3);
    expect(w.at(summer + 15 * 3_600_000).ambientC).toBeGreaterThan(w.at(winter + 15 * 3_600_000).ambientC + 8);
  });
});
