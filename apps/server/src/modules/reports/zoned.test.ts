/** Plant-local wall clock ↔ instants, checked against Intl directly (not through zoned.ts). */
import { describe, expect, it } from 'vitest';
import { canonicalTimezone } from '../plants/local-day.ts';
import { dayStartInstant, instantOf, instantsOf, wallClock } from './zoned.ts';

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

describe('zoned', () => {
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
    expect(iso(dayStartInstant('America/Santiago', '2025-09-07'))).toBe('2025-09-07T04:00:00.000Z');
    expect(iso(dayStartInstant(kathmandu, '2026-01-01'))).toBe('2025-12-31T18:15:00.000Z');
    // An unknown zone counts as UTC.
    expect(iso(instantOf('Nowhere/Special', w('2026-06-01T10:00:00')))).toBe('2026-06-01T10:00:00.000Z');
  });
});
