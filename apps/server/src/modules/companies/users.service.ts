/**
 * A company's accounts. Everything happens in the caller's company: an account of another
 * company (or none) answers 404. An account that exists answers 104, one already in a company
 * 106. Nobody changes their own role (803); the company administrator account is neither
 * re-roled nor taken out by this call (2). Taking an account out leaves it a plain account
 * without company rights and ends its sessions (its plants and history stay).
 */
import { type BodyOf, type companyApi, ErrorCode } from '@sunfleet/contracts';
import type { Caller } from '../../access/caller.ts';
import { recordAdminChange } from '../../audit/admin.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/index.ts';
import { now } from '../../db/index.ts';
import { fail } from '../../http/errors.ts';
import { hashPassword } from '../auth/passwords.ts';
import { revokeUserSessions } from '../auth/sessions.ts';
import { removeImage, storeImage } from '../users/avatar.ts';
import * as repo from './users.repo.ts';
import { auditedUser, toCompanyUser } from './users.repo.ts';

function companyOf(caller: Caller): number {
  return caller.user.company_id ?? fail(ErrorCode.noPermission);
}

export async function listUsers(
  db: Db,
  caller: Caller,
  query: { page?: number; size?: number; keyword?: string; roleId?: number },
) {
  const companyId = companyOf(caller);
  const page = query.page ?? 1;
  const size = query.size ?? 10;
  const { total, rows } = await repo.companyUserPage(
    db,
    companyId,
    { keyword: query.keyword?.trim(), roleId: query.roleId },
    page,
    size,
  );
  return { total, list: rows.map(toCompanyUser) };
}

export async function getUser(db: Db, caller: Caller, id: number) {
  const row = await repo.companyUserById(db, companyOf(caller), id);
  return row ? toCompanyUser(row) : fail(ErrorCode.notFound);
}

export async function checkAccount(db: Db, caller: Caller, account: string) {
  companyOf(caller);
  const found = await repo.accountCompany(db, account.toLowerCase());
  if (found?.company_id) fail(ErrorCode.accountInCompany);
  if (found) fail(ErrorCode.accountExists);
}

/** A role of the caller's company, or 404 as if it did not exist. */
async function roleOfCompany(db: Db, companyId: number, roleId: number | null | undefined) {
  if (roleId == null) return;
  if (!(await repo.roleInCompany(db, companyId, roleId))) fail(ErrorCode.notFound, 'roleId: no such role in the company');
}

export async function addUser(
  db: Db,
  config: Config,
  caller: Caller,
  fields: BodyOf<typeof companyApi.addUser>,
  avatar: Buffer | null,
) {
  const companyId = companyOf(caller);
  const account = fields.account.toLowerCase();
  await checkAccount(db, caller, account);
  await roleOfCompany(db, companyId, fields.roleId);
  let avatarUrl: string | null = null;
  if (avatar) {
    avatarUrl = await storeImage(config.dataDir, 'avatars', avatar, ['png', 'jpeg']);
    if (!avatarUrl) return fail(ErrorCode.validation, 'avatar: must be a JPG or PNG image');
  }
  const passwordHash = await hashPassword(fields.password, config.passwordCost);
  const t = now();
  try {
    const id = await db.transaction().execute(async (trx) => {
      // Checked again inside: another request may have taken the account meanwhile.
      const taken = await repo.accountCompany(trx, account);
      if (taken) fail(taken.company_id ? ErrorCode.accountInCompany : ErrorCode.accountExists);
      const row = await repo.insertCompanyUser(trx, {
        account,
        password_hash: passwordHash,
        kind: 'company_user',
        company_id: companyId,
        role_id: fields.roleId ?? null,
        name: fields.name?.trim() || null,
        nickname: fields.nickname?.trim() || null,
        phone: fields.phone?.trim() || null,
        gender: fields.gender ?? null,
        avatar: avatarUrl,
        created_at: t,
        updated_at: t,
      });
      await recordAdminChange(
        trx,
        { actorUserId: caller.user.id, companyId, entity: 'user', entityId: row.id, action: 'create', after: auditedUser(row) },
        t,
      );
      return row.id;
    });
    return getUser(db, caller, id);
  } catch (err) {
    await removeImage(config.dataDir, 'avatars', avatarUrl);
    throw err;
  }
}

export async function editUser(db: Db, caller: Caller, id: number, body: BodyOf<typeof companyApi.editUser>) {
  const companyId = companyOf(caller);
  const target = await getUser(db, caller, id);
  const changesRole = body.roleId !== undefined && body.roleId !== target.roleId;
  if (changesRole && id === caller.user.id) fail(ErrorCode.ownRoleLocked);
  if (target.kind === 'company_admin' && (changesRole || body.enabled === false))
    fail(ErrorCode.noPermission, 'the company administrator keeps its role');
  if (body.enabled === false && id === caller.user.id) fail(ErrorCode.noPermission, 'one cannot disable one’s own account');
  if (changesRole) await roleOfCompany(db, companyId, body.roleId);
  const t = now();
  await db.transaction().execute(async (trx) => {
    const before = (await repo.companyUserRow(trx, companyId, id)) ?? fail(ErrorCode.notFound);
    const after = await repo.updateUserRow(trx, id, {
      ...(body.name !== undefined ? { name: body.name?.trim() || null } : {}),
      ...(body.nickname !== undefined ? { nickname: body.nickname?.trim() || null } : {}),
      ...(body.phone !== undefined ? { phone: body.phone?.trim() || null } : {}),
      ...(body.gender !== undefined ? { gender: body.gender } : {}),
      ...(changesRole ? { role_id: body.roleId ?? null } : {}),
      ...(body.enabled !== undefined ? { enabled: body.enabled ? 1 : 0 } : {}),
      updated_at: t,
    });
    await recordAdminChange(
      trx,
      {
        actorUserId: caller.user.id,
        companyId,
        entity: 'user',
        entityId: id,
        action: 'edit',
        before: auditedUser(before!),
        after: auditedUser(after),
      },
      t,
    );
    if (body.enabled === false) await revokeUserSessions(trx, id);
  });
  return getUser(db, caller, id);
}

export async function deleteUser(db: Db, caller: Caller, id: number) {
  const companyId = companyOf(caller);
  const target = await getUser(db, caller, id);
  if (id === caller.user.id) fail(ErrorCode.noPermission, 'one cannot take oneself out of the company');
  if (target.kind === 'company_admin') fail(ErrorCode.noPermission, 'the company administrator stays in the company');
  const t = now();
  await db.transaction().execute(async (trx) => {
    const before = (await repo.companyUserRow(trx, companyId, id)) ?? fail(ErrorCode.notFound);
    const after = await repo.updateUserRow(trx, id, { company_id: null, role_id: null, kind: 'end_user', updated_at: t });
    await recordAdminChange(
      trx,
      {
        actorUserId: caller.user.id,
        companyId,
        entity: 'user',
        entityId: id,
        action: 'delete',
        before: auditedUser(before!),
        after: auditedUser(after),
      },
      t,
    );
    await revokeUserSessions(trx, id);
  });
  return null;
}
