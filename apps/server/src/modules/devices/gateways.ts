/**
 * Gateways, read side: list, counts and the detail with the devices
 * behind it and its connection history. Visibility: access/devices.ts (a bound gateway follows
 * its plant; an unbound one belongs to the company it was imported for). A gateway the caller
 * cannot see answers 305 ("gateway does not exist").
 */
import { devicesApi, type QueryOf } from '@sunfleet/contracts';
import { type Expression, type SelectQueryBuilder, sql } from 'kysely';
import type { Caller } from '../../access/caller.ts';
import { gatewayOperableFlag, gatewaysVisible, type ScopeForm } from '../../access/devices.ts';
import { gatewayFor } from '../../access/resolve.ts';
import type { Db } from '../../db/index.ts';
import type { Database } from '../../db/schema.ts';
import { containsText } from '../../db/search.ts';
import { deviceStateSql } from '../../energy/device-state.ts';
import { joinLatest } from '../../energy/latest.ts';
import { iso, zoneOf } from '../../time/index.ts';
import { cached, scopeFormFor } from './list.ts';
import { readAll } from './offload.ts';

type ListQuery = QueryOf<typeof devicesApi.listGateways>;
export type GatewayFilters = Pick<
  ListQuery,
  'plantId' | 'status' | 'binding' | 'commType' | 'keyword' | 'customerId' | 'protocol'
>;
type Filters = GatewayFilters;

const { GATEWAY_HISTORY_DAYS, GATEWAY_HISTORY_MAX } = devicesApi;

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

const filterKey = (caller: Caller, q: Filters) => [
  'gateways',
  caller.user.id,
  q.plantId ?? null,
  q.status ?? null,
  q.binding ?? null,
  q.commType ?? null,
  q.keyword?.trim().toLowerCase() ?? '',
  q.customerId ?? null,
  q.protocol ?? null,
];

/** Every visible gateway that passes the filters, in order (cached 10 s, see list.ts). */
function orderedIds(db: Db, caller: Caller, q: ListQuery, sort: string, desc: boolean): Promise<number[]> {
  const direction = desc ? 'desc' : 'asc';
  return cached(db, [...filterKey(caller, q), sort, desc], async () => {
    const rows = await readAll(
      db,
      filtered(base(db), caller, q, 'in')
        .select('gateways.id')
        .orderBy(sortExpression(sort), direction)
        .orderBy('gateways.id', direction),
    );
    return rows.map((r) => Number(r.id));
  });
}

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
type GatewayRow = Awaited<ReturnType<typeof rowsByIds>>[number];

export async function deviceSummary(db: Db, ids: number[]) {
  const rows = await db
    .selectFrom('devices')
    .select((eb) => ['gateway_id', 'protocol_id', eb.fn.countAll<number>().as('n')])
    .where('gateway_id', 'in', ids)
    .where('deleted_at', 'is', null)
    .groupBy(['gateway_id', 'protocol_id'])
    .execute();
  const out = new Map<number, { protocols: string[]; devices: number }>();
  for (const r of rows) {
    const s = out.get(r.gateway_id) ?? { protocols: [], devices: 0 };
    s.protocols.push(r.protocol_id);
    s.devices += Number(r.n);
    out.set(r.gateway_id, s);
  }
  for (const s of out.values()) s.protocols.sort();
  return out;
}

export function toItem(r: GatewayRow, summary: { protocols: string[]; devices: number } | undefined) {
  const rssi = r.rssi === null ? null : Number(r.rssi);
  return {
    id: r.id,
    sn: r.sn,
    alias: r.alias,
    plant: r.plant_id === null ? null : { id: r.plant_id, name: r.plant_name ?? '', timezone: zoneOf(r.plant_timezone) },
    company: r.company_id === null ? null : { id: Number(r.company_id), name: r.company_name ?? '' },
    swVersion: r.sw_version,
    hwVersion: r.hw_version,
    commType: r.comm_type,
    rssi,
    signalBars: devicesApi.signalBars(rssi),
    status: Number(r.online) === 1 ? ('online' as const) : ('offline' as const),
    lastOnlineAt: iso(r.last_online_at),
    lastSeenAt: iso(r.last_seen_at),
    uploadInterval: Number(r.upload_interval_s),
    protocol: r.protocol_id,
    protocols: summary?.protocols ?? [],
    devices: summary?.devices ?? 0,
    createdAt: iso(r.created_at)!,
    canEdit: Number(r.operable) === 1,
  };
}

export async function listGateways(db: Db, caller: Caller, q: ListQuery) {
  const page = q.page ?? 1;
  const size = q.size ?? 10;
  const offset = (page - 1) * size;
  const sort = q.sort ?? 'sn';
  const desc = (q.order ?? 1) === 2;
  let ids: number[];
  let total: number;
  let fresh: boolean;
  const form = await scopeFormFor(db, caller);
  if (sort === 'sn' && !q.keyword?.trim() && !(form === 'exists' && (q.status || offset >= 1000))) {
    const [rows, count] = await Promise.all([
      filtered(base(db), caller, q, form)
        .select('gateways.id')
        .orderBy('gateways.sn', desc ? 'desc' : 'asc')
        .limit(size)
        .offset(offset)
        .execute(),
      gatewayTotal(db, caller, q),
    ]);
    ids = rows.map((r) => Number(r.id));
    total = count;
    fresh = true;
  } else {
    const all = await orderedIds(db, caller, q, sort, desc);
    ids = all.slice(offset, offset + size);
    total = all.length;
    fresh = false;
  }
  if (ids.length === 0) return { total, list: [] };
  // Ids of a cached order may be a few seconds old: through the scope again.
  const visible = fresh
    ? new Set(ids)
    : new Set(
        (await filtered(base(db), caller, {}).select('gateways.id').where('gateways.id', 'in', ids).execute()).map((r) =>
          Number(r.id),
        ),
      );
  const scoped = ids.filter((id) => visible.has(id));
  const [rows, summary] = await Promise.all([rowsByIds(db, caller, scoped), deviceSummary(db, scoped)]);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return { total, list: scoped.flatMap((id) => (byId.has(id) ? [toItem(byId.get(id)!, summary.get(id))] : [])) };
}

function gatewayTotal(db: Db, caller: Caller, q: Filters): Promise<number> {
  return cached(db, ['total', ...filterKey(caller, q)], async () => {
    const [row] = await readAll(
      db,
      filtered(base(db), caller, q, 'in').select((eb) => eb.fn.countAll<number>().as('n')),
    );
    return Number(row?.n ?? 0);
  });
}

export function gatewayCounts(db: Db, caller: Caller, q: Pick<Filters, 'plantId' | 'keyword'>) {
  return cached(db, ['counts', ...filterKey(caller, q)], async () => {
    const [rows] = await readAll(
      db,
      filtered(base(db), caller, q, 'in').select((eb) => [
        eb.fn.countAll<number>().as('total'),
        sql<number>`sum(case when gateways.online = 1 then 1 else 0 end)`.as('online'),
        sql<number>`sum(case when gateways.plant_id is null then 1 else 0 end)`.as('unbound'),
      ]),
    );
    const total = Number(rows?.total ?? 0);
    const online = Number(rows?.online ?? 0);
    return { total, online, offline: total - online, unbound: Number(rows?.unbound ?? 0) };
  });
}

// ——— detail ———

export async function gatewayDetail(db: Db, caller: Caller, id: number) {
  const found = await gatewayFor(db, caller, { id });
  const [[row], summary, devices] = await Promise.all([
    rowsByIds(db, caller, [id]),
    deviceSummary(db, [id]),
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
      .execute(),
  ]);
  const item = toItem(row!, summary.get(id));
  const history = await connectionHistory(
    db,
    id,
    row!.sn,
    Number(row!.online) === 1,
    row!.last_online_at,
    row!.last_seen_at,
    Date.now(),
    row!.plant_id === null ? 0 : Number(row!.bound_at),
  );
  return {
    ...item,
    deviceList: devices.map((d) => ({
      id: d.id,
      sn: d.sn,
      kind: d.kind,
      alias: d.alias,
      protocol: d.protocol_id,
      status: d.status,
      state: d.state,
      lastUpdate: iso(d.ts),
    })),
    history: history.periods,
    historySource: history.source,
    canEdit: found.canOperate,
  };
}

interface Period {
  state: 'online' | 'offline';
  from: number;
  to: number | null;
}

/**
 * Online and offline periods of the last GATEWAY_HISTORY_DAYS, newest first: from the recorded
 * sessions when there are any, else from the offline events of the offline detection (a period
 * between two offline events, or after the last one, is online).
 */
export async function connectionHistory(
  db: Db,
  gatewayId: number,
  sn: string,
  online: boolean,
  lastOnlineAt: number | null,
  lastSeenAt: number | null,
  at = Date.now(),
  /** When the gateway joined its plant: the periods are shown from then on (before, an earlier owner's). */
  boundAt = 0,
): Promise<{
  source: 'sessions' | 'events';
  periods: Array<{ state: 'online' | 'offline'; from: string; to: string | null; durationS: number }>;
}> {
  const since = Math.max(at - GATEWAY_HISTORY_DAYS * 86_400_000, boundAt);
  const sessions = await db
    .selectFrom('gateway_sessions')
    .select(['online_at', 'offline_at'])
    .where('gateway_id', '=', gatewayId)
    .where((eb) => eb.or([eb('offline_at', 'is', null), eb('offline_at', '>=', since)]))
    .orderBy('online_at')
    .execute();
  const periods: Period[] = [];
  let source: 'sessions' | 'events' = 'sessions';
  if (sessions.length > 0) {
    for (const s of sessions) {
      const from = Number(s.online_at);
      const to = s.offline_at === null ? null : Number(s.offline_at);
      const prev = periods.at(-1);
      if (prev?.to != null && prev.to < from) periods.push({ state: 'offline', from: prev.to, to: from });
      periods.push({ state: 'online', from, to });
    }
    const last = periods.at(-1)!;
    if (last.to !== null) periods.push({ state: 'offline', from: last.to, to: null });
  } else {
    source = 'events';
    const events = await db
      .selectFrom('events')
      .select(['started_at', 'ended_at'])
      .where('gateway_id', '=', gatewayId)
      .where('device_id', 'is', null)
      .where('sn', '=', sn)
      .where('code', '=', 'offline')
      .where((eb) => eb.or([eb('ended_at', 'is', null), eb('ended_at', '>=', since)]))
      .orderBy('started_at')
      .execute();
    for (const e of events) {
      const from = Number(e.started_at);
      const to = e.ended_at === null ? null : Number(e.ended_at);
      const prev = periods.at(-1);
      if (prev?.to != null && prev.to < from) periods.push({ state: 'online', from: prev.to, to: from });
      periods.push({ state: 'offline', from, to });
    }
    const last = periods.at(-1);
    if (last && last.to !== null) periods.push({ state: 'online', from: last.to, to: null });
    if (!last) {
      // No offline period recorded: what the gateway row knows.
      if (online && lastOnlineAt !== null) periods.push({ state: 'online', from: Number(lastOnlineAt), to: null });
      else if (!online && (lastSeenAt ?? lastOnlineAt) !== null)
        periods.push({ state: 'offline', from: Number(lastSeenAt ?? lastOnlineAt), to: null });
    }
  }
  return {
    source,
    periods: periods
      .filter((p) => p.to === null || p.to > boundAt)
      .map((p) => (p.from < boundAt ? { ...p, from: boundAt } : p))
      .reverse()
      .slice(0, GATEWAY_HISTORY_MAX)
      .map((p) => ({
        state: p.state,
        from: iso(p.from)!,
        to: iso(p.to),
        durationS: Math.max(0, Math.round(((p.to ?? at) - p.from) / 1000)),
      })),
  };
}
