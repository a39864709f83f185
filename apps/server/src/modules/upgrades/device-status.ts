/**
 * An inverter's status says "upgrading" while its upgrade is under way on the device: downloading
 * (it has reported progress), verifying, flashing, or flashed and not yet confirmed by its new
 * version. When the upgrade ends, its status goes back to what its open events say (fault, warning,
 * offline or normal). Meanwhile ingest keeps "upgrading", the offline job leaves the device alone
 * and a power command is refused with 1005. The plant's status follows.
 */
import type { Kysely } from 'kysely';
import type { Database, DeviceStatus } from '../../db/schema.ts';
import { type Condition, deviceStatus } from '../../energy/device-status.ts';
import { refreshPlantStatus } from '../../energy/plant-status.ts';
import * as repo from './fleet.repo.ts';
import type { DeviceRow } from './upgrades.repo.ts';

type Db = Kysely<Database>;

export function underWayOnDevice(row: Pick<DeviceRow, 'state' | 'progress'>): boolean {
  return row.state === 'downloaded' || row.state === 'upgrading' || (row.state === 'sending' && row.progress !== null);
}

/** The status the device's open events give it. */
async function statusFromEvents(db: Db, deviceId: number): Promise<DeviceStatus> {
  const open = await repo.openEventsOfDevice(db, deviceId);
  return deviceStatus(new Map<string, Condition>(open.map((e) => [e.code, { level: e.level, source: e.source }])));
}

/** Bring the device's status in line with its upgrade row as it is now. */
export async function followUpgrade(
  db: Db,
  row: Pick<DeviceRow, 'device_kind' | 'device_sn' | 'state' | 'progress'>,
): Promise<void> {
  if (row.device_kind !== 'inverter') return;
  const device = await repo.liveDeviceBySn(db, row.device_sn);
  if (!device) return;
  const underWay = underWayOnDevice(row);
  if (underWay === (device.status === 'upgrading')) return;
  const next = underWay ? 'upgrading' : await statusFromEvents(db, device.id);
  const changed = await repo.moveDeviceStatus(db, device.id, device.status, next);
  if (changed && device.plant_id !== null) await refreshPlantStatus(db, [device.plant_id]);
}
