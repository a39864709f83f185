/**
 * A plant's devices with their latest values (device_latest): one indexed query on
 * devices (plant_id, kind) and device_latest by key. A reading older than the offline threshold
 * (3 × the gateway's upload interval, as the offline job counts) or of a device marked offline
 * is not "now": it counts as no data.
 */
import type { Db } from '../../db/index.ts';
import { parseJson } from '../../db/index.ts';
import type { DeviceKind } from '../../db/schema.ts';

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

const base = (db: Db) =>
  db
    .selectFrom('devices')
    .innerJoin('gateways', 'gateways.id', 'devices.gateway_id')
    // Latest values from the device's binding to its plant on (an earlier owner's are not shown).
    .leftJoin('device_latest', (join) =>
      join.onRef('device_latest.device_id', '=', 'devices.id').onRef('device_latest.ts', '>=', 'devices.bound_at'),
    )
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
export async function plantLatest(db: Db, plantId: number, kinds?: DeviceKind[], now = Date.now()): Promise<LatestDevice[]> {
  let q = base(db).where('devices.plant_id', '=', plantId);
  if (kinds) q = q.where('devices.kind', 'in', kinds);
  const rows = await q.orderBy('devices.id').execute();
  return rows.map((r) => toLatest(r as Row, now));
}

/** One device's latest values. */
export async function deviceLatest(db: Db, deviceId: number, now = Date.now()): Promise<LatestDevice | null> {
  const row = await base(db).where('devices.id', '=', deviceId).executeTakeFirst();
  return row ? toLatest(row as Row, now) : null;
}

export const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
