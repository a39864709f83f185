import { describe, expect, it } from 'vitest';
import { LoadModel } from './load.ts';
import { LocalTime } from './local-time.ts';

describe('household load', () => {
  it('peaks in the evening, averages its daily energy and is reproducible', () => {
    const time = new LocalTime('Europe/Madrid');
    const load = new LoadModel(9, { kind: 'household', dailyKwh: 12 }, time, 40);
    let evening = 0;
    let night = 0;
    let kwh = 0;
    const days = 28;
    const start = Date.parse('2025-03-03T00:00:00+01:00');
    for (let k = 0; k < days * 1440; k++) {
      const t = start + k * 60_000;
      const w = load.at(t);
      kwh += w / 60_000;
      const h = time.hour(t);
      if (h >= 19 && h < 22) evening += w;
      if (h >= 2 && h < 5) night += w;
    }
    expect(evening).toBeGreaterThan(2.5 * night);
    // Spring is near the year's mean (winter draws more, summer less).
    expect(kwh / days).toBeGreaterThan(12 * 0.85);
    expect(kwh / days).toBeLessThan(12 * 1.2);
    expect(load.at(start + 1234567)).toBe(new LoadModel(9, { kind: 'household', dailyKwh: 12 }, time, 40).at(start + 1234567));
  });
});
