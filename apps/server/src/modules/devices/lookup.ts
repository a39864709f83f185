/**
 * One device from a request, through the device scopes (access/devices.ts): a device the caller
 * cannot see, a deleted one, or one of another kind answers as missing (600 for an inverter,
 * 404 otherwise); one the caller sees but may not change answers 2 when `need` is 'edit'.
 */
import type { ErrorCode } from '@sunfleet/contracts';
import type { Caller } from '../../access/caller.ts';
import { devicesOperable, devicesVisible } from '../../access/devices.ts';
import type { Db } from '../../db/index.ts';
import { parseJson } from '../../db/index.ts';
import type { DeviceKind, DeviceStatus } from '../../db/schema.ts';
import { fail } from '../../http/errors.ts';
import { zoneOf } from '../../time/index.ts';
import type { Values } from './fields.ts';

export const missingCode = (kind: DeviceKind): ErrorCode => (kind === 'inverter' ? 600 : 404);

export interface DeviceRow {
  id: number;
  sn: string;
  kind: DeviceKind;
  alias: string | null;
  protocolId: string;
  deviceType: number | null;
  ratedPowerW: number | null;
  status: DeviceStatus;
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
  need: 'view' | 'edit' = 'view',
): Promise<DeviceRow> {
  let q = db
    .selectFrom('devices')
    .innerJoin('gateways', 'gateways.id', 'devices.gateway_id')
    .leftJoin('plants', 'plants.id', 'devices.plant_id')
    .leftJoin('device_latest', 'device_latest.device_id', 'devices.id')
    .select((eb) => [
      'devices.id',
      'devices.sn',
      'devices.kind',
      'devices.alias',
      'devices.protocol_id',
      'devices.device_type',
      'devices.rated_power_w',
      'devices.status',
      'devices.created_at',
      'devices.bound_at',
      'devices.plant_id',
      'plants.name as plant_name',
      'plants.timezone as plant_timezone',
      'plants.master_meter_id',
      'gateways.id as gateway_id',
      'gateways.sn as gateway_sn',
      'gateways.alias as gateway_alias',
      'gateways.online as gateway_online',
      'device_latest.ts as latest_ts',
      'device_latest.values as latest_values',
      'device_latest.faults as latest_faults',
      eb.case().when(devicesOperable(eb, caller)).then(1).else(0).end().as('operable'),
    ])
    .where((eb) => devicesVisible(eb, caller))
    .where('devices.kind', '=', kind);
  q = 'sn' in by ? q.where('devices.sn', '=', by.sn) : q.where('devices.id', '=', by.id);
  const r = await q.executeTakeFirst();
  if (!r) return fail(missingCode(kind));
  const canEdit = Number(r.operable) === 1;
  if (need === 'edit' && !canEdit) fail(2);
  return {
    id: r.id,
    sn: r.sn,
    kind: r.kind,
    alias: r.alias,
    protocolId: r.protocol_id,
    deviceType: r.device_type === null ? null : Number(r.device_type),
    ratedPowerW: r.rated_power_w === null ? null : Number(r.rated_power_w),
    status: r.status,
    createdAt: Number(r.created_at),
    boundAt: Number(r.bound_at),
    plant:
      r.plant_id === null
        ? null
        : {
            id: r.plant_id,
            name: r.plant_name ?? '',
            timezone: r.plant_timezone ?? 'UTC',
            masterMeterId: r.master_meter_id ?? null,
          },
    gateway: { id: r.gateway_id, sn: r.gateway_sn, alias: r.gateway_alias, online: Number(r.gateway_online) === 1 },
    timezone: zoneOf(r.plant_id === null ? null : r.plant_timezone),
    canEdit,
    latest:
      r.latest_ts === null || Number(r.latest_ts) < Number(r.bound_at)
        ? null
        : {
            ts: Number(r.latest_ts),
            values: parseJson<Values>(r.latest_values, {}),
            faults: parseJson<string[]>(r.latest_faults, []),
          },
  };
}
