import { describe, expect, it } from 'vitest';
import { sunElevation } from './solar.ts';

describe('sunElevation', () => {
  it('is high at noon, below the horizon at night, and follows the seasons', () => {
    // Madrid (40.4 N, 3.7 W): solar noon is about 12:15 UTC in June, 90 − 40.4 + 23.4 ≈ 73°.
    expect(sunElevation(40.4, -3.7, Date.UTC(2025, 5, 21, 12, 15))).toBeCloseTo(73, 0);
    expect(sunElevation(40.4, -3.7, Date.UTC(2025, 11, 21, 12, 15))).toBeCloseTo(26, 0);
    expect(sunElevation(40.4, -3.7, Date.UTC(2025, 5, 21, 0, 15))).toBeLessThan(-20);
    // Quito at the March equinox: the sun is almost overhead.
    expect(sunElevation(-0.2, -78.5, Date.UTC(2025, 2, 20, 17, 22))).toBeGreaterThan(85);
  });
});
