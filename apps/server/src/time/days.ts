/**
 * Plant-local days as YYYY-MM-DD text: the day of an instant in a zone, calendar arithmetic on
 * days, and the days of a month or a year. A plant's "day" is its local date in its own zone.
 */
import { QUARTER_HOUR_MS, zoneOf } from './zones.ts';

export const DAY_MS = 86_400_000;

const dayFormats = new Map<string, Intl.DateTimeFormat>();
const dayBuckets = new Map<string, Map<number, string>>();

function dayFormat(zone: string): Intl.DateTimeFormat {
  let format = dayFormats.get(zone);
  if (!format) {
    // en-CA formats dates as YYYY-MM-DD.
    format = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(zone, format);
  }
  return format;
}

/**
 * The local date (YYYY-MM-DD) of `at` in `timeZone`; an unknown zone counts as UTC. No zone's
 * date changes inside a UTC quarter hour, so a day is looked up once per zone and quarter hour.
 */
export function localDay(timeZone: string, at = Date.now()): string {
  const zone = zoneOf(timeZone);
  let buckets = dayBuckets.get(zone);
  if (!buckets) {
    buckets = new Map();
    dayBuckets.set(zone, buckets);
  }
  const bucket = Math.floor(at / QUARTER_HOUR_MS);
  let day = buckets.get(bucket);
  if (day === undefined) {
    day = dayFormat(zone).format(at);
    if (buckets.size >= 50_000) buckets.clear();
    buckets.set(bucket, day);
  }
  return day;
}

/** A YYYY-MM-DD text that is a real calendar date (2024-02-30 is not). */
export function isCalendarDay(day: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return false;
  const t = Date.parse(`${day}T00:00:00Z`);
  return Number.isFinite(t) && new Date(t).toISOString().slice(0, 10) === day;
}

/** A day as the UTC midnight of its date, for calendar arithmetic. */
export const dayUtc = (day: string) => Date.parse(`${day}T00:00:00Z`);
const utcDay = (t: number) => new Date(t).toISOString().slice(0, 10);

/** The day `n` days after `day` (calendar arithmetic). */
export const addDays = (day: string, n: number) => utcDay(dayUtc(day) + n * DAY_MS);
export const nextDay = (day: string) => addDays(day, 1);
export const previousDay = (day: string) => addDays(day, -1);

/** Days from `from` to `to`, both counted (0 or less when `to` is before `from`). */
export const daysBetween = (from: string, to: string) => Math.round((dayUtc(to) - dayUtc(from)) / DAY_MS) + 1;

/** Every real date from `from` to `to` inclusive (`to` may be a month's "-31"). */
export function daysOf(from: string, to: string): string[] {
  const out: string[] = [];
  for (let t = dayUtc(from); ; t += DAY_MS) {
    const day = utcDay(t);
    if (day > to) break;
    out.push(day);
  }
  return out;
}

/** First and last day of the month of `day`, as text ("-31" for every month: days compare as text). */
export const monthDays = (day: string) => ({ from: `${day.slice(0, 7)}-01`, to: `${day.slice(0, 7)}-31` });

/** First and last day of the year of `day`. */
export const yearDays = (day: string) => ({ from: `${day.slice(0, 4)}-01-01`, to: `${day.slice(0, 4)}-12-31` });
