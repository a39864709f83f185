/** SQL of the gateways' read side: the list's filters and orders, rows, device summaries, the detail's devices and history. */
import type { devicesApi, QueryOf } from '@sunfleet/contracts';
import { type Expression, type SelectQueryBuilder, sql } from 'kysely';
import type { Caller } from '../../access/caller.ts';
import { gatewayOperableFlag, gatewaysVisible, type ScopeForm } from '../../access/devices.ts';
import type { Db } from '../../db/index.ts';
import type { Database } from '../../db/schema.ts';
import { containsText } from '../../db/search.ts';
import { deviceStateSql } from '../../energy/device-state.ts';
import { joinLatest } from '../../energy/latest.ts';
import { readAll } from './offload.repo.ts';

type ListQuery = QueryOf<typeof devicesApi.listGateways>;
export type GatewayFilters = Pick<
  ListQuery,
  'plantId' | 'status' | 'binding' | 'commType' | 'keyword' | 'customerId' | 'protocol'
>;
type Filters = GatewayFilters;

// biome-ignore lint/suspicious/noExplicitAny: the filters apply to any select over `gateways`
type GatewaysQuery = SelectQueryBuilder<Database, 'gateways' | any, any>;

export function filtered<Q extends GatewaysQuery>(q: Q, caller: Caller, f: Filters, form: ScopeForm = 'exists'): Q {
  let out = q.where((eb) => gatewaysVisible(eb as never, caller, form)) as Q;
  if (f.plantId !== undefined) out = out.where('gateways.plant_id', '=', f.plantId) as Q;
  if (f.status) out = out.where('gateways.online', '=', f.status === 'online' ? 1 : 0) as Q;
  if (f.binding === 'bound') out = out.where('gateways.plant_id', 'is not', null) as Q;
  if (f.binding === 'unbound') out = out.where('gateways.plant_id', 'is', null) as Q;
  if (f.commType) out = out.where('gateways.comm_type', '=', f.commType) as Q;
  if (f.customerId !== undefined) out = out.where('gateways.company_id', '=', f.customerId) as Q;
  if (f.protocol) out = out.where('gateways.protocol_id', '=', f.protocol) as Q;
  if (f.keyword?.trim()) out = out.where(containsText(['gateways.sn', 'gateways.alias'], f.keyword)) as Q;
  return out;
}

function sortExpression(sort: string): Expression<unknown> {
  switch (sort) {
    case 'createAt':
      return sql`gateways.created_at`;
    case 'lastOnline':
      return sql`coalesce(gateways.last_online_at, 0)`;
    case 'rssi':
      return sql`coalesce(gateways.rssi, -999)`;
    case 'status':
      return sql`gateways.online`;
    default:
      return sql`gateways.sn`;
  }
}

const base = (db: Db) => db.selectFrom('gateways') as unknown as GatewaysQuery;

/**
 * Gateways with everything a row shows, by id, WITHOUT the scope (ids come from a scoped query),
 * and whether the caller operates each.
 */
export function rowsByIds(db: Db, caller: Caller, ids: number[]) {
  return db
    .selectFrom('gateways')
    .leftJoin('plants', 'plants.id', 'gateways.plant_id')
    .leftJoin('companies as gateway_company', 'gateway_company.id', 'gateways.company_id')
    .leftJoin('companies as plant_company', 'plant_company.id', 'plants.company_id')
    .leftJoin('users as owner', 'owner.id', 'plants.owner_user_id')
    .leftJoin('companies as agent_company', 'agent_company.id', 'owner.agent_company_id')
    .select((eb) => [
      'gateways.id',
      'gateways.sn',
      'gateways.alias',
      'gateways.plant_id',
      'plants.name as plant_name',
      'plants.timezone as plant_timezone',
      sql<number | null>`coalesce(gateway_company.id, plant_company.id, agent_company.id)`.as('company_id'),
      sql<string | null>`coalesce(gateway_company.name, plant_company.name, agent_company.name)`.as('company_name'),
      'gateways.sw_version',
      'gateways.hw_version',
      'gateways.comm_type',
      'gateways.protocol_id',
      'gateways.rssi',
      'gateways.online',
      'gateways.last_online_at',
      'gateways.last_seen_at',
      'gateways.upload_interval_s',
      'gateways.bound_at',
      'gateways.created_at',
      gatewayOperableFlag(eb as never, caller).as('operable'),
    ])
    .where('gateways.id', 'in', ids)
    .execute();
}

/** The gateways' live devices counted by protocol. */
export const devicesByProtocol = (db: Db, ids: number[]) =>
  db
    .selectFrom('devices')
    .select((eb) => ['gateway_id', 'protocol_id', eb.fn.countAll<number>().as('n')])
    .where('gateway_id', 'in', ids)
    .where('deleted_at', 'is', null)
    .groupBy(['gateway_id', 'protocol_id'])
    .execute();

/** Every visible gateway's id that passes the filters, in order (read off the event loop where the store allows). */
export async function orderedGatewayIds(db: Db, caller: Caller, q: Filters, sort: string, direction: 'asc' | 'desc') {
  const rows = await readAll(
    db,
    filtered(base(db), caller, q, 'in')
      .select('gateways.id')
      .orderBy(sortExpression(sort), direction)
      .orderBy('gateways.id', direction),
  );
  return rows.map((r) => Number(r.id));
}

/** A page of the visible gateways that pass the filters, by SN. */
export async function gatewayPageIds(
  db: Db,
  caller: Caller,
  q: Filters,
  form: ScopeForm,
  direction: 'asc' | 'desc',
  size: number,
  offset: number,
) {
  const rows = await filtered(base(db), caller, q, form)
    .select('gateways.id')
    .orderBy('gateways.sn', direction)
    .limit(size)
    .offset(offset)
    .execute();
  return rows.map((r) => Number(r.id));
}

/** Which of the ids the caller sees. */
export async function visibleGatewayIds(db: Db, caller: Caller, ids: number[]) {
  const rows = await filtered(base(db), caller, {}).select('gateways.id').where('gateways.id', 'in', ids).execute();
  return rows.map((r) => Number(r.id));
}

/** How many visible gateways pass the filters. */
export async function countGateways(db: Db, caller: Caller, q: Filters) {
  const [row] = await readAll(
    db,
    filtered(base(db), caller, q, 'in').select((eb) => eb.fn.countAll<number>().as('n')),
  );
  return Number(row?.n ?? 0);
}

/** The visible gateways that pass the filters: all, online, unbound. */
export async function gatewayCountRow(db: Db, caller: Caller, q: Pick<Filters, 'plantId' | 'keyword'>) {
  const [rows] = await readAll(
    db,
    filtered(base(db), caller, q, 'in').select((eb) => [
      eb.fn.countAll<number>().as('total'),
      sql<number>`sum(case when gateways.online = 1 then 1 else 0 end)`.as('online'),
      sql<number>`sum(case when gateways.plant_id is null then 1 else 0 end)`.as('unbound'),
    ]),
  );
  return rows;
}

/** The gateway's live devices with their latest time and state, by kind and SN. */
export const gatewayDevices = (db: Db, id: number) =>
  joinLatest(db.selectFrom('devices'))
    .select([
      'devices.id',
      'devices.sn',
      'devices.kind',
      'devices.alias',
      'devices.protocol_id',
      'devices.status',
      'device_latest.ts',
      deviceStateSql(db).as('state'),
    ])
    .where('devices.gateway_id', '=', id)
    .where('devices.deleted_at', 'is', null)
    .orderBy('devices.kind')
    .orderBy('devices.sn')
    .execute();

/** The gateway's sessions open now or closed since `since`, oldest first. */
export const sessionsSince = (db: Db, gatewayId: number, since: number) =>
  db
    .selectFrom('gateway_sessions')
    .select(['online_at', 'offline_at'])
    .where('gateway_id', '=', gatewayId)
    .where((eb) => eb.or([eb('offline_at', 'is', null), eb('offline_at', '>=', since)]))
    .orderBy('online_at')
    .execute();

/** The gateway's own offline events open now or ended since `since`, oldest first. */
export const offlineEventsSince = (db: Db, gatewayId: number, sn: string, since: number) =>
  db
    .selectFrom('events')
    .select(['started_at', 'ended_at'])
    .where('gateway_id', '=', gatewayId)
    .where('device_id', 'is', null)
    .where('sn', '=', sn)
    .where('code', '=', 'offline')
    .where((eb) => eb.or([eb('ended_at', 'is', null), eb('ended_at', '>=', since)]))
    .orderBy('started_at')
    .execute();

/** The next `limit` visible gateways that pass the filters, by SN after `after` (a keyset page). */
export function gatewaySnPage(db: Db, caller: Caller, q: Filters, after: string | null, limit: number) {
  let query = filtered(db.selectFrom('gateways'), caller, q, 'in')
    .select(['gateways.id', 'gateways.sn'])
    .orderBy('gateways.sn')
    .limit(limit);
  if (after !== null) query = query.where('gateways.sn', '>', after);
  return query.execute();
}
