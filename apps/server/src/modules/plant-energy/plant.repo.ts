/** SQL of the plant overview's own reads and writes (the read model's are in src/energy). */
import type { Caller } from '../../access/caller.ts';
import { plantsVisible } from '../../access/scopes.ts';
import type { Db } from '../../db/index.ts';
import type { DeviceKind } from '../../db/schema.ts';
import { plantDayVersion } from '../../energy/day-rollups.ts';
import { overviewColumns } from './plant.ts';

export const setPlantMasterMeter = (trx: Db, plantId: number, deviceId: number) =>
  trx.updateTable('plants').set({ master_meter_id: deviceId }).where('id', '=', plantId).execute();

/** Events that started at `since` or later on the plants the caller sees, newest first. */
export const eventsSince = (db: Db, caller: Caller, since: number, limit: number) =>
  db
    .selectFrom('events')
    .innerJoin('plants', 'plants.id', 'events.plant_id')
    .select([
      'events.id',
      'events.plant_id',
      'plants.name as plant_name',
      'events.sn',
      'events.code',
      'events.level',
      'events.source',
      'events.text_en',
      'events.text_es',
      'events.started_at',
      'events.ended_at',
    ])
    .where('events.plant_id', 'in', (eb) =>
      eb
        .selectFrom('plants')
        .select('plants.id')
        .where((p) => plantsVisible(p, caller)),
    )
    .where('events.started_at', '>=', since)
    .orderBy('events.started_at', 'desc')
    .orderBy('events.id', 'desc')
    .limit(limit)
    .execute();

export const plantTimezone = async (db: Db, plantId: number) =>
  (await db.selectFrom('plants').select('timezone').where('id', '=', plantId).executeTakeFirstOrThrow()).timezone;

/** A live weather station by SN behind a live gateway of the plant. */
export const weatherStationOfPlant = (db: Db, plantId: number, sn: string) =>
  db
    .selectFrom('devices')
    .innerJoin('gateways', 'gateways.id', 'devices.gateway_id')
    .select(['devices.id', 'devices.plant_id'])
    .where('devices.sn', '=', sn)
    .where('devices.kind', '=', 'weather')
    .where('devices.deleted_at', 'is', null)
    .where('gateways.plant_id', '=', plantId)
    .where('gateways.deleted_at', 'is', null)
    .executeTakeFirst();

/** The device joins the plant at `t`. */
export const bindDeviceToPlant = (db: Db, deviceId: number, plantId: number, t: number) =>
  db.updateTable('devices').set({ plant_id: plantId, bound_at: t, updated_at: t }).where('id', '=', deviceId).execute();

/** A live plant with the overview's columns. */
export const overviewPlantRow = (db: Db, plantId: number) =>
  db.selectFrom('plants').select(overviewColumns).where('id', '=', plantId).where('deleted_at', 'is', null).executeTakeFirst();

/** What a plant-local day's curve depends on: its day rows' version and its forecast's import time. */
export const curveVersion = (db: Db, plantId: number, day: string, start: number, end: number) =>
  db
    .selectNoFrom((eb) => [
      plantDayVersion(eb, plantId, day).as('day_version'),
      eb
        .selectFrom('plant_forecast')
        .select((f) => f.fn.max('imported_at').as('m'))
        .where('plant_id', '=', plantId)
        .where('ts', '>=', start)
        .where('ts', '<', end)
        .as('forecast_version'),
    ])
    .executeTakeFirstOrThrow();

/** The plant's live devices of these kinds, and those that left it over [start, end). */
export const curveDevices = (db: Db, plantId: number, kinds: DeviceKind[], start: number, end: number) =>
  Promise.all([
    db
      .selectFrom('devices')
      .select(['id', 'kind', 'bound_at'])
      .where('plant_id', '=', plantId)
      .where('kind', 'in', kinds)
      .where('deleted_at', 'is', null)
      .orderBy('id')
      .execute(),
    db
      .selectFrom('device_bindings as b')
      .innerJoin('devices as d', 'd.id', 'b.device_id')
      .select(['d.id', 'd.kind', 'b.bound_at', 'b.unbound_at'])
      .where('b.plant_id', '=', plantId)
      .where('b.unbound_at', '>', start)
      .where('b.bound_at', '<', end)
      .where('d.kind', 'in', kinds)
      .where('d.deleted_at', 'is', null)
      .orderBy('b.unbound_at')
      .execute(),
  ]);

/** The plant's forecast points in [start, end), by time. */
export const forecastPoints = (db: Db, plantId: number, start: number, end: number) =>
  db
    .selectFrom('plant_forecast')
    .select(['ts', 'power_w'])
    .where('plant_id', '=', plantId)
    .where('ts', '>=', start)
    .where('ts', '<', end)
    .orderBy('ts')
    .execute();
