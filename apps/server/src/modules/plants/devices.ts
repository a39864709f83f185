/** What hangs off one plant: inverter counts and list, attached devices, events. */
import { ErrorCode, type Language, limits, type plantsApi, type QueryOf } from '@sunfleet/contracts';
import type { Caller } from '../../access/caller.ts';
import { plantFor } from '../../access/resolve.ts';
import type { Db } from '../../db/index.ts';
import { parseJson } from '../../db/index.ts';
import { joinDeviceDay } from '../../energy/day-rollups.ts';
import { deviceStateSql, stateCounts } from '../../energy/device-state.ts';
import { joinLatest } from '../../energy/latest.ts';
import { fail } from '../../http/errors.ts';
import { iso, localDay } from '../../time/index.ts';
import { eventFields } from '../events/mapper.ts';
import { levelCounts } from './list.ts';

type InverterStatus = (typeof plantsApi.plantStatuses)[number];

/** The plant's inverters per state, as their badges show (off while powered off). */
export async function inverterCount(db: Db, caller: Caller, plantId: number) {
  await plantFor(db, caller, plantId);
  const state = deviceStateSql(db);
  const rows = await db
    .selectFrom('devices')
    .select((eb) => [state.as('state'), eb.fn.countAll<number>().as('n')])
    .where('devices.plant_id', '=', plantId)
    .where('devices.kind', '=', 'inverter')
    .where('devices.deleted_at', 'is', null)
    .groupBy(state)
    .execute();
  return stateCounts(rows);
}

export async function plantInverters(db: Db, caller: Caller, plantId: number, query: QueryOf<typeof plantsApi.plantInverters>) {
  await plantFor(db, caller, plantId);
  const page = query.page ?? 1;
  const size = query.size ?? limits.page.defaultSize;
  const plant = await db.selectFrom('plants').select('timezone').where('id', '=', plantId).executeTakeFirstOrThrow();
  const today = localDay(plant.timezone);
  const inverters = db
    .selectFrom('devices')
    .where('devices.plant_id', '=', plantId)
    .where('devices.kind', '=', 'inverter')
    .where('devices.deleted_at', 'is', null);
  const [rows, count] = await Promise.all([
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
  return {
    total: Number(count.n),
    list: rows.map((r) => {
      const power = parseJson<Record<string, unknown>>(r.values, {}).activePower;
      return {
        id: r.id,
        sn: r.sn,
        alias: r.alias,
        gatewaySn: r.gateway_sn,
        status: r.status as InverterStatus,
        state: r.state,
        deviceType: r.device_type,
        ratedPower: r.rated_power_w === null ? null : Number(r.rated_power_w),
        // An offline inverter produces nothing, whatever its last reading said.
        power: r.status === 'offline' ? (r.values ? 0 : null) : typeof power === 'number' ? power : null,
        todayEnergy: Number(r.pv_wh ?? 0),
        lastUpdate: iso(r.ts),
      };
    }),
  };
}

export async function checkDevices(db: Db, caller: Caller, plantId: number) {
  await plantFor(db, caller, plantId);
  const [gateways, kinds] = await Promise.all([
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
  const of = (kind: string) => Number(kinds.find((k) => k.kind === kind)?.n ?? 0);
  const result = {
    gateways: Number(gateways.n),
    inverters: of('inverter'),
    batteries: of('battery'),
    meters: of('meter'),
    weather: of('weather'),
  };
  return { hasDevices: Object.values(result).some((n) => n > 0), ...result };
}

export async function plantEventCount(db: Db, caller: Caller, plantId: number) {
  await plantFor(db, caller, plantId);
  const rows = await db
    .selectFrom('events')
    .select((eb) => ['level', eb.fn.countAll<number>().as('n')])
    .where('plant_id', '=', plantId)
    .where('ended_at', 'is', null)
    .groupBy('level')
    .execute();
  return levelCounts(rows);
}

const DAY_MS = 86_400_000;
const dayStart = (day: string) => Date.parse(`${day}T00:00:00Z`);

/** Dates are plant-local days, read as UTC days here (an hour or so of difference at the edges). */
export async function plantEvents(
  db: Db,
  caller: Caller,
  plantId: number,
  query: QueryOf<typeof plantsApi.plantEvents>,
  lan: Language,
) {
  await plantFor(db, caller, plantId);
  const page = query.page ?? 1;
  const size = query.size ?? limits.page.defaultSize;
  let events = db.selectFrom('events').where('plant_id', '=', plantId);
  if (query.level) events = events.where('level', '=', query.level);
  if (query.state === 'open') events = events.where('ended_at', 'is', null);
  if (query.state === 'closed') events = events.where('ended_at', 'is not', null);
  const from = query.startDate ? dayStart(query.startDate) : null;
  const to = query.endDate ? dayStart(query.endDate) + DAY_MS : null;
  if ((query.startDate && Number.isNaN(from)) || (query.endDate && Number.isNaN(to)))
    fail(ErrorCode.validation, 'query.startDate and query.endDate must be dates');
  if (from !== null && to !== null) {
    if (to <= from) fail(ErrorCode.validation, 'query.endDate must not be before query.startDate');
    if (to - from > limits.dateRangeDays * DAY_MS)
      fail(ErrorCode.validation, `query: the date range spans at most ${limits.dateRangeDays} days`);
  }
  if (from !== null) events = events.where('started_at', '>=', from);
  if (to !== null) events = events.where('started_at', '<', to);
  const [rows, count] = await Promise.all([
    events
      .select(['id', 'sn', 'code', 'level', 'source', 'text_en', 'text_es', 'started_at', 'ended_at'])
      .orderBy('started_at', 'desc')
      .orderBy('id', 'desc')
      .limit(size)
      .offset((page - 1) * size)
      .execute(),
    events.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return {
    total: Number(count.n),
    list: rows.map((r) => eventFields(r, lan)),
  };
}
