/**
 * A device or gateway SN from a request, through the plant scope (access/scopes.ts): an SN whose
 * plant the caller cannot see (or that is in no plant, or unknown) answers 404, as if it did not
 * exist.
 */
import type { Caller } from '../../access/caller.ts';
import { plantsVisible } from '../../access/scopes.ts';
import type { Db } from '../../db/index.ts';
import type { DeviceKind } from '../../db/schema.ts';
import { fail } from '../../http/errors.ts';

export interface Subject {
  kind: DeviceKind | 'gateway';
  sn: string;
  deviceId: number | null;
  gatewayId: number;
  plantId: number;
  alias: string | null;
  timezone: string;
  protocolId: string | null;
  /** When it joined its plant: its samples and events before then are an earlier owner's. */
  since: number;
}

export interface DeviceSubject extends Subject {
  kind: DeviceKind;
  deviceId: number;
  protocolId: string;
}

async function visibleDeviceRow(db: Db, caller: Caller, sn: string) {
  return db
    .selectFrom('devices')
    .innerJoin('plants', 'plants.id', 'devices.plant_id')
    .select([
      'devices.id',
      'devices.kind',
      'devices.gateway_id',
      'devices.plant_id',
      'devices.alias',
      'devices.protocol_id',
      'devices.bound_at',
      'plants.timezone',
    ])
    .where('devices.sn', '=', sn)
    .where('devices.deleted_at', 'is', null)
    .where((eb) => plantsVisible(eb, caller))
    .executeTakeFirst();
}

/** A visible device. */
export async function visibleDevice(db: Db, caller: Caller, sn: string): Promise<DeviceSubject> {
  const d = await visibleDeviceRow(db, caller, sn);
  if (!d) return fail(404);
  return {
    kind: d.kind,
    sn,
    deviceId: d.id,
    gatewayId: d.gateway_id,
    plantId: d.plant_id as number,
    alias: d.alias,
    timezone: d.timezone,
    protocolId: d.protocol_id,
    since: Number(d.bound_at),
  };
}

/** A visible device, or else a visible gateway. */
export async function visibleSubject(db: Db, caller: Caller, sn: string): Promise<Subject> {
  const d = await visibleDeviceRow(db, caller, sn);
  if (d) {
    return {
      kind: d.kind,
      sn,
      deviceId: d.id,
      gatewayId: d.gateway_id,
      plantId: d.plant_id as number,
      alias: d.alias,
      timezone: d.timezone,
      protocolId: d.protocol_id,
      since: Number(d.bound_at),
    };
  }
  const g = await db
    .selectFrom('gateways')
    .innerJoin('plants', 'plants.id', 'gateways.plant_id')
    .select(['gateways.id', 'gateways.plant_id', 'gateways.alias', 'gateways.bound_at', 'plants.timezone'])
    .where('gateways.sn', '=', sn)
    .where('gateways.deleted_at', 'is', null)
    .where((eb) => plantsVisible(eb, caller))
    .executeTakeFirst();
  if (!g) return fail(404);
  return {
    kind: 'gateway',
    sn,
    deviceId: null,
    gatewayId: g.id,
    plantId: g.plant_id as number,
    alias: g.alias,
    timezone: g.timezone,
    protocolId: null,
    since: Number(g.bound_at),
  };
}
