import { describe, expect, it } from 'vitest';
import { dayRange, localTimeFormatter, zonedDayStart } from './dates.ts';

describe('day ranges', () => {
  it('starts a local day at local midnight, across daylight-saving changes', () => {
    expect(zonedDayStart('2025-06-10', 'Europe/Madrid')).toBe(Date.UTC(2025, 5, 9, 22));
    expect(zonedDayStart('2025-01-10', 'Europe/Madrid')).toBe(Date.UTC(2025, 0, 9, 23));
    // Madrid moves to summer time at 02:00 on 2025-03-30: that day has 23 hours.
    const day = zonedDayStart('2025-03-31', 'Europe/Madrid') - zonedDayStart('2025-03-30', 'Europe/Madrid');
    expect(day).toBe(23 * 3_600_000);
    expect(zonedDayStart('2025-06-10', 'America/New_York')).toBe(Date.UTC(2025, 5, 10, 4));
    expect(zonedDayStart('2025-06-10', 'Asia/Kolkata')).toBe(Date.UTC(2025, 5, 9, 18, 30));
  });

  it('covers both days and at most 90 of them', () => {
    expect(dayRange({ startDate: '2025-06-01', endDate: '2025-06-01' }, 'UTC')).toMatchObject({
      from: Date.UTC(2025, 5, 1),
      to: Date.UTC(2025, 5, 2),
    });
    expect(dayRange({ startDate: '2025-01-01', endDate: '2025-03-31' }, 'UTC')?.to).toBe(Date.UTC(2025, 3, 1)); // 90 days
    expect(() => dayRange({ startDate: '2025-01-01', endDate: '2025-04-01' }, 'UTC')).toThrow(/at most 90 days/);
    expect(dayRange({}, 'UTC')).toBeNull();
    const last90 = dayRange({}, 'UTC', 'last90')!;
    expect((last90.to - last90.from) / 86_400_000).toBe(90);
    expect(last90.endDate).toBe(new Date().toISOString().slice(0, 10));
  });

  it('formats local times in a zone', () => {
    const f = localTimeFormatter('Europe/Madrid');
    expect(f(Date.UTC(2025, 5, 9, 22, 0, 5))).toBe('2025-06-10 00:00:05');
    expect(f(Date.UTC(2025, 0, 9, 22, 59, 59))).toBe('2025-01-09 23:59:59');
    // Either side of the change at 01:00 UTC on 2025-03-30.
    expect(f(Date.UTC(2025, 2, 30, 0, 59, 59))).toBe('2025-03-30 01:59:59');
    expect(f(Date.UTC(2025, 2, 30, 1, 0, 0))).toBe('2025-03-30 03:00:00');
  });
});
