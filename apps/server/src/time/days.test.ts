import { describe, expect, it } from 'vitest';
import { addDays, daysBetween, daysOf, isCalendarDay, localDay, monthDays, nextDay, previousDay, yearDays } from './days.ts';

describe('localDay', () => {
  it('gives the plant-local date, across midnight and daylight-saving changes', () => {
    // New York is UTC−5 in winter: 04:50Z is 23:50 the day before, 05:10Z is 00:10.
    expect(localDay('America/New_York', Date.UTC(2025, 0, 15, 4, 50))).toBe('2025-01-14');
    expect(localDay('America/New_York', Date.UTC(2025, 0, 15, 5, 10))).toBe('2025-01-15');
    // Madrid: 30 March 2025 starts at 23:00Z (UTC+1) and ends at 22:00Z (UTC+2).
    expect(localDay('Europe/Madrid', Date.UTC(2025, 2, 29, 22, 59))).toBe('2025-03-29');
    expect(localDay('Europe/Madrid', Date.UTC(2025, 2, 29, 23, 0))).toBe('2025-03-30');
    expect(localDay('Europe/Madrid', Date.UTC(2025, 2, 30, 21, 59))).toBe('2025-03-30');
    expect(localDay('Europe/Madrid', Date.UTC(2025, 2, 30, 22, 0))).toBe('2025-03-31');
    // Kathmandu is UTC+5:45: its midnight falls on a quarter hour.
    expect(localDay('Asia/Kathmandu', Date.UTC(2025, 0, 14, 18, 14))).toBe('2025-01-14');
    expect(localDay('Asia/Kathmandu', Date.UTC(2025, 0, 14, 18, 15))).toBe('2025-01-15');
    expect(localDay('Not/AZone', Date.UTC(2025, 0, 15, 23, 59))).toBe('2025-01-15');
  });
});

describe('days', () => {
  it('lists real dates only', () => {
    expect(daysOf('2025-02-27', '2025-02-31')).toEqual(['2025-02-27', '2025-02-28']);
    expect(isCalendarDay('2024-02-29')).toBe(true);
    expect(isCalendarDay('2025-02-29')).toBe(false);
    expect(isCalendarDay('2025-2-28')).toBe(false);
    expect(isCalendarDay('2025-02-28T00:00')).toBe(false);
  });

  it('counts in calendar days, across month and year ends', () => {
    expect(addDays('2024-12-31', 1)).toBe('2025-01-01');
    expect(addDays('2025-03-01', -1)).toBe('2025-02-28');
    expect([previousDay('2024-03-01'), nextDay('2024-02-28')]).toEqual(['2024-02-29', '2024-02-29']);
    expect(daysBetween('2025-01-01', '2025-03-31')).toBe(90);
    expect(daysBetween('2025-01-02', '2025-01-01')).toBe(0);
  });

  it("gives a month's and a year's first and last day as text that compares with any of its days", () => {
    expect(monthDays('2024-02-10')).toEqual({ from: '2024-02-01', to: '2024-02-31' });
    expect(yearDays('2024-02-10')).toEqual({ from: '2024-01-01', to: '2024-12-31' });
    const feb = monthDays('2024-02-10');
    expect(daysOf(feb.from, feb.to)).toHaveLength(29);
  });
});
