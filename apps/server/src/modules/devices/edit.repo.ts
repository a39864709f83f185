/** SQL of a device's alias and (soft) delete. */
import type { Db } from '../../db/index.ts';

export const setDeviceAlias = (db: Db, id: number, alias: string | null, t: number) =>
  db.updateTable('devices').set({ alias, updated_at: t }).where('id', '=', id).execute();

/** Mark the device deleted and end its open events. */
export async function softDeleteDevice(trx: Db, id: number, t: number) {
  await trx
    .updateTable('devices')
    .set({ deleted_at: t, updated_at: t })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .execute();
  await trx.updateTable('events').set({ ended_at: t }).where('device_id', '=', id).where('ended_at', 'is', null).execute();
}

/** The plant stops naming the device its master meter; whether it did. */
export async function dropMasterMeter(trx: Db, plantId: number, deviceId: number): Promise<boolean> {
  const unmastered = await trx
    .updateTable('plants')
    .set({ master_meter_id: null })
    .where('id', '=', plantId)
    .where('master_meter_id', '=', deviceId)
    .executeTakeFirst();
  return Number(unmastered.numUpdatedRows) > 0;
}
