/**
 * Plant-local wall-clock times ↔ instants. A wall-clock time is kept as "milliseconds as if the
 * local fields were UTC" (`Date.UTC(y, m - 1, d, h, mi, s)`), which makes day arithmetic free
 * of daylight-saving drift. Zones the runtime does not know count as UTC (as `localDay` does).
 */
import { isKnownTimezone, zonePartsFormatter } from '../plants/local-day.ts';

export const DAY_MS = 86_400_000;

const zoneOf = (timeZone: string) => (isKnownTimezone(timeZone) ? timeZone : 'UTC');

// Offsets change only at whole quarter hours: one Intl lookup per zone and quarter hour.
const QUARTER_HOUR = 900_000;
const offsets = new Map<string, Map<number, number>>();

/** The zone's offset from UTC at instant `at`, in ms (+3 600 000 for CET). */
export function offsetAt(timeZone: string, at: number): number {
  const zone = zoneOf(timeZone);
  let bySlot = offsets.get(zone);
  if (!bySlot) {
    bySlot = new Map();
    offsets.set(zone, bySlot);
  }
  const slot = Math.floor(at / QUARTER_HOUR);
  let offset = bySlot.get(slot);
  if (offset === undefined) {
    const fields: Record<string, number> = {};
    for (const p of zonePartsFormatter(zone).formatToParts(slot * QUARTER_HOUR))
      if (p.type !== 'literal') fields[p.type] = Number(p.value);
    offset =
      Date.UTC(fields.year!, fields.month! - 1, fields.day!, fields.hour!, fields.minute!, fields.second!) - slot * QUARTER_HOUR;
    if (bySlot.size >= 200_000) bySlot.clear();
    bySlot.set(slot, offset);
  }
  return offset;
}

/** The wall-clock time in `timeZone` at instant `at`, as UTC-field milliseconds. */
export const wallClock = (timeZone: string, at: number) => at + offsetAt(timeZone, at);

/**
 * The instants a plant-local wall-clock time stands for, earliest first: one normally, two in
 * the hour a clock is set back, none in the hour it skips.
 */
export function instantsOf(timeZone: string, wall: number): number[] {
  const before = offsetAt(timeZone, wall - DAY_MS);
  const after = offsetAt(timeZone, wall + DAY_MS);
  // No clock change within a day either side (nearly always): one instant.
  if (before === after && wallClock(timeZone, wall - before) === wall) return [wall - before];
  const around = new Set([before, offsetAt(timeZone, wall), after]);
  const out = new Set<number>();
  for (const o of around) if (wallClock(timeZone, wall - o) === wall) out.add(wall - o);
  return [...out].sort((a, b) => a - b);
}

/**
 * The instant of a plant-local wall-clock time: the earlier one when the time occurs twice,
 * and for a skipped time the instant the clock reads that much after the jump (02:30 on a
 * 02:00→03:00 night is 03:30), as JavaScript's Temporal does ("compatible").
 */
export function instantOf(timeZone: string, wall: number): number {
  const found = instantsOf(timeZone, wall);
  if (found.length > 0) return found[0]!;
  return wall - offsetAt(timeZone, wall - DAY_MS);
}

/** Midnight starting the plant-local day `day` (YYYY-MM-DD), as an instant. */
export const dayStartInstant = (timeZone: string, day: string) => instantOf(timeZone, Date.parse(`${day}T00:00:00Z`));

/** The day `n` days after `day` (YYYY-MM-DD, calendar arithmetic). */
export const addDays = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);

/** Days from `from` to `to`, both counted (0 or less when `to` is before `from`). */
export const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;

/** A YYYY-MM-DD text that is a real calendar date. */
export function isCalendarDay(day: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return false;
  const t = Date.parse(`${day}T00:00:00Z`);
  return Number.isFinite(t) && new Date(t).toISOString().slice(0, 10) === day;
}

/** "YYYY-MM-DD HH:mm" of a wall-clock time (seconds shown only when not zero). */
export function wallText(wall: number): string {
  const iso = new Date(wall).toISOString();
  const seconds = iso.slice(17, 19);
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)}${seconds === '00' ? '' : `:${seconds}`}`;
}
