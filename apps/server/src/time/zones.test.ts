import { describe, expect, it } from 'vitest';
import { canonicalTimezone, isKnownTimezone, knownTimezones, offsetAt, offsetText, zoneOf, zonesWithOffsets } from './zones.ts';

describe('zones', () => {
  it('knows the runtime zones and UTC, and resolves links to the listed name', () => {
    expect(knownTimezones).toContain('UTC');
    expect(isKnownTimezone('Europe/Madrid')).toBe(true);
    expect(canonicalTimezone('Etc/UTC')).toBe('UTC');
    expect(isKnownTimezone(canonicalTimezone('US/Eastern')!)).toBe(true);
    expect(canonicalTimezone('Mars/Olympus')).toBeNull();
  });

  it('computes in UTC for no zone or a name that is no zone, and in the zone a link names', () => {
    expect(zoneOf(null)).toBe('UTC');
    expect(zoneOf(undefined)).toBe('UTC');
    expect(zoneOf('Mars/Olympus')).toBe('UTC');
    expect(zoneOf('Europe/Madrid')).toBe('Europe/Madrid');
    expect(isKnownTimezone(zoneOf('Asia/Calcutta'))).toBe(true);
    expect(offsetAt('Mars/Olympus', Date.UTC(2025, 6, 1))).toBe(0);
  });

  it('gives the offset at an instant, either side of a daylight-saving switch', () => {
    expect(offsetAt('Europe/Madrid', Date.UTC(2025, 2, 30, 0, 59, 59))).toBe(3_600_000);
    expect(offsetAt('Europe/Madrid', Date.UTC(2025, 2, 30, 1, 0))).toBe(7_200_000);
    expect(offsetAt(canonicalTimezone('Asia/Kathmandu')!, Date.UTC(2025, 0, 1))).toBe((5 * 60 + 45) * 60_000);
    expect(offsetAt('America/New_York', Date.UTC(2025, 0, 1))).toBe(-5 * 3_600_000);
  });

  it('lists every zone with its offset now, west to east', () => {
    expect([offsetText(330), offsetText(-180), offsetText(0)]).toEqual(['+05:30', '-03:00', '+00:00']);
    const list = zonesWithOffsets(Date.UTC(2025, 0, 15));
    expect(list).toHaveLength(knownTimezones.length);
    expect(list).toContainEqual({ id: 'Europe/Madrid', offset: '+01:00', offsetMinutes: 60 });
    expect(list).toContainEqual({ id: 'America/New_York', offset: '-05:00', offsetMinutes: -300 });
    const minutes = list.map((z) => z.offsetMinutes);
    expect(minutes).toEqual([...minutes].sort((a, b) => a - b));
  });
});
