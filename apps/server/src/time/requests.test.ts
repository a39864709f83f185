import { describe, expect, it } from 'vitest';
import { dayRange, requestDay, timezoneOf } from './requests.ts';

describe('day ranges', () => {
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

  it("takes a real zone by the runtime's name, and refuses anything else with code 4", () => {
    expect(timezoneOf(undefined)).toBe('UTC');
    expect(timezoneOf('Europe/Madrid')).toBe('Europe/Madrid');
    expect(timezoneOf('Etc/UTC')).toBe('UTC');
    expect(() => timezoneOf('Mars/Olympus', 'body.timezone')).toThrow(/body.timezone must be an IANA time zone/);
  });

  it("takes a request's date, or the plant's today", () => {
    expect(requestDay('Asia/Tokyo', undefined, Date.UTC(2025, 0, 1, 15))).toBe('2025-01-02');
    expect(requestDay('Asia/Tokyo', '2024-02-29')).toBe('2024-02-29');
    expect(() => requestDay('UTC', '2025-02-29')).toThrow(/query.date is not a date/);
  });
});
