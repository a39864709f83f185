/**
 * The master meter (`meter/{sn}/master`): the meter whose grid import and export are the
 * plant's (plants.master_meter_id; none set: all its meters). The caller must be able to edit
 * the meter's plant (else 2); an unknown, deleted, unbound or foreign SN, or a device that is
 * not a meter, answers 404 alike. The plant's days are then re-summed from the device days
 * (energy/plant-grid.ts `resumPlantGrid`, the rule ingest follows too), in the same
 * transaction as the change.
 */
import type { Caller } from '../../access/caller.ts';
import { deviceFor } from '../../access/resolve.ts';
import type { Db } from '../../db/index.ts';
import { resumPlantGrid } from '../../energy/plant-grid.ts';
import { setPlantMasterMeter } from './plant.repo.ts';

export async function setMasterMeter(db: Db, caller: Caller, sn: string, now = Date.now()): Promise<null> {
  const device = await deviceFor(db, caller, { sn }, { kind: 'meter', onPlant: true, need: 'operate' });
  await db.transaction().execute(async (trx) => {
    await setPlantMasterMeter(trx, device.plantId, device.id);
    await resumPlantGrid(trx, device.plantId, now);
  });
  return null;
}
