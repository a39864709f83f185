/**
 * Which meters count for a plant's grid import and export in plant_day: its master meter
 * (plants.master_meter_id) when that is a live meter of the plant, else all its live meters,
 * else (no meter) its inverters. Ingest follows the same rule as it adds device days to plant
 * days (telemetry/ingest/plant-days.ts); the API re-sums a plant's days here when the rule's
 * input changes (a master meter chosen or deleted).
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * Which of these plants have a live meter, and each one's master meter: plants.master_meter_id
 * when that is a live meter of the plant (else null: all its meters count).
 */
export async function plantMeters(
  db: Kysely<Database>,
  plantIds: readonly number[],
): Promise<Map<number, { meterIds: number[]; master: number | null }>> {
  const out = new Map<number, { meterIds: number[]; master: number | null }>();
  if (plantIds.length === 0) return out;
  const rows = await db
    .selectFrom('devices')
    .innerJoin('plants', 'plants.id', 'devices.plant_id')
    .select(['devices.plant_id', 'devices.id', 'plants.master_meter_id'])
    .where('devices.plant_id', 'in', plantIds)
    .where('devices.kind', '=', 'meter')
    .where('devices.deleted_at', 'is', null)
    .execute();
  for (const r of rows) {
    let plant = out.get(r.plant_id!);
    if (!plant) {
      plant = { meterIds: [], master: null };
      out.set(r.plant_id!, plant);
    }
    plant.meterIds.push(r.id);
    if (r.master_meter_id === r.id) plant.master = r.id;
  }
  return out;
}

/**
 * Sum a plant's grid import and export anew on every one of its days, from the device days of the
 * meters that count (the master, else all meters) or, without a meter, of its inverters. One
 * statement, so a concurrent batch's deltas to other columns are not lost.
 */
export async function resumPlantGrid(db: Kysely<Database>, plantId: number, now: number): Promise<void> {
  const meters = (await plantMeters(db, [plantId])).get(plantId);
  let sources: number[];
  if (meters) sources = meters.master === null ? meters.meterIds : [meters.master];
  else {
    const inverters = await db
      .selectFrom('devices')
      .select('id')
      .where('plant_id', '=', plantId)
      .where('kind', '=', 'inverter')
      .where('deleted_at', 'is', null)
      .execute();
    sources = inverters.map((r) => r.id);
  }
  const ids = sources.length > 0 ? sources : [-1];
  const sum = (column: 'grid_import_wh' | 'grid_export_wh') =>
    sql<number>`cast(round(cast(coalesce((select sum(dd.${sql.ref(column)}) from device_day dd join devices d on d.id = dd.device_id where dd.day = plant_day.day and dd.device_id in (${sql.join(ids)}) and dd.first_ts >= d.bound_at), 0) as numeric), 3) as double precision)`;
  await db
    .updateTable('plant_day')
    .set({ grid_import_wh: sum('grid_import_wh'), grid_export_wh: sum('grid_export_wh'), updated_at: now })
    .where('plant_id', '=', plantId)
    .execute();
}
