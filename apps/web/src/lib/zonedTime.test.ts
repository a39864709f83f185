import { describe, expect, it } from 'vitest';
import { checkedZone, describeZone, formatZoned, withZone, zoneOffset } from './zonedTime.ts';

// 2026-07-01 21:30:15 UTC: already July 2 in Tokyo, still July 1 in Madrid (summer, UTC+2).
const SUMMER = '2026-07-01T21:30:15.000Z';
const WINTER = '2026-01-15T12:00:00.000Z';

describe('formatZoned', () => {
  it('writes the wall clock of the zone it is given, and names the zone', () => {
    expect(formatZoned(SUMMER, 'Europe/Madrid', 'en')).toBe('2026-07-01 23:30 (Europe/Madrid)');
    expect(formatZoned(SUMMER, 'Asia/Tokyo', 'es')).toBe('2026-07-02 06:30 (Asia/Tokyo)');
    expect(formatZoned(SUMMER, 'UTC', 'en')).toBe('2026-07-01 21:30 (UTC)');
    expect(formatZoned(WINTER, 'Europe/Madrid', 'es')).toBe('2026-01-15 13:00 (Europe/Madrid)');
  });

  it('takes epoch milliseconds and dates; seconds, time only and no label on request', () => {
    const ms = Date.parse(SUMMER);
    expect(formatZoned(ms, 'Europe/Madrid', 'en', { seconds: true })).toBe('2026-07-01 23:30:15 (Europe/Madrid)');
    expect(formatZoned(new Date(ms), 'Europe/Madrid', 'en', { label: false })).toBe('2026-07-01 23:30');
    expect(formatZoned(SUMMER, 'America/New_York', 'es', { timeOnly: true })).toBe('17:30 (America/New_York)');
  });

  it('midnight is 00, never 24', () => {
    expect(formatZoned('2026-07-01T22:00:00Z', 'Europe/Madrid', 'en', { label: false })).toBe('2026-07-02 00:00');
  });

  it('reads an unknown zone as UTC and says so; -- for a missing or unreadable instant', () => {
    expect(formatZoned(SUMMER, 'Mars/Olympus', 'en')).toBe('2026-07-01 21:30 (UTC)');
    expect(formatZoned(SUMMER, null, 'en')).toBe('2026-07-01 21:30 (UTC)');
    expect(formatZoned(null, 'Europe/Madrid', 'en')).toBe('--');
    expect(formatZoned('not a date', 'Europe/Madrid', 'en')).toBe('--');
    expect(checkedZone('Europe/Madrid')).toBe('Europe/Madrid');
    expect(checkedZone('')).toBe('UTC');
  });
});

describe('zone labels', () => {
  it('a header names the zone', () => {
    expect(withZone('Started', 'Europe/Madrid')).toBe('Started (Europe/Madrid)');
    expect(withZone('Hora', 'Nowhere/Land')).toBe('Hora (UTC)');
  });

  it('the offset follows daylight saving', () => {
    expect(zoneOffset('Europe/Madrid', new Date(SUMMER))).toBe('UTC+02:00');
    expect(zoneOffset('Europe/Madrid', new Date(WINTER))).toBe('UTC+01:00');
    expect(zoneOffset('America/St_Johns', new Date(WINTER))).toBe('UTC-03:30');
    expect(zoneOffset('UTC', new Date(WINTER))).toBe('UTC');
  });

  it('the long name is in the interface language', () => {
    expect(describeZone('Europe/Madrid', 'en', new Date(SUMMER))).toBe('Europe/Madrid — Central European Summer Time, UTC+02:00');
    expect(describeZone('Europe/Madrid', 'es', new Date(WINTER))).toMatch(
      /^Europe\/Madrid — hora estándar de Europa central, UTC\+01:00$/i,
    );
  });
});
