/** SQL of what hangs off one plant: its inverters, attached devices and events. */
import type { Db } from '../../db/index.ts';
import type { EventLevel } from '../../db/schema.ts';
import { joinDeviceDay } from '../../energy/day-rollups.ts';
import { deviceStateSql } from '../../energy/device-state.ts';
import { joinLatest } from '../../energy/latest.ts';

/** The plant's live inverters counted by the state their badges show. */
export function inverterStateRows(db: Db, plantId: number) {
  const state = deviceStateSql(db);
  return db
    .selectFrom('devices')
    .select((eb) => [state.as('state'), eb.fn.countAll<number>().as('n')])
    .where('devices.plant_id', '=', plantId)
    .where('devices.kind', '=', 'inverter')
    .where('devices.deleted_at', 'is', null)
    .groupBy(state)
    .execute();
}

export const plantTimezone = async (db: Db, plantId: number) =>
  (await db.selectFrom('plants').select('timezone').where('id', '=', plantId).executeTakeFirstOrThrow()).timezone;

/** A page of the plant's live inverters by SN, with their latest values and `today`'s row; and their number. */
export function inverterPage(db: Db, plantId: number, today: string, page: number, size: number) {
  const inverters = db
    .selectFrom('devices')
    .where('devices.plant_id', '=', plantId)
    .where('devices.kind', '=', 'inverter')
    .where('devices.deleted_at', 'is', null);
  return Promise.all([
    joinDeviceDay(joinLatest(inverters.innerJoin('gateways', 'gateways.id', 'devices.gateway_id')), today)
      .select([
        'devices.id',
        'devices.sn',
        'devices.alias',
        'devices.status',
        'devices.device_type',
        'devices.rated_power_w',
        'gateways.sn as gateway_sn',
        'device_latest.ts',
        'device_latest.values',
        'device_day.pv_wh',
        deviceStateSql(db).as('state'),
      ])
      .orderBy('devices.sn')
      .limit(size)
      .offset((page - 1) * size)
      .execute(),
    inverters.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
}

/** The plant's live gateways counted, and its live devices counted by kind. */
export function deviceCounts(db: Db, plantId: number) {
  return Promise.all([
    db
      .selectFrom('gateways')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('plant_id', '=', plantId)
      .where('deleted_at', 'is', null)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('devices')
      .select((eb) => ['kind', eb.fn.countAll<number>().as('n')])
      .where('plant_id', '=', plantId)
      .where('deleted_at', 'is', null)
      .groupBy('kind')
      .execute(),
  ]);
}

/** The plant's open events counted by level. */
export const openEventLevels = (db: Db, plantId: number) =>
  db
    .selectFrom('events')
    .select((eb) => ['level', eb.fn.countAll<number>().as('n')])
    .where('plant_id', '=', plantId)
    .where('ended_at', 'is', null)
    .groupBy('level')
    .execute();

export interface PlantEventFilter {
  level?: EventLevel | undefined;
  state?: 'open' | 'closed' | string | undefined;
  from: number | null;
  to: number | null;
}

/** A page of the plant's events, newest first, and the number that match. */
export function plantEventPage(db: Db, plantId: number, f: PlantEventFilter, page: number, size: number) {
  let events = db.selectFrom('events').where('plant_id', '=', plantId);
  if (f.level) events = events.where('level', '=', f.level);
  if (f.state === 'open') events = events.where('ended_at', 'is', null);
  if (f.state === 'closed') events = events.where('ended_at', 'is not', null);
  if (f.from !== null) events = events.where('started_at', '>=', f.from);
  if (f.to !== null) events = events.where('started_at', '<', f.to);
  return Promise.all([
    events
      .select(['id', 'sn', 'code', 'level', 'source', 'text_en', 'text_es', 'started_at', 'ended_at'])
      .orderBy('started_at', 'desc')
      .orderBy('id', 'desc')
      .limit(size)
      .offset((page - 1) * size)
      .execute(),
    events.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
}
