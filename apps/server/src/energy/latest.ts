/**
 * Latest values (device_latest): one row per device, the newest reading ingest stored (its time,
 * the decoded values as JSON, the open fault codes). A device's latest values count from its
 * binding to its plant on: a reading older than `devices.bound_at` is an earlier owner's and reads
 * as none. That rule is the join condition here, the one place it is written.
 *
 * A plant's devices and one device with their latest values: one indexed query on devices
 * (plant_id, kind) or (id) and device_latest by key. A reading older than the offline threshold
 * (3 × the gateway's upload interval, as the offline job counts) or of a device marked offline
 * is not "now": it counts as no data.
 */
import { type Expression, type Kysely, type SelectQueryBuilder, type SelectQueryBuilderWithLeftJoin, sql } from 'kysely';
import { parseJson } from '../db/index.ts';
import { isPostgres } from '../db/migrations/columns.ts';
import type { Database, DeviceKind } from '../db/schema.ts';

/**
 * `q` (a select over devices) with each device's latest values since its binding joined as
 * `device_latest` (left join: null columns when there are none).
 */
export function joinLatest<DB extends Database, TB extends keyof DB, O>(
  q: SelectQueryBuilder<DB, TB, O>,
): SelectQueryBuilderWithLeftJoin<DB, TB, O, 'device_latest'> {
  return (q as unknown as SelectQueryBuilder<Database, 'devices', O>).leftJoin('device_latest', (join) =>
    join.onRef('device_latest.device_id', '=', 'devices.id').onRef('device_latest.ts', '>=', 'devices.bound_at'),
  ) as never;
}

/** A number of the joined latest values (`joinLatest`): only simple keys (letters and digits). */
export function latestNumber(db: Kysely<Database>, key: string): Expression<number | null> {
  if (!/^[A-Za-z0-9]+$/.test(key)) throw new Error(`not a simple key: ${key}`);
  return isPostgres(db)
    ? sql<number | null>`(device_latest."values"::json ->> ${sql.lit(key)})::double precision`
    : sql<number | null>`json_extract(device_latest."values", ${sql.lit(`$.${key}`)})`;
}

/** Time of the joined latest values (`joinLatest`), 0 when none: an order key. */
export const latestTsOrZero = sql<number>`coalesce(device_latest.ts, 0)`;
/** The device has no latest values since its binding (`joinLatest`). */
export const noLatest = sql<boolean>`device_latest.device_id is null`;

/** Latest values of the live devices of these plants that have any since their binding. */
export function plantsLatest(db: Kysely<Database>, plantIds: readonly number[]) {
  return (
    db
      .selectFrom('devices')
      // Latest values from each device's binding to the plant on (an earlier owner's are not the plant's).
      .innerJoin('device_latest', (join) =>
        join.onRef('device_latest.device_id', '=', 'devices.id').onRef('device_latest.ts', '>=', 'devices.bound_at'),
      )
      .select(['devices.plant_id', 'devices.kind', 'devices.status', 'device_latest.ts', 'device_latest.values'])
      .where('devices.plant_id', 'in', plantIds)
      .where('devices.deleted_at', 'is', null)
      .execute()
  );
}

// ——— a plant's devices, now ———

/** Offline after this many upload intervals of silence (jobs/offline.ts uses the same factor). */
export const OFFLINE_FACTOR = 3;

export interface LatestDevice {
  id: number;
  sn: string;
  kind: DeviceKind;
  protocolId: string;
  alias: string | null;
  status: string;
  gatewaySn: string;
  /** Reading time of the latest values (null: none yet). */
  ts: number | null;
  values: Record<string, unknown>;
  /** The latest values are recent enough to count as now. */
  fresh: boolean;
}

interface Row {
  id: number;
  sn: string;
  kind: DeviceKind;
  protocol_id: string;
  alias: string | null;
  status: string;
  gateway_sn: string;
  upload_interval_s: number | string;
  ts: number | string | null;
  values: string | null;
}

function toLatest(r: Row, now: number): LatestDevice {
  const ts = r.ts === null ? null : Number(r.ts);
  const fresh = ts !== null && r.status !== 'offline' && now - ts <= OFFLINE_FACTOR * Number(r.upload_interval_s) * 1000;
  return {
    id: r.id,
    sn: r.sn,
    kind: r.kind,
    protocolId: r.protocol_id,
    alias: r.alias,
    status: r.status,
    gatewaySn: r.gateway_sn,
    ts,
    values: parseJson<Record<string, unknown>>(r.values, {}),
    fresh,
  };
}

const base = (db: Kysely<Database>) =>
  joinLatest(db.selectFrom('devices').innerJoin('gateways', 'gateways.id', 'devices.gateway_id'))
    .select([
      'devices.id',
      'devices.sn',
      'devices.kind',
      'devices.protocol_id',
      'devices.alias',
      'devices.status',
      'gateways.sn as gateway_sn',
      'gateways.upload_interval_s',
      'device_latest.ts',
      'device_latest.values',
    ])
    .where('devices.deleted_at', 'is', null);

/** The plant's live devices (all kinds, or the ones named) with their latest values. */
export async function plantLatest(
  db: Kysely<Database>,
  plantId: number,
  kinds?: DeviceKind[],
  now = Date.now(),
): Promise<LatestDevice[]> {
  let q = base(db).where('devices.plant_id', '=', plantId);
  if (kinds) q = q.where('devices.kind', 'in', kinds);
  const rows = await q.orderBy('devices.id').execute();
  return rows.map((r) => toLatest(r as Row, now));
}

/** One device's latest values. */
export async function deviceLatest(db: Kysely<Database>, deviceId: number, now = Date.now()): Promise<LatestDevice | null> {
  const row = await base(db).where('devices.id', '=', deviceId).executeTakeFirst();
  return row ? toLatest(row as Row, now) : null;
}

/** A finite number of the latest values, else null. */
export const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** Live devices' latest values by SN (a device without any is left out). */
export async function latestBySn(
  db: Kysely<Database>,
  sns: readonly string[],
): Promise<Map<string, { ts: number; values: Record<string, unknown> }>> {
  const out = new Map<string, { ts: number; values: Record<string, unknown> }>();
  for (let i = 0; i < sns.length; i += 500) {
    const rows = await base(db)
      .where('devices.sn', 'in', sns.slice(i, i + 500))
      .where('device_latest.ts', 'is not', null)
      .execute();
    for (const r of rows) out.set(r.sn, { ts: Number(r.ts), values: parseJson<Record<string, unknown>>(r.values, {}) });
  }
  return out;
}
