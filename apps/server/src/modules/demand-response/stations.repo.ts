/** SQL of the enrolment form's lookups: the caller's plants and a plant's devices with a battery. */
import type { Caller } from '../../access/caller.ts';
import { devicesOperable } from '../../access/devices.ts';
import { plantsOperable } from '../../access/scopes.ts';
import type { Db } from '../../db/index.ts';

/** The plants the caller operates by name, each with how many live inverters of `protocols` it has. */
export const operablePlantsWithInverters = (db: Db, caller: Caller, protocols: string[]) =>
  db
    .selectFrom('plants')
    .leftJoin('devices', (j) =>
      j
        .onRef('devices.plant_id', '=', 'plants.id')
        .on('devices.deleted_at', 'is', null)
        .on('devices.kind', '=', 'inverter')
        .on('devices.protocol_id', 'in', protocols),
    )
    .select(['plants.id', 'plants.name', 'plants.timezone', (eb) => eb.fn.count<number>('devices.id').as('n')])
    .where((eb) => plantsOperable(eb, caller))
    .groupBy(['plants.id', 'plants.name', 'plants.timezone'])
    .orderBy('plants.name')
    .execute();

/** The plant's live devices of `protocols` the caller operates, by id. */
export const operableDevicesOf = (db: Db, caller: Caller, plantId: number, protocols: string[]) =>
  db
    .selectFrom('devices')
    .select([
      'devices.id',
      'devices.sn',
      'devices.alias',
      'devices.protocol_id',
      'devices.rated_power_w',
      'devices.master_device_id',
      'devices.created_at',
      'devices.bound_at',
    ])
    .where('devices.plant_id', '=', plantId)
    .where('devices.deleted_at', 'is', null)
    .where('devices.protocol_id', 'in', protocols)
    .where((eb) => devicesOperable(eb, caller))
    .orderBy('devices.id')
    .execute();
