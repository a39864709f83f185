import { describe, expect, it } from 'vitest';
import { BidirectionalCounter, EnergyCounter, integrateKwh } from './energy.ts';

describe('energy counters', () => {
  it('integrate power with the trapezoid rule and restart "today" at a new day', () => {
    const c = new EnergyCounter(100);
    c.sample(0, 0, 1);
    c.sample(3_600_000, 1000, 1);
    expect(c.todayKwh).toBeCloseTo(0.5, 9);
    c.sample(7_200_000, 1000, 2);
    expect(c.todayKwh).toBeCloseTo(1, 9);
    expect(c.totalKwh).toBeCloseTo(101.5, 9);
  });

  it('never run backwards: negative power and repeated or old samples add nothing', () => {
    const c = new EnergyCounter();
    c.sample(0, 500, 1);
    c.sample(60_000, -800, 1);
    const after = c.totalKwh;
    c.sample(60_000, 900, 1);
    c.sample(30_000, 900, 1);
    expect(c.totalKwh).toBe(after);
    expect(after).toBeGreaterThan(0);
  });

  it('split a signed power into import and export', () => {
    const c = new BidirectionalCounter();
    c.sample(0, 1000, 1);
    c.sample(3_600_000, 1000, 1);
    c.sample(7_200_000, -1000, 1);
    c.sample(10_800_000, -1000, 1);
    expect(c.import.totalKwh).toBeCloseTo(1.5, 9);
    expect(c.export.totalKwh).toBeCloseTo(1.5, 9);
  });

  it('matches a direct trapezoid integral', () => {
    const samples = Array.from({ length: 10 }, (_, i) => ({ t: i * 300_000, w: i * 100 }));
    const c = new EnergyCounter();
    for (const s of samples) c.sample(s.t, s.w, 1);
    expect(c.totalKwh).toBeCloseTo(integrateKwh(samples), 12);
  });
});
