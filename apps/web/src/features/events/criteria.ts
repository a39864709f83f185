/**
 * The events page's filters, kept in the address (so a link or a reload shows the same list):
 * plant, a search (part of an SN, alias or plant name: `q`), the exact SN a link to one device's
 * events carries (`sn`), device type, level, state, acknowledgement, the start-date range
 * (default the last 7 days) and the page. Pure functions: parse, write, and the server query
 * they make.
 */
import { eventsApi, type QueryOf } from '@sunfleet/contracts';
import { type DateRange, quickRange } from '../../lib/dateRange.ts';
import { isValidSn } from '../../lib/deviceSn.ts';
import { type EventStateName, type Level, levels } from '../../lib/events.ts';
export const kinds = ['inverter', 'battery', 'meter', 'weather', 'gateway'] as const;
export type Kind = (typeof kinds)[number];

export interface EventCriteria {
  plantId?: number;
  /** One device's exact SN, from a link (trimmed); sent only when it is a valid SN. */
  sn: string;
  /** Part of an SN, alias or plant name, as typed (trimmed); sent from 2 characters. */
  search: string;
  kind?: Kind;
  level?: Level;
  state?: EventStateName;
  acknowledged?: boolean;
  range: DateRange;
  page: number;
  size: number;
}

export const pageSizes = [20, 50, 100] as const;
export const DEFAULT_SIZE = 20;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

function oneOf<T extends string>(values: readonly T[], raw: string | null): T | undefined {
  return raw !== null && (values as readonly string[]).includes(raw) ? (raw as T) : undefined;
}

function positive(raw: string | null): number | undefined {
  const n = Number(raw);
  return raw && Number.isInteger(n) && n > 0 ? n : undefined;
}

export function defaultRange(today = new Date()): DateRange {
  return quickRange('last7', today);
}

export function parseCriteria(params: URLSearchParams, today = new Date()): EventCriteria {
  const start = params.get('start');
  const end = params.get('end');
  const range = start && end && DAY.test(start) && DAY.test(end) ? { start, end } : defaultRange(today);
  const ack = params.get('ack');
  const size = positive(params.get('size'));
  return {
    plantId: positive(params.get('plantId')),
    sn: (params.get('sn') ?? '').trim().slice(0, 32),
    search: (params.get('q') ?? '').trim().slice(0, eventsApi.EVENT_SEARCH_MAX),
    kind: oneOf(kinds, params.get('kind')),
    level: oneOf(levels, params.get('level')),
    state: oneOf(['open', 'closed'] as const, params.get('state')),
    acknowledged: ack === 'yes' ? true : ack === 'no' ? false : undefined,
    range,
    page: positive(params.get('page')) ?? 1,
    size: size && (pageSizes as readonly number[]).includes(size) ? size : DEFAULT_SIZE,
  };
}

/** The address of some criteria: defaults are left out. */
export function criteriaSearch(c: EventCriteria, today = new Date()): URLSearchParams {
  const out = new URLSearchParams();
  if (c.plantId) out.set('plantId', String(c.plantId));
  if (c.sn) out.set('sn', c.sn);
  if (c.search) out.set('q', c.search);
  if (c.kind) out.set('kind', c.kind);
  if (c.level) out.set('level', c.level);
  if (c.state) out.set('state', c.state);
  if (c.acknowledged !== undefined) out.set('ack', c.acknowledged ? 'yes' : 'no');
  const def = defaultRange(today);
  if (c.range.start !== def.start || c.range.end !== def.end) {
    out.set('start', c.range.start);
    out.set('end', c.range.end);
  }
  if (c.page > 1) out.set('page', String(c.page));
  if (c.size !== DEFAULT_SIZE) out.set('size', String(c.size));
  return out;
}

/** Whether a search text is long enough to be sent (shorter: the field says so). */
export const searchReady = (text: string) => text.length >= eventsApi.EVENT_SEARCH_MIN;

type Filters = Omit<QueryOf<typeof eventsApi.listEvents>, 'page' | 'size'>;

/** The list filters the server gets (every list, count and download shares them). */
export function serverFilters(c: EventCriteria, timezone: string): Filters {
  const f: Filters = { startDate: c.range.start, endDate: c.range.end, timezone };
  if (c.plantId) f.plantId = c.plantId;
  if (c.sn && isValidSn(c.sn)) f.sn = c.sn;
  if (searchReady(c.search)) f.search = c.search;
  if (c.kind) f.kind = c.kind;
  if (c.level) f.level = c.level;
  if (c.state) f.state = c.state;
  if (c.acknowledged !== undefined) f.acknowledged = c.acknowledged;
  return f;
}

/** Whether a filter differs from the defaults (the reset button shows then). */
export function isFiltered(c: EventCriteria, today = new Date()): boolean {
  const def = defaultRange(today);
  return Boolean(
    c.plantId ||
      c.sn ||
      c.search ||
      c.kind ||
      c.level ||
      c.state ||
      c.acknowledged !== undefined ||
      c.range.start !== def.start ||
      c.range.end !== def.end,
  );
}

/** "2 d 3 h", "5 h 12 min", "3 min 20 s", "45 s" between two instants (to now when open). */
export function formatDuration(fromIso: string, toIso: string | null, now = Date.now()): string {
  const from = Date.parse(fromIso);
  const to = toIso ? Date.parse(toIso) : now;
  if (Number.isNaN(from) || Number.isNaN(to)) return '--';
  let s = Math.max(0, Math.round((to - from) / 1000));
  const d = Math.floor(s / 86_400);
  s -= d * 86_400;
  const h = Math.floor(s / 3600);
  s -= h * 3600;
  const m = Math.floor(s / 60);
  s -= m * 60;
  if (d > 0) return h > 0 ? `${d} d ${h} h` : `${d} d`;
  if (h > 0) return m > 0 ? `${h} h ${m} min` : `${h} h`;
  if (m > 0) return s > 0 ? `${m} min ${s} s` : `${m} min`;
  return `${s} s`;
}
