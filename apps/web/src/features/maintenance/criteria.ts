/**
 * The maintenance log's filters, kept in the address (a link or a reload shows the same list):
 * plant, device SN, kind, a range of the browser's calendar days (none: all time) and the page.
 * Pure functions: parse, write, and the server query they make (days → instants: the start
 * day's local midnight to the midnight after the end day).
 */
import { MAINTENANCE_KINDS_LIST, type MaintenanceKindName } from './kinds.ts';

export interface LogCriteria {
  plantId?: number;
  /** The SN as typed (trimmed); sent only when it is a valid SN. */
  sn: string;
  kind?: MaintenanceKindName;
  /** Calendar days YYYY-MM-DD, both or neither. */
  range?: { start: string; end: string };
  page: number;
  size: number;
}

export const pageSizes = [20, 50, 100] as const;
export const DEFAULT_SIZE = 20;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

function positive(raw: string | null): number | undefined {
  const n = Number(raw);
  return raw && Number.isInteger(n) && n > 0 ? n : undefined;
}

export function parseCriteria(params: URLSearchParams): LogCriteria {
  const start = params.get('start');
  const end = params.get('end');
  const kind = params.get('kind');
  const size = positive(params.get('size'));
  return {
    plantId: positive(params.get('plantId')),
    sn: (params.get('sn') ?? '').trim().slice(0, 32),
    kind: (MAINTENANCE_KINDS_LIST as readonly string[]).includes(kind ?? '') ? (kind as MaintenanceKindName) : undefined,
    range: start && end && DAY.test(start) && DAY.test(end) ? { start, end } : undefined,
    page: positive(params.get('page')) ?? 1,
    size: size && (pageSizes as readonly number[]).includes(size) ? size : DEFAULT_SIZE,
  };
}

/** The address of some criteria: defaults are left out. */
export function criteriaSearch(c: LogCriteria): URLSearchParams {
  const out = new URLSearchParams();
  if (c.plantId) out.set('plantId', String(c.plantId));
  if (c.sn) out.set('sn', c.sn);
  if (c.kind) out.set('kind', c.kind);
  if (c.range) {
    out.set('start', c.range.start);
    out.set('end', c.range.end);
  }
  if (c.page !== 1) out.set('page', String(c.page));
  if (c.size !== DEFAULT_SIZE) out.set('size', String(c.size));
  return out;
}

export const isFiltered = (c: LogCriteria) => Boolean(c.plantId || c.sn || c.kind || c.range);

/** Local midnight of a calendar day, as an instant. */
function localMidnight(day: string, plusDays = 0): string {
  const d = new Date(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10)) + plusDays);
  return d.toISOString();
}

/** What the server is asked: the SN only when `snValid`, the range as instants (end exclusive). */
export function serverQuery(c: LogCriteria, snValid: boolean) {
  return {
    page: c.page,
    size: c.size,
    ...(c.plantId ? { plantId: c.plantId } : {}),
    ...(c.sn && snValid ? { sn: c.sn } : {}),
    ...(c.kind ? { kind: c.kind } : {}),
    ...(c.range ? { startTime: localMidnight(c.range.start), endTime: localMidnight(c.range.end, 1) } : {}),
  };
}
