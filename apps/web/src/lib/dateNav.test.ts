import { describe, expect, it } from 'vitest';
import { canGoForward, minuteOfDay, navigate, shiftDate, todayIn, utcOffset, zonedDateTime } from './dateNav.ts';

describe('chart date navigation', () => {
  it('moves by day across month and year ends, and across a daylight-saving change', () => {
    expect(shiftDate('2026-03-01', 'day', -1)).toBe('2026-02-28');
    expect(shiftDate('2024-03-01', 'day', -1)).toBe('2024-02-29');
    expect(shiftDate('2025-12-31', 'day', 1)).toBe('2026-01-01');
    expect(shiftDate('2026-03-29', 'day', 1)).toBe('2026-03-30'); // Europe's spring change
  });

  it('moves by month and year, keeping the day where the month has it', () => {
    expect(shiftDate('2026-03-31', 'month', -1)).toBe('2026-02-28');
    expect(shiftDate('2026-01-15', 'month', -1)).toBe('2025-12-15');
    expect(shiftDate('2026-12-15', 'month', 1)).toBe('2027-01-15');
    expect(shiftDate('2024-02-29', 'year', 1)).toBe('2025-02-28');
    expect(shiftDate('2026-05-05', 'total', -1)).toBe('2026-05-05');
  });

  it('never goes past today: the next button stops at the current period', () => {
    const today = '2026-05-20';
    expect(canGoForward('2026-05-20', 'day', today)).toBe(false);
    expect(canGoForward('2026-05-19', 'day', today)).toBe(true);
    expect(canGoForward('2026-05-01', 'month', today)).toBe(false);
    expect(canGoForward('2026-04-30', 'month', today)).toBe(true);
    expect(canGoForward('2025-12-31', 'year', today)).toBe(true);
    expect(canGoForward('2026-01-01', 'total', today)).toBe(false);
    // A month forward from 2026-04-25 would be 2026-05-25, after today: it stops at today.
    expect(navigate('2026-04-25', 'month', 1, today)).toBe('2026-05-20');
    expect(navigate('2026-05-19', 'day', 1, today)).toBe('2026-05-20');
  });

  it('plant-local wall clock: today, minutes after midnight and the UTC offset', () => {
    const at = new Date('2026-01-15T23:30:00Z');
    expect(todayIn('Europe/Madrid', at)).toBe('2026-01-16'); // UTC+1
    expect(todayIn('America/Mexico_City', at)).toBe('2026-01-15'); // UTC−6
    expect(zonedDateTime(at, 'Asia/Tokyo')).toBe('2026-01-16 08:30');
    expect(minuteOfDay('2026-07-01T10:05:00Z', 'Europe/Madrid')).toBe(12 * 60 + 5); // summer, UTC+2
    expect(utcOffset('Europe/Madrid', new Date('2026-07-01T10:00:00Z'))).toBe('UTC+02:00');
    expect(utcOffset('America/Santiago', new Date('2026-07-01T10:00:00Z'))).toBe('UTC-04:00');
    expect(utcOffset('Asia/Kolkata', at)).toBe('UTC+05:30');
    expect(zonedDateTime(null, 'UTC')).toBe('--');
  });

  it('builds one wall-clock formatter per zone, however often a page asks (a clock, each render)', () => {
    const Original = Intl.DateTimeFormat;
    const built: (Intl.DateTimeFormatOptions | undefined)[] = [];
    class Counted extends Original {
      constructor(locale?: string | string[], options?: Intl.DateTimeFormatOptions) {
        built.push(options);
        super(locale, options);
      }
    }
    Intl.DateTimeFormat = Counted as typeof Intl.DateTimeFormat;
    try {
      const at = new Date('2026-01-15T23:30:00Z');
      expect(todayIn('Pacific/Auckland', at)).toBe('2026-01-16');
      // The zone's name checked once, its formatter built once: later calls build nothing.
      const first = built.length;
      expect(first).toBeLessThanOrEqual(2);
      for (let i = 0; i < 5; i++) expect(todayIn('Pacific/Auckland', at)).toBe('2026-01-16');
      expect(zonedDateTime(at, 'Pacific/Auckland')).toBe('2026-01-16 12:30');
      expect(built).toHaveLength(first);
      // An unknown name falls back to the browser's zone, also built once.
      todayIn('Not/AZone', at);
      todayIn('Not/AZone', at);
      expect(built.filter((o) => o?.timeZone === 'Not/AZone')).toHaveLength(1);
    } finally {
      Intl.DateTimeFormat = Original;
    }
  });
});
