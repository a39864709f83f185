/**
 * The one resolver: the plant, device, gateway or event a request names, loaded through the
 * scopes (scopes.ts for plants, devices.ts for devices and gateways) together with what the
 * caller may do with it. Every module that takes such an id or SN comes through here.
 *
 * A subject the caller cannot see answers as if it did not exist: a plant 700, an inverter 600
 * and any other device 404, a gateway 305, an event 404, an SN that may be a device or a
 * gateway 404. One the caller sees but may not change answers 2 when the call needs more than
 * 'view':
 * - 'operate': change or command it (the plant's owner, its managers, the company's users within
 *   their role, system administrators; never a visitor of the plant, never a read-only account);
 * - 'manage' (plants only): the owner's rights (delete, share, transfer): the owner, or for a
 *   company plant the company's users who operate it. Managers, visitors and agents never manage.
 */
import { ErrorCode } from '@sunfleet/contracts';
import type { Db } from '../db/index.ts';
import type { DeviceKind, DeviceStatus, Plant } from '../db/schema.ts';
import { fail } from '../http/errors.ts';
import type { Caller } from './caller.ts';
import { devicesOperable, devicesVisible, gatewaysOperable, gatewaysVisible } from './devices.ts';
import { plantsOperable, plantsOwned, plantsVisible } from './scopes.ts';

export type Need = 'view' | 'operate';
export type PlantNeed = Need | 'manage';

const flag = (v: unknown) => Number(v) === 1;

// ——— plants ———

export interface PlantAccess {
  id: number;
  ownerUserId: number | null;
  companyId: number | null;
  canOperate: boolean;
  canManage: boolean;
}

type PlantColumn = keyof Plant & string;

/**
 * A plant the caller can see (else 700) with the caller's rights on it (2 when `need` asks for
 * more); `columns` are further plant columns read in the same query, returned in `row`.
 */
export async function plantFor<C extends PlantColumn = never>(
  db: Db,
  caller: Caller,
  id: number,
  need: PlantNeed = 'view',
  columns: readonly C[] = [],
): Promise<PlantAccess & { row: Pick<Plant, C> }> {
  const found = await db
    .selectFrom('plants')
    // Column names typed by the caller's own list; Kysely cannot follow a generic list.
    .select(columns.map((c) => `plants.${c}` as const) as never[])
    .select((eb) => [
      'plants.id as plant_id',
      'plants.owner_user_id as plant_owner_user_id',
      'plants.company_id as plant_company_id',
      eb.case().when(plantsOperable(eb, caller)).then(1).else(0).end().as('plant_operable'),
      eb.case().when(plantsOwned(eb, caller)).then(1).else(0).end().as('plant_owned'),
    ])
    .where((eb) => plantsVisible(eb, caller))
    .where('plants.id', '=', id)
    .executeTakeFirst();
  if (!found) return fail(ErrorCode.plantMissing);
  const { plant_id, plant_owner_user_id, plant_company_id, plant_operable, plant_owned, ...row } = found;
  const canOperate = flag(plant_operable);
  const companyPlantOfCaller = plant_company_id !== null && plant_company_id === caller.user.company_id;
  const access = {
    id: plant_id,
    ownerUserId: plant_owner_user_id,
    companyId: plant_company_id,
    canOperate,
    canManage: flag(plant_owned) || (canOperate && companyPlantOfCaller),
    row: row as unknown as Pick<Plant, C>,
  };
  if (need === 'operate' && !access.canOperate) fail(ErrorCode.noPermission);
  if (need === 'manage' && !access.canManage) fail(ErrorCode.noPermission);
  return access;
}

// ——— devices ———

export interface DeviceAccess {
  id: number;
  sn: string;
  kind: DeviceKind;
  alias: string | null;
  protocolId: string;
  status: DeviceStatus;
  gatewayId: number;
  /** null: behind an unbound gateway (seen by the company that holds the gateway). */
  plantId: number | null;
  /** The plant's zone; null when unbound. */
  timezone: string | null;
  /** When it joined its plant: its samples and events before then are an earlier owner's. */
  boundAt: number;
  canOperate: boolean;
}

/** A device on a plant: what a plant's pages, events and operation data read. */
export interface PlantDevice extends DeviceAccess {
  plantId: number;
  timezone: string;
}

export interface DeviceQuery {
  /** Only a device of this kind; another kind answers as missing. */
  kind?: DeviceKind;
  need?: Need;
  /** Only a device bound to a plant; one behind an unbound gateway answers as missing. */
  onPlant?: boolean;
}

/** The not-found code of a device: 600 for an inverter, 404 for anything else. */
export const missingDevice = (kind: DeviceKind | undefined): ErrorCode =>
  kind === 'inverter' ? ErrorCode.inverterMissing : ErrorCode.notFound;

async function deviceRow(db: Db, caller: Caller, by: { sn: string } | { id: number }, q: DeviceQuery) {
  let query = db
    .selectFrom('devices')
    .leftJoin('plants', 'plants.id', 'devices.plant_id')
    .select((eb) => [
      'devices.id',
      'devices.sn',
      'devices.kind',
      'devices.alias',
      'devices.protocol_id',
      'devices.status',
      'devices.gateway_id',
      'devices.plant_id',
      'devices.bound_at',
      'plants.timezone',
      eb.case().when(devicesOperable(eb, caller)).then(1).else(0).end().as('operable'),
    ])
    .where((eb) => devicesVisible(eb, caller));
  query = 'sn' in by ? query.where('devices.sn', '=', by.sn) : query.where('devices.id', '=', by.id);
  if (q.kind) query = query.where('devices.kind', '=', q.kind);
  if (q.onPlant) query = query.where('devices.plant_id', 'is not', null);
  const r = await query.executeTakeFirst();
  if (!r) return undefined;
  const device: DeviceAccess = {
    id: r.id,
    sn: r.sn,
    kind: r.kind,
    alias: r.alias,
    protocolId: r.protocol_id,
    status: r.status,
    gatewayId: r.gateway_id,
    plantId: r.plant_id,
    timezone: r.plant_id === null ? null : r.timezone,
    boundAt: Number(r.bound_at),
    canOperate: flag(r.operable),
  };
  return device;
}

/**
 * A device the caller can see, by SN or id (else 600 for an inverter, 404 otherwise), with
 * whether the caller may operate it (2 when `need` is 'operate' and they may not).
 */
export async function deviceFor(
  db: Db,
  caller: Caller,
  by: { sn: string } | { id: number },
  q: DeviceQuery & { onPlant: true },
): Promise<PlantDevice>;
export async function deviceFor(
  db: Db,
  caller: Caller,
  by: { sn: string } | { id: number },
  q?: DeviceQuery,
): Promise<DeviceAccess>;
export async function deviceFor(db: Db, caller: Caller, by: { sn: string } | { id: number }, q: DeviceQuery = {}) {
  const device = await deviceRow(db, caller, by, q);
  if (!device) return fail(missingDevice(q.kind));
  if (q.need === 'operate' && !device.canOperate) fail(ErrorCode.noPermission);
  return device;
}

// ——— gateways ———

export interface GatewayAccess {
  id: number;
  sn: string;
  alias: string | null;
  /** null: unbound (in stock, or freed), seen by the company that holds it. */
  plantId: number | null;
  timezone: string | null;
  boundAt: number;
  canOperate: boolean;
}

export interface GatewayQuery {
  need?: Need;
  /** Only a gateway bound to a plant; an unbound one answers as missing. */
  onPlant?: boolean;
}

async function gatewayRow(db: Db, caller: Caller, by: { sn: string } | { id: number }, q: GatewayQuery) {
  let query = db
    .selectFrom('gateways')
    .leftJoin('plants', 'plants.id', 'gateways.plant_id')
    .select((eb) => [
      'gateways.id',
      'gateways.sn',
      'gateways.alias',
      'gateways.plant_id',
      'gateways.bound_at',
      'plants.timezone',
      eb.case().when(gatewaysOperable(eb, caller)).then(1).else(0).end().as('operable'),
    ])
    .where((eb) => gatewaysVisible(eb, caller));
  query = 'sn' in by ? query.where('gateways.sn', '=', by.sn) : query.where('gateways.id', '=', by.id);
  if (q.onPlant) query = query.where('gateways.plant_id', 'is not', null);
  const r = await query.executeTakeFirst();
  if (!r) return undefined;
  const gateway: GatewayAccess = {
    id: r.id,
    sn: r.sn,
    alias: r.alias,
    plantId: r.plant_id,
    timezone: r.plant_id === null ? null : r.timezone,
    boundAt: Number(r.bound_at),
    canOperate: flag(r.operable),
  };
  return gateway;
}

/** A gateway the caller can see, by id or SN (else 305), with whether they may operate it (2 when `need` says so). */
export async function gatewayFor(db: Db, caller: Caller, by: { sn: string } | { id: number }, q: GatewayQuery = {}) {
  const gateway = await gatewayRow(db, caller, by, q);
  if (!gateway) return fail(ErrorCode.gatewayMissing);
  if (q.need === 'operate' && !gateway.canOperate) fail(ErrorCode.noPermission);
  return gateway;
}

// ——— an SN of a device or a gateway ———

/** What events and operation data are read for: a device, or a gateway (its own events). */
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

/**
 * A device on a plant the caller can see, or else such a gateway; anything else 404. With
 * `{ deviceOnly: true }` a gateway's SN is missing too (a device's operation data).
 */
export async function subjectFor(db: Db, caller: Caller, sn: string, q: { deviceOnly: true }): Promise<DeviceSubject>;
export async function subjectFor(db: Db, caller: Caller, sn: string, q?: { deviceOnly?: boolean }): Promise<Subject>;
export async function subjectFor(db: Db, caller: Caller, sn: string, q: { deviceOnly?: boolean } = {}): Promise<Subject> {
  const d = await deviceRow(db, caller, { sn }, { onPlant: true });
  if (d) {
    return {
      kind: d.kind,
      sn,
      deviceId: d.id,
      gatewayId: d.gatewayId,
      plantId: d.plantId!,
      alias: d.alias,
      timezone: d.timezone!,
      protocolId: d.protocolId,
      since: d.boundAt,
    };
  }
  const g = q.deviceOnly ? undefined : await gatewayRow(db, caller, { sn }, { onPlant: true });
  if (!g) return fail(ErrorCode.notFound);
  return {
    kind: 'gateway',
    sn,
    deviceId: null,
    gatewayId: g.id,
    plantId: g.plantId!,
    alias: g.alias,
    timezone: g.timezone!,
    protocolId: null,
    since: g.boundAt,
  };
}

// ——— events ———

export interface EventAccess {
  id: number;
  plantId: number;
  /** Whether the caller may acknowledge it: they operate its plant. */
  canOperate: boolean;
}

/** An event of a plant the caller can see (else 404); 2 when `need` is 'operate' and they do not operate the plant. */
export async function eventFor(db: Db, caller: Caller, id: number, need: Need = 'view'): Promise<EventAccess> {
  const r = await db
    .selectFrom('events')
    .innerJoin('plants', 'plants.id', 'events.plant_id')
    .select((eb) => [
      'events.id',
      'plants.id as plant_id',
      eb.case().when(plantsOperable(eb, caller)).then(1).else(0).end().as('operable'),
    ])
    .where('events.id', '=', id)
    .where((eb) => plantsVisible(eb, caller))
    .executeTakeFirst();
  if (!r) return fail(ErrorCode.notFound);
  const event: EventAccess = { id: r.id, plantId: r.plant_id, canOperate: flag(r.operable) };
  if (need === 'operate' && !event.canOperate) fail(ErrorCode.noPermission);
  return event;
}
