/**
 * Object scopes: which plants (and through them, devices, events and data) a caller can see
 * or operate. This is the ONE place that rule lives; every route that takes a plant or device
 * id filters through these. A foreign id then simply matches nothing, and the route answers
 * as if it did not exist.
 *
 * See: owner, anyone the plant is shared with, users of the company that owns the plant or
 * is the owner's agent, users of the agent of either of those companies (an agent acts for the
 * customers it serves), system administrators.
 * Operate: owner, managers it is shared with, company administrators and company users of
 * those companies (their role's button permissions decide which actions), system
 * administrators. Visitors and read-only accounts never operate.
 */
import { type ExpressionBuilder, sql } from 'kysely';
import type { Database, ShareRole } from '../db/schema.ts';
import type { Caller } from './caller.ts';

type PlantsEb = ExpressionBuilder<Database, 'plants'>;

/**
 * The companies a company account acts for: its own, and the customers it is the agent of
 * (`companies.agent_company_id`; one level: an agent has no agent, so this is never a chain).
 */
export function companiesServedBy<DB extends Database, TB extends keyof DB>(eb: ExpressionBuilder<DB, TB>, companyId: number) {
  const e = eb as unknown as ExpressionBuilder<Database, never>;
  return e
    .selectFrom('companies as served')
    .select('served.id')
    .where((w) => w.or([w('served.id', '=', companyId), w('served.agent_company_id', '=', companyId)]));
}

function companyReach(eb: PlantsEb, companyId: number) {
  const served = companiesServedBy(eb, companyId);
  return eb.or([
    eb('plants.company_id', 'in', served),
    eb('plants.owner_user_id', 'in', eb.selectFrom('users').select('users.id').where('users.agent_company_id', 'in', served)),
  ]);
}

function sharedWith(eb: PlantsEb, userId: number, roles: ShareRole[]) {
  return eb(
    'plants.id',
    'in',
    eb
      .selectFrom('plant_shares')
      .select('plant_shares.plant_id')
      .where('plant_shares.user_id', '=', userId)
      .where('plant_shares.role', 'in', roles),
  );
}

/** Plants the caller can see (not deleted). Use as `.where((eb) => plantsVisible(eb, caller))`. */
export function plantsVisible(eb: PlantsEb, caller: Caller) {
  const { user } = caller;
  const alive = eb('plants.deleted_at', 'is', null);
  if (user.kind === 'sysadmin') return alive;
  const reach = [eb('plants.owner_user_id', '=', user.id), sharedWith(eb, user.id, ['manager', 'visitor'])];
  if ((user.kind === 'company_admin' || user.kind === 'company_user') && user.company_id)
    reach.push(companyReach(eb, user.company_id));
  return eb.and([alive, eb.or(reach)]);
}

/** Plants the caller can change or command. */
export function plantsOperable(eb: PlantsEb, caller: Caller) {
  const { user } = caller;
  const alive = eb('plants.deleted_at', 'is', null);
  if (user.read_only) return eb.and([alive, sql<boolean>`1 = 0`]);
  if (user.kind === 'sysadmin') return alive;
  const reach = [eb('plants.owner_user_id', '=', user.id), sharedWith(eb, user.id, ['manager'])];
  if ((user.kind === 'company_admin' || user.kind === 'company_user') && user.company_id)
    reach.push(companyReach(eb, user.company_id));
  return eb.and([alive, eb.or(reach)]);
}

/** Plants the caller owns outright (share, transfer, delete). */
export function plantsOwned(eb: PlantsEb, caller: Caller) {
  const alive = eb('plants.deleted_at', 'is', null);
  if (caller.user.read_only) return eb.and([alive, sql<boolean>`1 = 0`]);
  return eb.and([alive, eb('plants.owner_user_id', '=', caller.user.id)]);
}
