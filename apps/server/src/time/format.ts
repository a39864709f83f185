/** Instants as the API and the downloads show them. */
import { offsetAt } from './zones.ts';

/** An instant (epoch ms, or a numeric column) as ISO 8601 UTC; no instant stays null. */
export const iso = (t: number | null | undefined): string | null =>
  t === null || t === undefined ? null : new Date(Number(t)).toISOString();

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
      offset = offsetAt(timeZone, validFrom);
      validTo = offsetAt(timeZone, validFrom + WINDOW) === offset ? validFrom + WINDOW : validFrom + QUARTER;
    }
    const d = new Date(ts + offset);
    return `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())} ${pad2(d.getUTCHours())}:${pad2(
      d.getUTCMinutes(),
    )}:${pad2(d.getUTCSeconds())}`;
  };
}

/** "HH:00" of the hour an instant falls in, in the zone. */
export const hourLabel = (timeZone: string, at: number) =>
  `${new Date(at + offsetAt(timeZone, at)).toISOString().slice(11, 13)}:00`;

/** "YYYY-MM-DD HH:mm" of a wall-clock time (UTC-field ms; seconds shown only when not zero). */
export function wallText(wall: number): string {
  const text = new Date(wall).toISOString();
  const seconds = text.slice(17, 19);
  return `${text.slice(0, 10)} ${text.slice(11, 16)}${seconds === '00' ? '' : `:${seconds}`}`;
}
