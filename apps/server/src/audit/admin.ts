/**
 * The administrative audit log: call `recordAdminChange` inside the transaction that makes the
 * change, so the record and the change commit together or not at all.
 */
import type { Transaction } from 'kysely';
import type { Db } from '../db/index.ts';
import type { AdminAuditEntity, Database } from '../db/schema.ts';

export interface AdminChange {
  actorUserId: number;
  companyId: number | null;
  entity: AdminAuditEntity;
  entityId: string | number;
  /** What was done, in a word: create, edit, delete, assign, import, … */
  action: string;
  before?: unknown;
  after?: unknown;
}

export async function recordAdminChange(db: Db | Transaction<Database>, change: AdminChange, now = Date.now()) {
  await db
    .insertInto('admin_audit')
    .values({
      actor_user_id: change.actorUserId,
      company_id: change.companyId,
      entity: change.entity,
      entity_id: String(change.entityId),
      action: change.action,
      before_values: change.before === undefined ? null : JSON.stringify(change.before),
      after_values: change.after === undefined ? null : JSON.stringify(change.after),
      created_at: now,
    })
    .execute();
}
