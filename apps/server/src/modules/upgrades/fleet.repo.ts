/**
 * The SQL of what upgrades read and change beside their own tables: the devices and gateways
 * upgraded, the firmware images, a device's open events, the maintenance log rows, the rollout
 * lists and the wave step.
 */
import type { Insertable } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { DeviceStatus, MaintenanceLogTable } from '../../db/schema.ts';
import type { DeviceRow, UpgradeState } from './upgrades.repo.ts';

/** The device's open events' codes, levels and sources. */
export const openEventsOfDevice = (db: Db, deviceId: number) =>
  db
    .selectFrom('events')
    .select(['code', 'level', 'source'])
    .where('device_id', '=', deviceId)
    .where('ended_at', 'is', null)
    .execute();

/** A live device by SN, with its plant and status. */
export const liveDeviceBySn = (db: Db, sn: string) =>
  db
    .selectFrom('devices')
    .select(['id', 'plant_id', 'status'])
    .where('sn', '=', sn)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();

/** Change the device's status if it is still `from`; whether it changed. */
export async function moveDeviceStatus(db: Db, id: number, from: DeviceStatus, to: DeviceStatus): Promise<boolean> {
  const changed = await db
    .updateTable('devices')
    .set({ status: to })
    .where('id', '=', id)
    .where('status', '=', from)
    .executeTakeFirst();
  return Number(changed.numUpdatedRows) > 0;
}

/** An image's hash and size. */
export const firmwareBlob = (db: Db, id: number) =>
  db.selectFrom('firmware').select(['sha256', 'size']).where('id', '=', id).executeTakeFirst();

export const firmwareForUpgrade = (db: Db, id: number) =>
  db
    .selectFrom('firmware')
    .select(['id', 'type', 'product_name', 'version', 'size', 'sha256', 'signature', 'enabled'])
    .where('id', '=', id)
    .executeTakeFirst();

/** Gateways by SN with their reported version and whether they are online. */
export const gatewayVersions = (db: Db, sns: string[]) =>
  db.selectFrom('gateways').select(['sn', 'sw_version', 'last_online_at', 'online']).where('sn', 'in', sns).execute();

/** Gateways by id: SN, online, reported version, plant. */
export const gatewaysForUpgrade = (db: Db, ids: number[]) =>
  db.selectFrom('gateways').select(['sn', 'online', 'sw_version', 'plant_id']).where('id', 'in', ids).execute();

/** Gateways by id: SN and whether online. */
export const gatewaysOnline = (db: Db, ids: number[]) =>
  db.selectFrom('gateways').select(['id', 'sn', 'online']).where('id', 'in', ids).execute();

/** Maintenance log rows, one per device; their ids in order. */
export const insertMaintenanceRows = (trx: Db, rows: Omit<Insertable<MaintenanceLogTable>, 'id'>[]) =>
  trx.insertInto('maintenance_log').values(rows).returning('id').execute();

export const rolloutDevices = (db: Db, rolloutId: string) =>
  db.selectFrom('upgrade_devices').selectAll().where('rollout_id', '=', rolloutId).orderBy('id').execute();

/** The version and image of the rollout a device row belongs to. */
export const rolloutFirmware = (db: Db, rolloutId: string) =>
  db
    .selectFrom('upgrade_rollouts')
    .innerJoin('firmware', 'firmware.id', 'upgrade_rollouts.firmware_id')
    .select(['firmware.version', 'upgrade_rollouts.firmware_id'])
    .where('upgrade_rollouts.id', '=', rolloutId)
    .executeTakeFirst();

/** The enabled images of a type, newest first (at most 200). */
export const enabledFirmware = (db: Db, type: 'gateway' | 'inverter') =>
  db
    .selectFrom('firmware')
    .select(['id', 'product_name', 'version', 'file_name', 'size', 'change_log', 'created_at'])
    .where('type', '=', type)
    .where('enabled', '=', 1)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(200)
    .execute();

const withFirmware = (db: Db) =>
  db
    .selectFrom('upgrade_rollouts')
    .innerJoin('firmware', 'firmware.id', 'upgrade_rollouts.firmware_id')
    .selectAll('upgrade_rollouts')
    .select(['firmware.product_name', 'firmware.version']);

/** A rollout with its image's product and version; only one `requestedBy` started when given. */
export function rolloutWithFirmware(db: Db, id: string, requestedBy?: number) {
  let q = withFirmware(db).where('upgrade_rollouts.id', '=', id);
  if (requestedBy !== undefined) q = q.where('upgrade_rollouts.requested_by', '=', requestedBy);
  return q.executeTakeFirst();
}

/** A page of rollouts, newest first, with their images; and how many match. */
export async function rolloutPage(db: Db, f: { requestedBy?: number; firmwareId?: number }, page: number, size: number) {
  let base = withFirmware(db);
  if (f.requestedBy !== undefined) base = base.where('upgrade_rollouts.requested_by', '=', f.requestedBy);
  if (f.firmwareId !== undefined) base = base.where('upgrade_rollouts.firmware_id', '=', f.firmwareId);
  const total = Number(
    (
      await base
        .clearSelect()
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
  const rows = await base
    .orderBy('upgrade_rollouts.created_at', 'desc')
    .orderBy('upgrade_rollouts.id')
    .limit(size)
    .offset((page - 1) * size)
    .execute();
  return { total, rows };
}

/** Cancel the rollout's pending devices; the rows cancelled. */
export const cancelPending = (db: Db, rolloutId: string, at: number): Promise<DeviceRow[]> =>
  db
    .updateTable('upgrade_devices')
    .set({ state: 'cancelled' satisfies UpgradeState, error: 'cancelled', finished_at: at, updated_at: at })
    .where('rollout_id', '=', rolloutId)
    .where('state', '=', 'pending')
    .returningAll()
    .execute();

/** Move a running rollout from wave `wave` to the next; the row after, or undefined when another process did. */
export const nextWave = (db: Db, id: string, wave: number, at: number) =>
  db
    .updateTable('upgrade_rollouts')
    .set({ current_wave: wave + 1, updated_at: at })
    .where('id', '=', id)
    .where('state', '=', 'running')
    .where('current_wave', '=', wave)
    .returningAll()
    .executeTakeFirst();
