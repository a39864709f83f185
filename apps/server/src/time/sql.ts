/**
 * "Today" in each row's own zone, in SQL. The plant and device lists need it for every plant in
 * one query, and SQLite knows no IANA zones, so the local date is worked out here: at any
 * instant the zones of the world fall into at most three local dates, and the SQL is a CASE over
 * the (small) groups of zones whose date differs from the most common one.
 */
import { type RawBuilder, sql } from 'kysely';
import { localDay } from './days.ts';
import { knownTimezones, QUARTER_HOUR_MS } from './zones.ts';

// Zone offsets are whole quarter hours, so no zone's date changes inside a UTC quarter hour.
const cached = new Map<string, { slot: number; expr: RawBuilder<string> }>();

/** SQL for "today in the row's zone" (a YYYY-MM-DD string), over the zone column `zoneColumn`. */
export function localTodaySql(zoneColumn: string, at = Date.now()): RawBuilder<string> {
  const slot = Math.floor(at / QUARTER_HOUR_MS);
  const hit = cached.get(zoneColumn);
  if (hit?.slot === slot) return hit.expr;
  const byDay = new Map<string, string[]>();
  for (const tz of knownTimezones) {
    const day = localDay(tz, at);
    const zones = byDay.get(day);
    if (zones) zones.push(tz);
    else byDay.set(day, [tz]);
  }
  const groups = [...byDay.entries()].sort((a, b) => b[1].length - a[1].length);
  const [common, ...others] = groups;
  const column = sql.ref(zoneColumn);
  const expr =
    others.length === 0
      ? sql<string>`${common![0]}`
      : sql<string>`(case ${sql.join(
          others.map(([day, zones]) => sql`when ${column} in (${sql.join(zones)}) then ${day}`),
          sql` `,
        )} else ${common![0]} end)`;
  cached.set(zoneColumn, { slot, expr });
  return expr;
}
