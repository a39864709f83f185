/**
 * Device and plant status (normal, offline, warning, fault, upgrading).
 * A device's status follows its open conditions (fault bits, rule and gateway events): any fault
 * → fault, else any warning → warning, else normal; offline when silent. A plant is the worst of
 * its devices: fault > warning > upgrading > offline (only when all are offline) > normal.
 * 'upgrading' is set and cleared by the command side; ingest keeps it.
 */
import type { Kysely } from 'kysely';
import type { Database, DeviceStatus, EventLevel } from '../../db/schema.ts';

export interface Condition {
  level: EventLevel;
  source: 'device' | 'gateway' | 'rule';
}

export function deviceStatus(conditions: ReadonlyMap<string, Condition>): DeviceStatus {
  if (conditions.has('offline')) return 'offline';
  let status: DeviceStatus = 'normal';
  for (const c of conditions.values()) {
    if (c.level === 'fault') return 'fault';
    if (c.level === 'warning') status = 'warning';
  }
  return status;
}

export function plantStatus(devices: readonly DeviceStatus[]): DeviceStatus {
  if (devices.length === 0) return 'offline';
  let offline = 0;
  let status: DeviceStatus = 'normal';
  for (const s of devices) {
    if (s === 'fault') return 'fault';
    if (s === 'warning') status = 'warning';
    else if (s === 'upgrading' && status !== 'warning') status = 'upgrading';
    else if (s === 'offline') offline++;
  }
  if (status !== 'normal') return status;
  return offline === devices.length ? 'offline' : 'normal';
}

/** Recompute the status of these plants from their devices' rows. */
export async function refreshPlantStatus(db: Kysely<Database>, plantIds: Iterable<number>): Promise<void> {
  const ids = [...new Set(plantIds)];
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    const rows = await db
      .selectFrom('devices')
      .select(['plant_id', 'status'])
      .where('plant_id', 'in', chunk)
      .where('deleted_at', 'is', null)
      .execute();
    const byPlant = new Map<number, DeviceStatus[]>(chunk.map((id) => [id, []]));
    for (const r of rows) byPlant.get(r.plant_id as number)?.push(r.status);
    for (const [plantId, statuses] of byPlant) {
      const status = plantStatus(statuses);
      await db.updateTable('plants').set({ status }).where('id', '=', plantId).where('status', '<>', status).execute();
    }
  }
}
