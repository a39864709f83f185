import { describe, expect, it } from 'vitest';
import { dayBounds, daysOf, isRealDay, zonedInstant } from './local-time.ts';

describe('plant-local time', () => {
  it('finds where a local day starts and ends, 23 and 25 hours long at daylight-saving switches', () => {
    expect(dayBounds('Asia/Tokyo', '2025-03-11')).toEqual({ start: Date.UTC(2025, 2, 10, 15), end: Date.UTC(2025, 2, 11, 15) });
    expect(dayBounds('Europe/Madrid', '2025-03-30')).toEqual({
      start: Date.UTC(2025, 2, 29, 23),
      end: Date.UTC(2025, 2, 30, 22),
    });
    expect(dayBounds('Europe/Madrid', '2025-10-26')).toEqual({
      start: Date.UTC(2025, 9, 25, 22),
      end: Date.UTC(2025, 9, 26, 23),
    });
    expect(dayBounds('America/Los_Angeles', '2025-01-01').start).toBe(Date.UTC(2025, 0, 1, 8));
  });

  it('places a local wall time, a skipped one just after the switch', () => {
    expect(zonedInstant('Europe/Madrid', '2025-06-10', 8 * 60)).toBe(Date.UTC(2025, 5, 10, 6));
    expect(zonedInstant('Europe/Madrid', '2025-03-30', 3 * 60)).toBe(Date.UTC(2025, 2, 30, 1));
    expect(zonedInstant('Europe/Madrid', '2025-03-30', 2 * 60 + 30)).toBe(Date.UTC(2025, 2, 30, 1, 30));
    expect(zonedInstant('Asia/Kolkata', '2025-01-01', 0)).toBe(Date.UTC(2024, 11, 31, 18, 30));
  });

  it('lists real dates only', () => {
    expect(daysOf('2025-02-27', '2025-02-31')).toEqual(['2025-02-27', '2025-02-28']);
    expect(isRealDay('2024-02-29')).toBe(true);
    expect(isRealDay('2025-02-29')).toBe(false);
  });
});
