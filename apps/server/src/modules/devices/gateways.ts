/**
 * Gateways, read side: list, counts and the detail with the devices
 * behind it and its connection history. Visibility: access/devices.ts (a bound gateway follows
 * its plant; an unbound one belongs to the company it was imported for). A gateway the caller
 * cannot see answers 305 ("gateway does not exist").
 */
import { devicesApi, type QueryOf } from '@sunfleet/contracts';
import type { Caller } from '../../access/caller.ts';
import { gatewayFor } from '../../access/resolve.ts';
import type { Db } from '../../db/index.ts';
import { iso, zoneOf } from '../../time/index.ts';
import type { GatewayFilters, rowsByIds } from './gateways.repo.ts';
import * as repo from './gateways.repo.ts';
import { cached, scopeFormFor } from './list.ts';

export { filtered, type GatewayFilters, gatewaySnPage, rowsByIds } from './gateways.repo.ts';

type ListQuery = QueryOf<typeof devicesApi.listGateways>;
type Filters = GatewayFilters;

const { GATEWAY_HISTORY_DAYS, GATEWAY_HISTORY_MAX } = devicesApi;

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
  return cached(db, [...filterKey(caller, q), sort, desc], () => repo.orderedGatewayIds(db, caller, q, sort, direction));
}

type GatewayRow = Awaited<ReturnType<typeof rowsByIds>>[number];

export async function deviceSummary(db: Db, ids: number[]) {
  const rows = await repo.devicesByProtocol(db, ids);
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
      repo.gatewayPageIds(db, caller, q, form, desc ? 'desc' : 'asc', size, offset),
      gatewayTotal(db, caller, q),
    ]);
    ids = rows;
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
  const visible = fresh ? new Set(ids) : new Set(await repo.visibleGatewayIds(db, caller, ids));
  const scoped = ids.filter((id) => visible.has(id));
  const [rows, summary] = await Promise.all([repo.rowsByIds(db, caller, scoped), deviceSummary(db, scoped)]);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return { total, list: scoped.flatMap((id) => (byId.has(id) ? [toItem(byId.get(id)!, summary.get(id))] : [])) };
}

function gatewayTotal(db: Db, caller: Caller, q: Filters): Promise<number> {
  return cached(db, ['total', ...filterKey(caller, q)], () => repo.countGateways(db, caller, q));
}

export function gatewayCounts(db: Db, caller: Caller, q: Pick<Filters, 'plantId' | 'keyword'>) {
  return cached(db, ['counts', ...filterKey(caller, q)], async () => {
    const rows = await repo.gatewayCountRow(db, caller, q);
    const total = Number(rows?.total ?? 0);
    const online = Number(rows?.online ?? 0);
    return { total, online, offline: total - online, unbound: Number(rows?.unbound ?? 0) };
  });
}

// ——— detail ———

export async function gatewayDetail(db: Db, caller: Caller, id: number) {
  const found = await gatewayFor(db, caller, { id });
  const [[row], summary, devices] = await Promise.all([
    repo.rowsByIds(db, caller, [id]),
    deviceSummary(db, [id]),
    repo.gatewayDevices(db, id),
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
  const sessions = await repo.sessionsSince(db, gatewayId, since);
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
    const events = await repo.offlineEventsSince(db, gatewayId, sn, since);
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
