/**
 * The days and zones a request names, checked: a bad one answers code 4 naming the field.
 */
import { ErrorCode, limits } from '@sunfleet/contracts';
import { fail } from '../http/errors.ts';
import { addDays, DAY_MS, isCalendarDay, localDay } from './days.ts';
import { dayStart } from './instants.ts';
import { canonicalTimezone } from './zones.ts';

/** A zone a client named: the runtime's name for it (UTC when none is named), or code 4. */
export function timezoneOf(tz: string | undefined, field = 'query.timezone'): string {
  if (tz === undefined) return 'UTC';
  return canonicalTimezone(tz) ?? fail(ErrorCode.validation, `${field} must be an IANA time zone`);
}

/** The `date` of a request, or the plant's today; a date that does not exist answers code 4. */
export function requestDay(timezone: string, date: string | undefined, now = Date.now()): string {
  if (date === undefined) return localDay(timezone, now);
  if (!isCalendarDay(date)) fail(ErrorCode.validation, 'query.date is not a date');
  return date;
}

export interface TimeRange {
  from: number;
  to: number;
  startDate: string;
  endDate: string;
}

/**
 * The range of `startDate`…`endDate` in `timeZone`, `[start of startDate, start of the day after
 * endDate)`, checked: both or neither, real days, in order, at most 90 days. Neither: null, or
 * with `fallback` the last 90 days up to today.
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
  if (startDate === undefined || endDate === undefined)
    return fail(ErrorCode.validation, 'query.startDate and query.endDate go together');
  if (!isCalendarDay(startDate)) return fail(ErrorCode.validation, 'query.startDate must be a date (YYYY-MM-DD)');
  if (!isCalendarDay(endDate)) return fail(ErrorCode.validation, 'query.endDate must be a date (YYYY-MM-DD)');
  const days = (Date.parse(endDate) - Date.parse(startDate)) / DAY_MS + 1;
  if (days < 1) return fail(ErrorCode.validation, 'query.endDate must not be before query.startDate');
  if (days > limits.dateRangeDays)
    return fail(ErrorCode.validation, `query: the date range spans at most ${limits.dateRangeDays} days`);
  return {
    from: dayStart(timeZone, startDate),
    to: dayStart(timeZone, addDays(endDate, 1)),
    startDate,
    endDate,
  };
}
