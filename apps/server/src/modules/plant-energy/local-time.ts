/**
 * Plant-local days as instants: where a local day starts and ends, the instant of a local wall
 * time ("07:00 on 2025-03-30 in Madrid"), the days of a range. The day of an instant is the one
 * ingest uses for the rollups (`localDay` of energy/rollup-day.ts), so curves, incomes and
 * day rows always agree on which day a sample belongs to.
 */

import { localDay } from '../../energy/rollup-day.ts';
import { fail } from '../../http/errors.ts';

export { localDay };

const DAY_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

/** A YYYY-MM-DD that is a real calendar date. */
export function isRealDay(day: string): boolean {
  const m = DAY_RE.exec(day);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(Date.UTC(y, mo - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d;
}

/** The `date` of a request, or the plant's today; a date that does not exist answers code 4. */
export function requestDay(timezone: string, date: string | undefined, now = Date.now()): string {
  if (date === undefined) return localDay(timezone, now);
  if (!isRealDay(date)) fail(4, 'query.date is not a date');
  return date;
}

const utcDay = (t: number) => new Date(t).toISOString().slice(0, 10);
const dayUtc = (day: string) => Date.parse(`${day}T00:00:00Z`);

export const nextDay = (day: string) => utcDay(dayUtc(day) + DAY_MS);
export const previousDay = (day: string) => utcDay(dayUtc(day) - DAY_MS);

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

const formats = new Map<string, Intl.DateTimeFormat>();
function wallFormat(timeZone: string): Intl.DateTimeFormat {
  let f = formats.get(timeZone);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      });
    } catch {
      f = wallFormat('UTC'); // as the rollups do: an unknown zone counts as UTC
    }
    formats.set(timeZone, f);
  }
  return f;
}

// Offsets change only at whole quarter hours: one lookup per zone and quarter hour.
const QUARTER_HOUR = 900_000;
const offsets = new Map<string, Map<number, number>>();

/** Local wall time minus UTC at `ts`, in ms. */
export function offsetMs(timeZone: string, ts: number): number {
  let byQuarter = offsets.get(timeZone);
  if (!byQuarter) {
    byQuarter = new Map();
    offsets.set(timeZone, byQuarter);
  }
  const slot = Math.floor(ts / QUARTER_HOUR);
  let offset = byQuarter.get(slot);
  if (offset === undefined) {
    const p: Record<string, number> = {};
    for (const part of wallFormat(timeZone).formatToParts(slot * QUARTER_HOUR)) {
      if (part.type !== 'literal') p[part.type] = Number(part.value);
    }
    offset = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!) - slot * QUARTER_HOUR;
    if (byQuarter.size >= 50_000) byQuarter.clear();
    byQuarter.set(slot, offset);
  }
  return offset;
}

/**
 * The instant of local wall time `minutes` after midnight of `day` in `timeZone`. A wall time
 * skipped by a daylight-saving switch falls just after the switch; a repeated one is its first.
 */
export function zonedInstant(timeZone: string, day: string, minutes: number): number {
  const wall = dayUtc(day) + minutes * 60_000;
  const first = wall - offsetMs(timeZone, wall);
  const second = wall - offsetMs(timeZone, first);
  if (second === first) return first;
  // Across a switch: the earlier candidate that really shows this wall time, else the later one.
  const candidates = [Math.min(first, second), Math.max(first, second)];
  return candidates.find((t) => t + offsetMs(timeZone, t) === wall) ?? candidates[1]!;
}

/** Start (inclusive) and end (exclusive) of a plant-local day. */
export function dayBounds(timeZone: string, day: string): { start: number; end: number } {
  return { start: zonedInstant(timeZone, day, 0), end: zonedInstant(timeZone, nextDay(day), 0) };
}

export const iso = (t: number | null | undefined) => (t === null || t === undefined ? null : new Date(Number(t)).toISOString());
