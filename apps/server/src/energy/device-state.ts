/**
 * The state a device's badge shows (`deviceState` of the contracts), written once, as SQL over
 * `devices`, for every page, filter, count and order that shows or selects by it:
 *
 * - offline and upgrading as stored (they say more than the power);
 * - else 'off' while the device is powered off: by its last power command (boot or shutdown)
 *   when that succeeded after the device's latest reading (a shutdown: off; a boot: on), else by
 *   that reading (its running state is its protocol's 'Off');
 * - else its stored status.
 *
 * The expression reads `devices` only (its latest reading and power command by subqueries), so
 * any select over `devices`, with or without joins, can show, filter, group or sort by it. It
 * holds only literals, so the same text in a select and its group by is one expression.
 */
import { type DeviceStateName, deviceStates } from '@sunfleet/contracts';
import { protocolPlan, protocols } from '@sunfleet/protocols';
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../db/index.ts';
import { isPostgres } from '../db/migrations/columns.ts';

/** Each shipped protocol with a running state, and its codes that say 'Off'. */
const offCodes: ReadonlyArray<readonly [string, number[]]> = Object.keys(protocols).flatMap((id) => {
  const names = protocolPlan(id)?.field('runningState')?.enum;
  const codes = names
    ? Object.keys(names)
        .map(Number)
        .filter((code) => names[code]?.en === 'Off')
    : [];
  return codes.length > 0 ? [[id, codes] as const] : [];
});

/** The latest reading of the device since its binding (an earlier owner's is none), as `l`. */
const latest = sql`from device_latest l where l.device_id = devices.id and l.ts >= devices.bound_at`;

/** 1 when the reading `l` says Off, else 0. */
function readingOff(db: Db): RawBuilder<number> {
  if (offCodes.length === 0) return sql<number>`0`;
  const pg = isPostgres(db);
  // On PostgreSQL the values are JSON text: the code compared as the text JSON writes for it.
  const running = pg ? sql`(l."values"::json ->> 'runningState')` : sql`json_extract(l."values", '$.runningState')`;
  const of = ([id, codes]: readonly [string, number[]]) =>
    sql`(devices.protocol_id = ${sql.lit(id)} and ${running} in (${sql.join(codes.map((c) => sql.lit(pg ? String(c) : c)))}))`;
  return sql<number>`(case when ${sql.join(offCodes.map(of), sql` or `)} then 1 else 0 end)`;
}

/**
 * 1 (off) or 0 (on) by the device's last power command when it succeeded after the latest
 * reading; null when there is none or it says nothing newer than the reading.
 */
const byCommand = sql<number | null>`(select case when j.state = 'succeeded' and j.finished_at is not null
  and j.finished_at > coalesce((select l.ts ${latest}), -1) then (case when j.type = 'shutdown' then 1 else 0 end) end
  from command_jobs j where j.device_sn = devices.sn and j.type in ('boot', 'shutdown')
  order by j.created_at desc, j.id desc limit 1)`;

/** The device's state (`deviceStates`) as a column of any select over `devices`. */
export function deviceStateSql(db: Db): RawBuilder<DeviceStateName> {
  return sql<DeviceStateName>`(case when devices.status in ('offline', 'upgrading') then devices.status
    when coalesce(${byCommand}, (select ${readingOff(db)} ${latest}), 0) = 1 then 'off' else devices.status end)`;
}

/** The state order of a status sort: fault, warning, upgrading, offline, off, normal from the top. */
export function stateRankSql(db: Db): RawBuilder<number> {
  return sql<number>`(case ${deviceStateSql(db)} when 'fault' then 5 when 'warning' then 4 when 'upgrading' then 3
    when 'offline' then 2 when 'off' then 1 else 0 end)`;
}

export type StateCounts = { total: number } & Record<DeviceStateName, number>;

/** Counts per state from rows of (state, n); every state present, 0 when none. */
export function stateCounts(rows: ReadonlyArray<{ state: string; n: number | string | bigint }>): StateCounts {
  const counts = { total: 0, ...Object.fromEntries(deviceStates.map((s) => [s, 0])) } as StateCounts;
  for (const r of rows) {
    const n = Number(r.n);
    counts.total += n;
    if ((deviceStates as readonly string[]).includes(r.state)) counts[r.state as DeviceStateName] += n;
  }
  return counts;
}
