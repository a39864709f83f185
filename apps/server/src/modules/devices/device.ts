/**
 * One device of the devices area with what its detail pages read: the device through the
 * resolver (access/resolve.ts: a device the caller cannot see, a deleted one, or one of another
 * kind answers as missing, 600 for an inverter and 404 otherwise; 2 when `need` is 'operate'
 * and the caller may not change it), then its gateway, plant and latest values (energy/latest.ts:
 * none when they are older than its binding).
 */
import type { DeviceStateName } from '@sunfleet/contracts';
import type { Caller } from '../../access/caller.ts';
import { deviceFor, type Need } from '../../access/resolve.ts';
import type { Db } from '../../db/index.ts';
import { parseJson } from '../../db/index.ts';
import type { DeviceKind, DeviceStatus } from '../../db/schema.ts';
import { zoneOf } from '../../time/index.ts';
import { deviceDetailRow } from './device.repo.ts';
import type { Values } from './fields.ts';

export interface DeviceRow {
  id: number;
  sn: string;
  kind: DeviceKind;
  alias: string | null;
  protocolId: string;
  deviceType: number | null;
  ratedPowerW: number | null;
  status: DeviceStatus;
  /** What its badge shows: its status, or off while powered off (energy/device-state.ts). */
  state: DeviceStateName;
  createdAt: number;
  /** When it joined its plant: its data before then is an earlier owner's and is not shown. */
  boundAt: number;
  plant: { id: number; name: string; timezone: string; masterMeterId: number | null } | null;
  gateway: { id: number; sn: string; alias: string | null; online: boolean };
  /** The plant's zone, or UTC for an unbound device. */
  timezone: string;
  canEdit: boolean;
  latest: { ts: number; values: Values; faults: string[] } | null;
}

export async function findDevice(
  db: Db,
  caller: Caller,
  kind: DeviceKind,
  by: { sn: string } | { id: number },
  need: Need = 'view',
): Promise<DeviceRow> {
  const device = await deviceFor(db, caller, by, { kind, need });
  const r = await deviceDetailRow(db, device.id);
  return {
    id: device.id,
    sn: device.sn,
    kind: device.kind,
    alias: device.alias,
    protocolId: device.protocolId,
    deviceType: r.device_type === null ? null : Number(r.device_type),
    ratedPowerW: r.rated_power_w === null ? null : Number(r.rated_power_w),
    status: device.status,
    state: r.state,
    createdAt: Number(r.created_at),
    boundAt: device.boundAt,
    plant:
      device.plantId === null
        ? null
        : {
            id: device.plantId,
            name: r.plant_name ?? '',
            timezone: device.timezone ?? 'UTC',
            masterMeterId: r.master_meter_id ?? null,
          },
    gateway: { id: device.gatewayId, sn: r.gateway_sn, alias: r.gateway_alias, online: Number(r.gateway_online) === 1 },
    timezone: zoneOf(device.timezone),
    canEdit: device.canOperate,
    latest:
      r.latest_ts === null
        ? null
        : {
            ts: Number(r.latest_ts),
            values: parseJson<Values>(r.latest_values, {}),
            faults: parseJson<string[]>(r.latest_faults, []),
          },
  };
}
