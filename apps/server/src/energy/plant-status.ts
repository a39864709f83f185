/**
 * A plant's status (plants.status) follows its live devices' stored statuses: the worst of them,
 * fault > warning > upgrading > offline (only when all are offline) > normal; a plant without
 * devices is offline. Recomputed by whatever changes a device's status or membership: ingest,
 * the offline job, a device's deletion.
 */
import type { Kysely } from 'kysely';
import type { Database, DeviceStatus } from '../db/schema.ts';

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
