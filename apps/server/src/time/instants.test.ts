/** Plant-local wall clock ↔ instants, checked against Intl directly (not through zones.ts). */
import { describe, expect, it } from 'vitest';
import { dayBounds, dayStart, instantOf, instantsOf, wallClock, zonedInstant } from './instants.ts';
import { canonicalTimezone } from './zones.ts';

// Plants store the runtime's name of a zone (Asia/Kathmandu may be Asia/Katmandu there).
const kathmandu = canonicalTimezone('Asia/Kathmandu')!;
const zones = [
  'UTC',
  'Europe/Madrid',
  'America/Santiago',
  'America/New_York',
  'Australia/Lord_Howe',
  'Pacific/Chatham',
  kathmandu,
  'Pacific/Kiritimati',
];

const formats = new Map<string, Intl.DateTimeFormat>();
/** The wall clock at `t` in `zone` as UTC-field ms, straight from Intl. */
function intlWall(zone: string, t: number): number {
  let format = formats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formats.set(zone, format);
  }
  const parts = format.formatToParts(t);
  const f = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  return Date.UTC(f('year'), f('month') - 1, f('day'), f('hour'), f('minute'), f('second'));
}

const w = (text: string) => Date.parse(`${text}Z`);
const iso = (t: number) => new Date(t).toISOString();

describe('wall clock and instants', () => {
  it('every instant is among the instants of its own wall clock, in every zone', () => {
    // Every 2 h 3 min 7 s for two years: crosses each zone's clock changes at many times of day.
    const from = Date.UTC(2025, 0, 1);
    const to = Date.UTC(2027, 0, 1);
    const wrong: string[] = [];
    let checked = 0;
    for (const zone of zones) {
      for (let t = from; t < to; t += 7_387_000) {
        const wall = intlWall(zone, t);
        checked++;
        if (wallClock(zone, t) !== wall || !instantsOf(zone, wall).includes(t)) wrong.push(`${zone} ${iso(t)}`);
      }
    }
    expect(checked).toBeGreaterThan(60_000);
    expect(wrong).toEqual([]);
  });

  it('a repeated hour has two instants, a skipped one none (read after the jump)', () => {
    expect(instantsOf('Europe/Madrid', w('2026-10-25T02:30:00')).map(iso)).toEqual([
      '2026-10-25T00:30:00.000Z',
      '2026-10-25T01:30:00.000Z',
    ]);
    expect(instantsOf('Europe/Madrid', w('2026-03-29T02:30:00'))).toEqual([]);
    expect(iso(instantOf('Europe/Madrid', w('2026-03-29T02:30:00')))).toBe('2026-03-29T01:30:00.000Z');
    // Lord Howe moves by half an hour.
    expect(instantsOf('Australia/Lord_Howe', w('2026-04-05T01:45:00'))).toHaveLength(2);
    // Santiago skips midnight: the day starts at 01:00 local (−03:00).
    expect(iso(dayStart('America/Santiago', '2025-09-07'))).toBe('2025-09-07T04:00:00.000Z');
    expect(iso(dayStart(kathmandu, '2026-01-01'))).toBe('2025-12-31T18:15:00.000Z');
    // An unknown zone counts as UTC.
    expect(iso(instantOf('Nowhere/Special', w('2026-06-01T10:00:00')))).toBe('2026-06-01T10:00:00.000Z');
  });

  it('starts a local day at local midnight, across daylight-saving changes', () => {
    expect(dayStart('Europe/Madrid', '2025-06-10')).toBe(Date.UTC(2025, 5, 9, 22));
    expect(dayStart('Europe/Madrid', '2025-01-10')).toBe(Date.UTC(2025, 0, 9, 23));
    // Madrid moves to summer time at 02:00 on 2025-03-30: that day has 23 hours.
    const day = dayStart('Europe/Madrid', '2025-03-31') - dayStart('Europe/Madrid', '2025-03-30');
    expect(day).toBe(23 * 3_600_000);
    expect(dayStart('America/New_York', '2025-06-10')).toBe(Date.UTC(2025, 5, 10, 4));
    expect(dayStart('Asia/Kolkata', '2025-06-10')).toBe(Date.UTC(2025, 5, 9, 18, 30));
  });

  it('starts a day whose midnight is skipped where the clock jumps to, not in the day before', () => {
    // Salta (Argentina) went from 00:00 −03:00 to 01:00 −02:00 on 2007-12-30.
    const zone = canonicalTimezone('America/Argentina/Salta')!;
    expect(iso(dayStart(zone, '2007-12-30'))).toBe('2007-12-30T03:00:00.000Z');
    expect(intlWall(zone, dayStart(zone, '2007-12-30') - 1000)).toBe(w('2007-12-29T23:59:59'));
  });

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

  it('places a local wall time, a skipped one just after the switch, a repeated one at its first', () => {
    expect(zonedInstant('Europe/Madrid', '2025-06-10', 8 * 60)).toBe(Date.UTC(2025, 5, 10, 6));
    expect(zonedInstant('Europe/Madrid', '2025-03-30', 3 * 60)).toBe(Date.UTC(2025, 2, 30, 1));
    expect(zonedInstant('Europe/Madrid', '2025-03-30', 2 * 60 + 30)).toBe(Date.UTC(2025, 2, 30, 1, 30));
    expect(zonedInstant('Asia/Kolkata', '2025-01-01', 0)).toBe(Date.UTC(2024, 11, 31, 18, 30));
    // 02:30 happens twice on 2025-10-26 in Madrid (CEST, then CET).
    expect(zonedInstant('Europe/Madrid', '2025-10-26', 2 * 60 + 30)).toBe(Date.UTC(2025, 9, 26, 0, 30));
  });
});
