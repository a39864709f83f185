/** SQL of one device's detail: its gateway, plant and latest values. */
import type { Db } from '../../db/index.ts';
import { deviceStateSql } from '../../energy/device-state.ts';
import { joinLatest } from '../../energy/latest.ts';

/** The device (it exists) with its gateway, plant, latest values and state. */
export const deviceDetailRow = (db: Db, id: number) =>
  joinLatest(
    db
      .selectFrom('devices')
      .innerJoin('gateways', 'gateways.id', 'devices.gateway_id')
      .leftJoin('plants', 'plants.id', 'devices.plant_id'),
  )
    .select([
      'devices.device_type',
      'devices.rated_power_w',
      'devices.created_at',
      'plants.name as plant_name',
      'plants.master_meter_id',
      'gateways.sn as gateway_sn',
      'gateways.alias as gateway_alias',
      'gateways.online as gateway_online',
      'device_latest.ts as latest_ts',
      'device_latest.values as latest_values',
      'device_latest.faults as latest_faults',
      deviceStateSql(db).as('state'),
    ])
    .where('devices.id', '=', id)
    .executeTakeFirstOrThrow();
