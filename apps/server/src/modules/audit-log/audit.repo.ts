/** SQL for reading the administrative audit log: filters, newest first, the actor's account and the company's name. */
import type { Db } from '../../db/index.ts';
import { parseJson } from '../../db/index.ts';
import type { AdminAuditEntity } from '../../db/schema.ts';
import { containsText } from '../../db/search.ts';
import { iso } from '../../time/index.ts';

export interface AuditFilter {
  entity?: AdminAuditEntity;
  /** The acting account contains this (case-insensitive). */
  actor?: string;
  companyId?: number;
  /** Epoch milliseconds, inclusive. */
  from?: number;
  to?: number;
}

function filtered(db: Db, f: AuditFilter) {
  let q = db
    .selectFrom('admin_audit')
    .leftJoin('users', 'users.id', 'admin_audit.actor_user_id')
    .leftJoin('companies', 'companies.id', 'admin_audit.company_id');
  if (f.entity) q = q.where('admin_audit.entity', '=', f.entity);
  if (f.companyId !== undefined) q = q.where('admin_audit.company_id', '=', f.companyId);
  if (f.from !== undefined) q = q.where('admin_audit.created_at', '>=', f.from);
  if (f.to !== undefined) q = q.where('admin_audit.created_at', '<=', f.to);
  if (f.actor) q = q.where(containsText(['users.account'], f.actor));
  return q;
}

export async function auditPage(db: Db, f: AuditFilter, page: number, size: number) {
  const q = filtered(db, f);
  const total = Number((await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const rows = await q
    .select([
      'admin_audit.id',
      'admin_audit.created_at',
      'admin_audit.actor_user_id',
      'users.account as actor_account',
      'admin_audit.company_id',
      'companies.name as company_name',
      'admin_audit.entity',
      'admin_audit.entity_id',
      'admin_audit.action',
      'admin_audit.before_values',
      'admin_audit.after_values',
    ])
    .orderBy('admin_audit.created_at', 'desc')
    .orderBy('admin_audit.id', 'desc')
    .limit(size)
    .offset((page - 1) * size)
    .execute();
  const values = (text: string | null) => {
    const v = parseJson<unknown>(text, null);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : v === null ? null : { value: v };
  };
  return {
    total,
    list: rows.map((r) => ({
      id: r.id,
      at: iso(r.created_at)!,
      actorId: r.actor_user_id,
      actorAccount: r.actor_account ?? null,
      companyId: r.company_id,
      companyName: r.company_name ?? null,
      entity: r.entity,
      entityId: r.entity_id,
      action: r.action,
      before: values(r.before_values),
      after: values(r.after_values),
    })),
  };
}
