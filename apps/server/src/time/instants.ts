/**
 * Plant-local wall-clock times ↔ instants. A wall-clock time is kept as "milliseconds as if the
 * local fields were UTC" (`Date.UTC(y, m - 1, d, h, mi, s)`), which makes day arithmetic free of
 * daylight-saving drift. Zones the runtime does not know count as UTC.
 */
import { DAY_MS, dayUtc, nextDay } from './days.ts';
import { offsetAt } from './zones.ts';

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

/** The instant of local wall time `minutes` after the start of the date `day` (as `instantOf`). */
export const zonedInstant = (timeZone: string, day: string, minutes: number) =>
  instantOf(timeZone, dayUtc(day) + minutes * 60_000);

/**
 * Where the plant-local day `day` starts: local midnight, or where the clock jumps to when it
 * skips midnight (America/Santiago starts some days at 01:00).
 */
export const dayStart = (timeZone: string, day: string) => instantOf(timeZone, dayUtc(day));

/** Start (inclusive) and end (exclusive) of a plant-local day: 23 or 25 hours at a daylight-saving switch. */
export function dayBounds(timeZone: string, day: string): { start: number; end: number } {
  return { start: dayStart(timeZone, day), end: dayStart(timeZone, nextDay(day)) };
}
