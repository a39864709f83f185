/**
 * Day ranges of the event and operation-data filters (at most 90 days) and fast
 * local-time formatting for the downloads. A day range is `[start of startDate, start of the day
 * after endDate)` in a time zone, both days included.
 */
import { limits } from '@sunfleet/contracts';
import { fail } from '../../http/errors.ts';
import { canonicalTimezone, localDay, zonePartsFormatter } from '../plants/local-day.ts';

export const DAY_MS = 86_400_000;

export interface TimeRange {
  from: number;
  to: number;
  startDate: string;
  endDate: string;
}

/** The zone's offset from UTC at `at`, in ms (local = UTC + offset). */
export function zoneOffset(timeZone: string, at: number): number {
  const p: Record<string, string> = {};
  for (const part of zonePartsFormatter(timeZone).formatToParts(at)) p[part.type] = part.value;
  const local = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
  return local - Math.floor(at / 1000) * 1000;
}

/** The instant a local day starts in `timeZone` (midnight, or the first instant after a gap). */
export function zonedDayStart(day: string, timeZone: string): number {
  const utcMidnight = Date.parse(`${day}T00:00:00Z`);
  let t = utcMidnight - zoneOffset(timeZone, utcMidnight);
  // Once more with the offset at the guess: right across a DST change.
  t = utcMidnight - zoneOffset(timeZone, t);
  return t;
}

/** A real calendar day (2024-02-30 is not). */
export function isCalendarDay(day: string): boolean {
  const t = Date.parse(`${day}T00:00:00Z`);
  return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === day;
}

/** A zone a client named: the runtime's name for it, or 4. */
export function timezoneOf(tz: string | undefined, field = 'query.timezone'): string {
  if (tz === undefined) return 'UTC';
  return canonicalTimezone(tz) ?? fail(4, `${field} must be an IANA time zone`);
}

const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);

/**
 * The range of `startDate`…`endDate` in `timeZone`, checked: both or neither, real days, in
 * order, at most 90 days. Neither: null, or with `fallback` the last 90 days up to today.
 */
export function dayRange(
  q: { startDate?: string; endDate?: string },
  timeZone: string,
  fallback: 'none' | 'last90' = 'none',
): TimeRange | null {
  let { startDate, endDate } = q;
  if (startDate === undefined && endDate === undefined) {
    if (fallback === 'none') return null;
    endDate = localDay(timeZone);
    startDate = addDays(endDate, 1 - limits.dateRangeDays);
  }
  if (startDate === undefined || endDate === undefined) return fail(4, 'query.startDate and query.endDate go together');
  if (!isCalendarDay(startDate)) return fail(4, 'query.startDate must be a date (YYYY-MM-DD)');
  if (!isCalendarDay(endDate)) return fail(4, 'query.endDate must be a date (YYYY-MM-DD)');
  const days = (Date.parse(endDate) - Date.parse(startDate)) / DAY_MS + 1;
  if (days < 1) return fail(4, 'query.endDate must not be before query.startDate');
  if (days > limits.dateRangeDays) return fail(4, `query: the date range spans at most ${limits.dateRangeDays} days`);
  return {
    from: zonedDayStart(startDate, timeZone),
    to: zonedDayStart(addDays(endDate, 1), timeZone),
    startDate,
    endDate,
  };
}

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));

/**
 * `ts` → "YYYY-MM-DD HH:mm:ss" in `timeZone`, for many rows: the rest is arithmetic once the
 * zone's offset is known. Offsets change only on quarter hours, and never twice within six
 * hours: when the offset is the same at both ends of a six-hour window it holds for all of it,
 * otherwise it is looked up per quarter hour inside that window.
 */
export function localTimeFormatter(timeZone: string): (ts: number) => string {
  const QUARTER = 15 * 60_000;
  const WINDOW = 24 * QUARTER;
  let validFrom = 0;
  let validTo = -1;
  let offset = 0;
  return (ts) => {
    if (ts < validFrom || ts >= validTo) {
      validFrom = Math.floor(ts / QUARTER) * QUARTER;
      offset = zoneOffset(timeZone, validFrom);
      validTo = zoneOffset(timeZone, validFrom + WINDOW) === offset ? validFrom + WINDOW : validFrom + QUARTER;
    }
    const d = new Date(ts + offset);
    return `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())} ${pad2(d.getUTCHours())}:${pad2(
      d.getUTCMinutes(),
    )}:${pad2(d.getUTCSeconds())}`;
  };
}

export const iso = (t: number | null | undefined): string | null =>
  t === null || t === undefined ? null : new Date(Number(t)).toISOString();
