/** SQL of the device lists: filters, orders, pages, counts and the rows a list shows. */
import type { devicesApi, QueryOf } from '@sunfleet/contracts';
import { type Expression, type SelectQueryBuilder, sql } from 'kysely';
import type { Static } from 'typebox';
import type { Caller } from '../../access/caller.ts';
import { deviceOperableFlag, devicesVisible, type ScopeForm } from '../../access/devices.ts';
import { plantsVisible } from '../../access/scopes.ts';
import type { Db } from '../../db/index.ts';
import type { Database, DeviceKind } from '../../db/schema.ts';
import { containsText } from '../../db/search.ts';
import { joinDeviceDay, joinedDayPvOrZero } from '../../energy/day-rollups.ts';
import { deviceStateSql, stateRankSql } from '../../energy/device-state.ts';
import { joinLatest, latestNumber, latestTsOrZero, noLatest } from '../../energy/latest.ts';
import { localTodaySql } from '../../time/index.ts';
import { readAll } from './offload.repo.ts';

type InverterQuery = QueryOf<typeof devicesApi.listInverters>;
export type Filters = Pick<InverterQuery, 'plantId' | 'gatewayId' | 'keyword' | 'status' | 'type'>;
type TypeKey = Static<typeof devicesApi.InverterTypeKey>;

/** Type register values of each inverter type name (the inverse of `inverterTypeKey`). */
const typeValues: Record<Exclude<TypeKey, 'threePhase' | '--'>, number[]> = {
  sellingFirst: [1, 10, 11],
  singlePhase: [2],
  micro: [3],
  threePhaseHighVoltage: [94],
  singlePhaseHighVoltage: [21],
  threePhaseLowVoltage: [93],
  singlePhaseOther: [22],
};
const namedTypeValues = Object.values(typeValues).flat();

// biome-ignore lint/suspicious/noExplicitAny: the filters apply to any select over `devices`, whatever it joins
type DevicesQuery = SelectQueryBuilder<Database, 'devices' | any, any>;

/** How many plants the caller sees. */
export async function visiblePlantCount(db: Db, caller: Caller): Promise<number> {
  const [row] = await readAll(
    db,
    db
      .selectFrom('plants')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where((eb) => plantsVisible(eb, caller)),
  );
  return Number(row?.n ?? 0);
}

function filtered<Q extends DevicesQuery>(
  db: Db,
  q: Q,
  kind: DeviceKind,
  caller: Caller,
  f: Filters,
  form: ScopeForm = 'exists',
): Q {
  let out = q
    .where('devices.kind', '=', kind)
    .where('devices.deleted_at', 'is', null)
    .where((eb) => devicesVisible(eb as never, caller, form)) as Q;
  if (f.plantId !== undefined) out = out.where('devices.plant_id', '=', f.plantId) as Q;
  if (f.gatewayId !== undefined) out = out.where('devices.gateway_id', '=', f.gatewayId) as Q;
  // The state its badge shows (off while powered off), not the stored status.
  if (f.status) out = out.where(sql<boolean>`${deviceStateSql(db)} = ${f.status}`) as Q;
  if (f.type) {
    if (f.type === '--') out = out.where('devices.device_type', 'is', null) as Q;
    else if (f.type === 'threePhase')
      out = out.where('devices.device_type', 'is not', null).where('devices.device_type', 'not in', namedTypeValues) as Q;
    else out = out.where('devices.device_type', 'in', typeValues[f.type]) as Q;
  }
  if (f.keyword?.trim()) out = out.where(containsText(['devices.sn', 'devices.alias'], f.keyword)) as Q;
  return out;
}

/** Sort keys that need the latest values or today's rollup joined. */
const needsLatest = new Set(['power', 'soc', 'soh', 'irradiance', 'lastUpdate']);

function sortExpression(db: Db, kind: DeviceKind, sort: string): Expression<unknown> {
  switch (sort) {
    case 'alias':
      return sql`lower(coalesce(devices.alias, ''))`;
    case 'createAt':
      return sql`devices.created_at`;
    case 'status':
      return stateRankSql(db);
    case 'ratedPower':
      return sql`coalesce(devices.rated_power_w, -1)`;
    case 'lastUpdate':
      return latestTsOrZero;
    case 'power': {
      const power = latestNumber(db, kind === 'battery' ? 'power' : 'activePower');
      if (kind !== 'inverter') return sql`coalesce(${power}, -1e18)`;
      // As shown: an offline inverter produces nothing.
      return sql`(case when ${noLatest} then -1 when devices.status = 'offline' then 0 else coalesce(${power}, -1) end)`;
    }
    case 'soc':
    case 'soh':
    case 'irradiance':
      return sql`coalesce(${latestNumber(db, sort)}, -1)`;
    case 'todayEnergy':
      return joinedDayPvOrZero;
    default:
      return sql`devices.sn`;
  }
}

/** The ordered ids of every visible device of the kind that passes the filters. */
export async function orderedIds(
  db: Db,
  kind: DeviceKind,
  caller: Caller,
  q: Filters,
  sort: string,
  desc: boolean,
  form: ScopeForm,
) {
  let query = db.selectFrom('devices') as unknown as DevicesQuery;
  if (needsLatest.has(sort)) query = joinLatest(query) as unknown as DevicesQuery;
  if (sort === 'todayEnergy') {
    query = joinDeviceDay(
      query.leftJoin('plants', 'plants.id', 'devices.plant_id'),
      localTodaySql('plants.timezone'),
    ) as unknown as DevicesQuery;
  }
  const direction = desc ? 'desc' : 'asc';
  const rows = await readAll(
    db,
    filtered(db, query, kind, caller, q, form)
      .select('devices.id')
      .orderBy(sortExpression(db, kind, sort), direction)
      .orderBy('devices.id', direction),
  );
  return rows.map((r) => Number(r.id));
}

/** How many visible devices of the kind pass the filters. */
export async function countDevices(db: Db, kind: DeviceKind, caller: Caller, q: Filters): Promise<number> {
  const [row] = await readAll(
    db,
    filtered(db, db.selectFrom('devices') as unknown as DevicesQuery, kind, caller, q, 'in').select((eb) =>
      eb.fn.countAll<number>().as('n'),
    ),
  );
  return Number(row?.n ?? 0);
}

/** A page of the visible devices of the kind that pass the filters, by SN. */
export async function snPageIds(
  db: Db,
  kind: DeviceKind,
  caller: Caller,
  q: Filters,
  form: ScopeForm,
  desc: boolean,
  size: number,
  offset: number,
): Promise<number[]> {
  const rows = await filtered(db, db.selectFrom('devices') as unknown as DevicesQuery, kind, caller, q, form)
    .select('devices.id')
    .orderBy('devices.sn', desc ? 'desc' : 'asc')
    .limit(size)
    .offset(offset)
    .execute();
  return rows.map((r) => Number(r.id));
}

/** The live devices of the kind with these ids, with everything a row shows (through the scope again with `rescope`). */
export function deviceRows(db: Db, caller: Caller, kind: DeviceKind, ids: number[], rescope: boolean) {
  let query = joinLatest(
    db
      .selectFrom('devices')
      .innerJoin('gateways', 'gateways.id', 'devices.gateway_id')
      .leftJoin('plants', 'plants.id', 'devices.plant_id'),
  )
    .select((eb) => [
      'devices.id',
      'devices.sn',
      'devices.alias',
      'devices.protocol_id',
      'devices.device_type',
      'devices.rated_power_w',
      'devices.status',
      'devices.created_at',
      'devices.bound_at',
      'devices.plant_id',
      'plants.name as plant_name',
      'plants.timezone as plant_timezone',
      'plants.master_meter_id',
      'gateways.id as gateway_id',
      'gateways.sn as gateway_sn',
      'gateways.alias as gateway_alias',
      'device_latest.ts as latest_ts',
      'device_latest.values as latest_values',
      deviceOperableFlag(eb as never, caller).as('operable'),
      deviceStateSql(db).as('state'),
    ])
    .where('devices.id', 'in', ids)
    .where('devices.kind', '=', kind)
    .where('devices.deleted_at', 'is', null);
  if (rescope) query = query.where((eb) => devicesVisible(eb, caller));
  return query.execute();
}

/** Visible devices of the kind counted by the state their badges show. */
export async function deviceStateRows(db: Db, caller: Caller, kind: DeviceKind, query: Omit<Filters, 'status'>) {
  const state = deviceStateSql(db);
  const rows = await readAll(
    db,
    filtered(db, db.selectFrom('devices') as unknown as DevicesQuery, kind, caller, query, 'in')
      .select((eb) => [state.as('state'), eb.fn.countAll<number>().as('n')])
      .groupBy(state),
  );
  return rows as Array<{ state: string; n: number }>;
}
