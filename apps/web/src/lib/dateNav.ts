/**
 * Date navigation of the overview chart: a plant-local day (YYYY-MM-DD) moved by a day, a month
 * or a year depending on the tab, never past the plant's today. Calendar arithmetic in UTC, so
 * daylight-saving changes cannot shift a date.
 */
import { browserZone, checkedZone, wallClock } from './zonedTime.ts';

export type ChartPeriod = 'day' | 'month' | 'year' | 'total';
export const chartPeriods: readonly ChartPeriod[] = ['day', 'month', 'year', 'total'];

const pad = (n: number) => String(n).padStart(2, '0');
const parse = (day: string) => ({ y: Number(day.slice(0, 4)), m: Number(day.slice(5, 7)), d: Number(day.slice(8, 10)) });
const write = (t: Date) => `${t.getUTCFullYear()}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}`;
const daysInMonth = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();

export const isDay = (s: unknown): s is string => typeof s === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(s);

/** Move `day` by `steps` days, months or years (months and years keep the day, clamped to the month's end). */
export function shiftDate(day: string, period: ChartPeriod, steps: number): string {
  const { y, m, d } = parse(day);
  if (period === 'day') return write(new Date(Date.UTC(y, m - 1, d + steps)));
  if (period === 'total') return day;
  const months = period === 'month' ? steps : steps * 12;
  const index = y * 12 + (m - 1) + months;
  const ny = Math.floor(index / 12);
  const nm = (index % 12) + 1;
  return `${ny}-${pad(nm)}-${pad(Math.min(d, daysInMonth(ny, nm)))}`;
}

/** The part of a date that names the period: the day, "YYYY-MM", "YYYY", or nothing for all time. */
export function periodKey(day: string, period: ChartPeriod): string {
  if (period === 'day') return day;
  if (period === 'month') return day.slice(0, 7);
  if (period === 'year') return day.slice(0, 4);
  return '';
}

/** Whether moving forward would pass today's period (the next button is disabled then). */
export function canGoForward(day: string, period: ChartPeriod, today: string): boolean {
  if (period === 'total') return false;
  return periodKey(day, period) < periodKey(today, period);
}

/** A date never after today. */
export const clampToToday = (day: string, today: string) => (day > today ? today : day);

/** Step `steps` periods but not past today (a step forward from the current period stays there). */
export function navigate(day: string, period: ChartPeriod, steps: number, today: string): string {
  return clampToToday(shiftDate(day, period, steps), today);
}

/** Today in an IANA time zone as YYYY-MM-DD (the browser's zone when the name is unknown). */
export function todayIn(timezone: string | null | undefined, now = new Date()): string {
  const parts = zonedParts(now, timezone);
  return `${parts.year}-${pad(parts.month)}-${pad(parts.day)}`;
}

export interface ZonedParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** The zone's wall clock; the browser's for no zone or one the runtime does not know. */
function wallClockIn(timezone: string | null | undefined): Intl.DateTimeFormat {
  const zone = timezone && checkedZone(timezone) === timezone ? timezone : browserZone();
  return wallClock(zone, 'en-US');
}

/** Wall-clock fields of an instant in a time zone. */
export function zonedParts(at: Date, timezone: string | null | undefined): ZonedParts {
  const parts = wallClockIn(timezone).formatToParts(at);
  const get = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value);
  return {
    year: get('year'),
    month: get('month'),
    day: get('day'),
    hour: get('hour') % 24,
    minute: get('minute'),
    second: get('second'),
  };
}

/** "YYYY-MM-DD HH:mm" of an instant in a time zone; -- when missing. */
export function zonedDateTime(iso: string | Date | null | undefined, timezone: string | null | undefined): string {
  if (!iso) return '--';
  const at = iso instanceof Date ? iso : new Date(iso);
  if (Number.isNaN(at.getTime())) return '--';
  const p = zonedParts(at, timezone);
  return `${p.year}-${pad(p.month)}-${pad(p.day)} ${pad(p.hour)}:${pad(p.minute)}`;
}

/** Minutes after local midnight of an instant in a time zone (the day chart's x value). */
export function minuteOfDay(iso: string, timezone: string | null | undefined): number {
  const p = zonedParts(new Date(iso), timezone);
  return p.hour * 60 + p.minute;
}

/** UTC offset of a zone at an instant, e.g. "UTC+02:00". */
export function utcOffset(timezone: string | null | undefined, at = new Date()): string {
  const p = zonedParts(at, timezone);
  const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  const minutes = Math.round((wall - Math.floor(at.getTime() / 1000) * 1000) / 60_000);
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `UTC${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}
