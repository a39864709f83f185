/**
 * Plant-local days as instants: a day chart reads the samples between the plant's local
 * midnights (23 or 25 hours on a daylight-saving change). Unknown zones count as UTC.
 */
import { isKnownTimezone, localDay, zonePartsFormatter } from '../plants/local-day.ts';

export const zoneOf = (timezone: string | null | undefined) => (timezone && isKnownTimezone(timezone) ? timezone : 'UTC');

/** The zone's offset from UTC at `at`, in ms (positive east of Greenwich). */
export function offsetMs(timeZone: string, at: number): number {
  if (timeZone === 'UTC') return 0;
  const parts = zonePartsFormatter(timeZone).formatToParts(at);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return asUtc - Math.floor(at / 1000) * 1000;
}

/** The instant of local midnight starting `day` in the zone. */
export function localMidnight(timeZone: string, day: string): number {
  const wall = Date.parse(`${day}T00:00:00Z`);
  let t = wall - offsetMs(timeZone, wall);
  t = wall - offsetMs(timeZone, t); // again, in case midnight is across an offset change
  return t;
}

export function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

/** [from, to) of a plant-local day. */
export function dayRange(timeZone: string, day: string): { from: number; to: number } {
  return { from: localMidnight(timeZone, day), to: localMidnight(timeZone, nextDay(day)) };
}

/** A `YYYY-MM-DD` that is a real calendar date. */
export function isDay(day: string): boolean {
  const t = Date.parse(`${day}T00:00:00Z`);
  return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === day;
}

export const today = (timeZone: string, at = Date.now()) => localDay(timeZone, at);

const hourFormatters = new Map<string, Intl.DateTimeFormat>();
/** "HH:00" of an instant in the zone. */
export function hourLabel(timeZone: string, at: number): string {
  let f = hourFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', { timeZone, hourCycle: 'h23', hour: '2-digit' });
    hourFormatters.set(timeZone, f);
  }
  return `${f.format(at).padStart(2, '0')}:00`;
}
