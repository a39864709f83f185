/**
 * The audit log's filters, kept in the address: what changed (entity), who changed it (part of
 * the account), the company (operators only), a day range read in the browser's zone, and the
 * page. Pure functions: parse, write, and the server query they make.
 */
import { companyApi, type QueryOf } from '@sunfleet/contracts';

export type AuditEntity = (typeof companyApi.auditEntities)[number];

export interface AuditCriteria {
  entity?: AuditEntity;
  actor: string;
  companyId?: number;
  /** YYYY-MM-DD, both ends included. */
  start?: string;
  end?: string;
  page: number;
  size: number;
}

export const pageSizes = [20, 50, 100] as const;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

function positive(raw: string | null): number | undefined {
  const n = Number(raw);
  return raw && Number.isInteger(n) && n > 0 ? n : undefined;
}

export function parseCriteria(params: URLSearchParams): AuditCriteria {
  const entity = params.get('entity');
  const start = params.get('start');
  const end = params.get('end');
  const range = start && end && DAY.test(start) && DAY.test(end) && start <= end ? { start, end } : {};
  const size = positive(params.get('size'));
  return {
    entity: (companyApi.auditEntities as readonly string[]).includes(entity ?? '') ? (entity as AuditEntity) : undefined,
    actor: (params.get('actor') ?? '').trim().slice(0, 254),
    companyId: positive(params.get('companyId')),
    ...range,
    page: positive(params.get('page')) ?? 1,
    size: size && (pageSizes as readonly number[]).includes(size) ? size : pageSizes[0],
  };
}

export function criteriaSearch(c: AuditCriteria): URLSearchParams {
  const p = new URLSearchParams();
  if (c.entity) p.set('entity', c.entity);
  if (c.actor) p.set('actor', c.actor);
  if (c.companyId) p.set('companyId', String(c.companyId));
  if (c.start && c.end) {
    p.set('start', c.start);
    p.set('end', c.end);
  }
  if (c.page > 1) p.set('page', String(c.page));
  if (c.size !== pageSizes[0]) p.set('size', String(c.size));
  return p;
}

/** The instant a local day starts at, in the browser's zone (the day after `end` bounds the range). */
function localDayStart(day: string, addDays = 0): Date {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d + addDays);
}

export function auditQuery(c: AuditCriteria): QueryOf<typeof companyApi.adminAudit> {
  return {
    page: c.page,
    size: c.size,
    ...(c.entity ? { entity: c.entity } : {}),
    ...(c.actor ? { actor: c.actor } : {}),
    ...(c.companyId ? { companyId: c.companyId } : {}),
    ...(c.start && c.end
      ? { from: localDayStart(c.start).toISOString(), to: new Date(localDayStart(c.end, 1).getTime() - 1).toISOString() }
      : {}),
  };
}

/** The fields a change touched: each key whose value differs between before and after (missing = null), in first-seen order. */
export function changedFields(
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
): Array<{ field: string; from: unknown; to: unknown }> {
  const keys = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  return (
    keys
      .map((field) => ({ field, from: before?.[field], to: after?.[field] }))
      // A missing value and null are both "nothing": not a change.
      .filter((c) => JSON.stringify(c.from ?? null) !== JSON.stringify(c.to ?? null))
  );
}
