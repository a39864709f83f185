/** SQL of binding gateways to plants: the gateway a claim names, binding, unbinding. */
import { sql } from 'kysely';
import type { Db } from '../../db/index.ts';

/** A live gateway by SN, with its claim key's hash. */
export const gatewayToClaim = (db: Db, sn: string) =>
  db
    .selectFrom('gateways')
    .select(['id', 'sn', 'plant_id', 'bound_at', 'claim_key_hash'])
    .where('sn', '=', sn)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();

/**
 * Put the gateway in the plant unless another plant has it meanwhile (false then), and its live
 * devices not yet in the plant with it; `boundAt` for the gateway only when `moved`.
 */
export async function bindToPlant(
  trx: Db,
  gatewayId: number,
  plantId: number,
  boundAt: number,
  moved: boolean,
  t: number,
): Promise<boolean> {
  const bound = await trx
    .updateTable('gateways')
    .set({ plant_id: plantId, updated_at: t, ...(moved ? { bound_at: boundAt } : {}) })
    .where('id', '=', gatewayId)
    .where((eb) => eb.or([eb('plant_id', 'is', null), eb('plant_id', '=', plantId)]))
    .executeTakeFirst();
  if (Number(bound.numUpdatedRows) !== 1) return false;
  await trx
    .updateTable('devices')
    .set({ plant_id: plantId, bound_at: boundAt, updated_at: t })
    .where('gateway_id', '=', gatewayId)
    .where('deleted_at', 'is', null)
    .where((eb) => eb.or([eb('plant_id', 'is', null), eb('plant_id', '!=', plantId)]))
    .execute();
  return true;
}

/** Take gateways and their devices out of their plant at `t`, recording the devices' time in it. */
export async function unbindGateways(trx: Db, gatewayIds: number[], t: number) {
  // The plant keeps its devices' time in it: its curves still show them over that time.
  await trx
    .insertInto('device_bindings')
    .columns(['device_id', 'plant_id', 'bound_at', 'unbound_at'])
    .expression((eb) =>
      eb
        .selectFrom('devices')
        .select(['id', 'plant_id', 'bound_at', sql<number>`cast(${t} as bigint)`.as('unbound_at')])
        .where('gateway_id', 'in', gatewayIds)
        .where('plant_id', 'is not', null)
        .where('deleted_at', 'is', null),
    )
    .execute();
  // bound_at ≠ 0 marks a gateway that has had a plant: its next plant starts afresh.
  await trx.updateTable('gateways').set({ plant_id: null, bound_at: t, updated_at: t }).where('id', 'in', gatewayIds).execute();
  await trx
    .updateTable('devices')
    .set({ plant_id: null, bound_at: t, updated_at: t })
    .where('gateway_id', 'in', gatewayIds)
    .execute();
}

/**
 * A gateway leaving a plant ends its own and its devices' open events: they stay in that plant's
 * history, and a condition that persists is raised anew for the plant it joins (ingest reloads
 * open conditions from the store after `forget()`).
 */
export const endOpenEvents = (trx: Db, gatewayIds: number[], t: number) =>
  trx.updateTable('events').set({ ended_at: t }).where('gateway_id', 'in', gatewayIds).where('ended_at', 'is', null).execute();
