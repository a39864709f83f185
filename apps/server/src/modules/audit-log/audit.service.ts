/**
 * Who reads the administrative audit log: operators (system administrators) every record; a
 * company administrator only the records of their own company, whatever company they ask for.
 * Anyone else is refused (2).
 */
import { type companyApi, ErrorCode, type QueryOf } from '@sunfleet/contracts';
import type { Caller } from '../../access/caller.ts';
import type { Db } from '../../db/index.ts';
import { fail } from '../../http/errors.ts';
import { auditPage } from './audit.repo.ts';

export async function readAudit(db: Db, caller: Caller, query: QueryOf<typeof companyApi.adminAudit>) {
  let companyId = query.companyId;
  if (caller.user.kind !== 'sysadmin') {
    if (caller.user.kind !== 'company_admin' || !caller.user.company_id) return fail(ErrorCode.noPermission);
    // Another company asked for: nothing of it is shown.
    if (companyId !== undefined && companyId !== caller.user.company_id) return { total: 0, list: [] };
    companyId = caller.user.company_id;
  }
  const from = query.from ? Date.parse(query.from) : undefined;
  const to = query.to ? Date.parse(query.to) : undefined;
  if (from !== undefined && to !== undefined && from > to) fail(ErrorCode.validation, 'query.from must not be after query.to');
  return auditPage(
    db,
    { entity: query.entity, actor: query.actor?.trim() || undefined, companyId, from, to },
    query.page ?? 1,
    query.size ?? 10,
  );
}
