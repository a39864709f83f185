/**
 * Company role rules: roles belong to the caller's company; at most 5 (800); names unique in
 * the company (801); a role grants only what the company holds (the rest is refused, code 2);
 * nobody changes or deletes the role they hold themselves (803); a role company users hold is
 * deleted only with the role they move to, in the same transaction. Every change is recorded in
 * the audit log inside its transaction.
 */
import { ErrorCode, isPermissionName, limits } from '@sunfleet/contracts';
import type { Caller } from '../../access/caller.ts';
import { companyHolds } from '../../access/grants.ts';
import { recordAdminChange } from '../../audit/admin.ts';
import type { Db } from '../../db/index.ts';
import { now, parseJson } from '../../db/index.ts';
import { fail } from '../../http/errors.ts';
import { iso } from '../../time/index.ts';
import * as repo from './roles.repo.ts';
import { countRoles, roleNamed } from './roles.repo.ts';

type RoleRow = { id: number; name: string; permissions: string; created_at: number; users: number | string };
const toRole = (r: RoleRow) => ({
  id: r.id,
  name: r.name,
  permissions: parseJson<string[]>(r.permissions, []),
  users: Number(r.users),
  createdAt: iso(r.created_at)!,
});

/** The caller's company; an account without one (system administrators, owners) has no roles to manage. */
function companyOf(caller: Caller): number {
  const id = caller.user.company_id;
  if (!id) return fail(ErrorCode.noPermission);
  return id;
}

export async function listRoles(db: Db, caller: Caller) {
  return (await repo.companyRoles(db, companyOf(caller))).map(toRole);
}

export async function getRole(db: Db, caller: Caller, id: number) {
  const row = await repo.companyRole(db, companyOf(caller), id);
  if (!row) return fail(ErrorCode.notFound);
  return toRole(row);
}

export async function checkRoleName(db: Db, caller: Caller, name: string, exceptId?: number) {
  const taken = await roleNamed(db, companyOf(caller), name.trim());
  if (taken && taken.id !== exceptId) fail(ErrorCode.roleExists);
}

async function grantable(db: Db, companyId: number, permissions: string[]) {
  const held = await companyHolds(db, companyId);
  const unique = [...new Set(permissions)];
  if (unique.some((p) => !isPermissionName(p) || !held.has(p)))
    fail(ErrorCode.noPermission, 'a role may grant only what the company holds');
  return unique;
}

export async function addRole(db: Db, caller: Caller, input: { name: string; permissions: string[] }) {
  const companyId = companyOf(caller);
  const name = input.name.trim();
  const permissions = await grantable(db, companyId, input.permissions);
  const id = await db.transaction().execute(async (trx) => {
    if ((await countRoles(trx, companyId)) >= limits.rolesPerCompany) fail(ErrorCode.roleLimit);
    if (await roleNamed(trx, companyId, name)) fail(ErrorCode.roleExists);
    const t = now();
    const row = { id: await repo.insertRole(trx, companyId, name, JSON.stringify(permissions), t) };
    await recordAdminChange(
      trx,
      {
        actorUserId: caller.user.id,
        companyId,
        entity: 'role',
        entityId: row.id,
        action: 'create',
        after: { name, permissions },
      },
      t,
    );
    return row.id;
  });
  return getRole(db, caller, id);
}

export async function editRole(db: Db, caller: Caller, id: number, input: { name: string; permissions: string[] }) {
  const companyId = companyOf(caller);
  const before = await getRole(db, caller, id);
  if (caller.user.role_id === id) fail(ErrorCode.ownRoleLocked);
  const name = input.name.trim();
  await checkRoleName(db, caller, name, id);
  const permissions = await grantable(db, companyId, input.permissions);
  const t = now();
  await db.transaction().execute(async (trx) => {
    const clash = await roleNamed(trx, companyId, name);
    if (clash && clash.id !== id) fail(ErrorCode.roleExists);
    await repo.updateRole(trx, companyId, id, name, JSON.stringify(permissions));
    await recordAdminChange(
      trx,
      {
        actorUserId: caller.user.id,
        companyId,
        entity: 'role',
        entityId: id,
        action: 'edit',
        before: { name: before.name, permissions: before.permissions },
        after: { name, permissions },
      },
      t,
    );
  });
  return getRole(db, caller, id);
}

/**
 * Delete a role. Its users move to `moveTo` (another role of the company) in the same
 * transaction; a role in use without `moveTo` is refused (4) and nothing changes.
 */
export async function deleteRole(db: Db, caller: Caller, id: number, moveTo?: number) {
  const companyId = companyOf(caller);
  const role = await getRole(db, caller, id);
  if (caller.user.role_id === id) fail(ErrorCode.ownRoleLocked);
  if (moveTo !== undefined) {
    if (moveTo === id) fail(ErrorCode.validation, 'body.moveTo must be another role');
    await getRole(db, caller, moveTo);
  }
  const t = now();
  await db.transaction().execute(async (trx) => {
    const holders = await repo.roleHolders(trx, companyId, id);
    if (holders.length > 0 && moveTo === undefined)
      fail(ErrorCode.validation, `body.moveTo is required: ${holders.length} users hold this role`);
    if (holders.length > 0) await repo.moveRoleHolders(trx, id, moveTo!, t);
    await repo.deleteRoleRow(trx, companyId, id);
    await recordAdminChange(
      trx,
      {
        actorUserId: caller.user.id,
        companyId,
        entity: 'role',
        entityId: id,
        action: 'delete',
        before: { name: role.name, permissions: role.permissions, users: holders.map((h) => h.id) },
        after: holders.length > 0 ? { usersMovedTo: moveTo } : undefined,
      },
      t,
    );
  });
  return null;
}
