/**
 * A plant's "day" is its local date in the plant's own time zone. The list needs "today" for
 * every plant in one query, and SQLite knows no IANA zones, so the local date is worked out
 * here: at any instant the zones of the world fall into at most three local dates, and the SQL
 * is a CASE over the (small) groups of zones whose date differs from the most common one.
 */
import { type RawBuilder, sql } from 'kysely';

/** Every zone a plant may have: the IANA zones this runtime knows, and UTC (the default). */
export const knownTimezones: readonly string[] = [...Intl.supportedValuesOf('timeZone'), 'UTC'];
const knownSet: ReadonlySet<string> = new Set(knownTimezones);
export const isKnownTimezone = (tz: string) => knownSet.has(tz);

/**
 * The runtime's name for a zone (links like Asia/Kolkata, US/Eastern or Etc/UTC resolve to the
 * name the runtime lists), or null if it is no zone at all. Plants store this name, so every
 * stored zone is one of `knownTimezones`.
 */
export function canonicalTimezone(tz: string): string | null {
  if (isKnownTimezone(tz)) return tz;
  try {
    const resolved = new Intl.DateTimeFormat('en', { timeZone: tz }).resolvedOptions().timeZone;
    return isKnownTimezone(resolved) ? resolved : null;
  } catch {
    return null;
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function dayFormatter(timeZone: string) {
  let f = formatters.get(timeZone);
  if (!f) {
    // en-CA formats dates as YYYY-MM-DD.
    f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(timeZone, f);
  }
  return f;
}

const partsFormatters = new Map<string, Intl.DateTimeFormat>();
/** A formatter of every wall-clock field in `timeZone` (24 h), for `formatToParts`; cached per zone. */
export function zonePartsFormatter(timeZone: string): Intl.DateTimeFormat {
  let f = partsFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    partsFormatters.set(timeZone, f);
  }
  return f;
}

/** The local date (YYYY-MM-DD) in `timeZone` at `at`; an unknown zone counts as UTC. */
export function localDay(timeZone: string, at = Date.now()): string {
  return dayFormatter(isKnownTimezone(timeZone) ? timeZone : 'UTC').format(at);
}

// Zone offsets are whole quarter hours, so no zone's date changes inside a UTC quarter hour.
const QUARTER_HOUR = 15 * 60_000;
let cached: { slot: number; expr: RawBuilder<string> } | null = null;

/** SQL for "today in the plant's zone" (a YYYY-MM-DD string), over `plants.timezone`. */
export function plantTodaySql(at = Date.now()): RawBuilder<string> {
  const slot = Math.floor(at / QUARTER_HOUR);
  if (cached?.slot === slot) return cached.expr;
  const byDay = new Map<string, string[]>();
  for (const tz of knownTimezones) {
    const day = localDay(tz, at);
    const zones = byDay.get(day);
    if (zones) zones.push(tz);
    else byDay.set(day, [tz]);
  }
  const groups = [...byDay.entries()].sort((a, b) => b[1].length - a[1].length);
  const [common, ...others] = groups;
  const expr =
    others.length === 0
      ? sql<string>`${common![0]}`
      : sql<string>`(case ${sql.join(
          others.map(([day, zones]) => sql`when plants.timezone in (${sql.join(zones)}) then ${day}`),
          sql` `,
        )} else ${common![0]} end)`;
  cached = { slot, expr };
  return expr;
}
