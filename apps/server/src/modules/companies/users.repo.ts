/** SQL for a company's accounts: the list with role names, one account, the columns the audit log keeps. */
import type { Insertable, Updateable } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { User, UsersTable } from '../../db/schema.ts';
import { containsText } from '../../db/search.ts';
import { iso } from '../../time/index.ts';

export function companyUsers(db: Db, companyId: number) {
  return db
    .selectFrom('users')
    .leftJoin('company_roles', 'company_roles.id', 'users.role_id')
    .select([
      'users.id',
      'users.account',
      'users.kind',
      'users.name',
      'users.nickname',
      'users.phone',
      'users.gender',
      'users.avatar',
      'users.role_id',
      'users.enabled',
      'users.created_at',
      'company_roles.name as role_name',
    ])
    .where('users.company_id', '=', companyId)
    .where('users.kind', 'in', ['company_admin', 'company_user']);
}

type Row = Awaited<ReturnType<ReturnType<typeof companyUsers>['executeTakeFirstOrThrow']>>;

export const toCompanyUser = (r: Row) => ({
  id: r.id,
  account: r.account,
  kind: r.kind as 'company_admin' | 'company_user',
  name: r.name,
  nickname: r.nickname,
  phone: r.phone,
  gender: r.gender,
  avatar: r.avatar,
  roleId: r.role_id,
  roleName: r.role_name ?? null,
  enabled: Boolean(r.enabled),
  createdAt: iso(r.created_at)!,
});

/** What the audit log keeps of an account: never its password hash or tokens. */
export const auditedUser = (
  u: Pick<User, 'account' | 'kind' | 'name' | 'nickname' | 'phone' | 'gender' | 'role_id' | 'enabled' | 'company_id'>,
) => ({
  account: u.account,
  kind: u.kind,
  name: u.name,
  nickname: u.nickname,
  phone: u.phone,
  gender: u.gender,
  roleId: u.role_id,
  enabled: Boolean(u.enabled),
  companyId: u.company_id,
});

/** A page of the company's accounts, newest first, with a keyword or a role; and how many match. */
export async function companyUserPage(
  db: Db,
  companyId: number,
  f: { keyword?: string | undefined; roleId?: number | undefined },
  page: number,
  size: number,
) {
  let q = companyUsers(db, companyId);
  if (f.keyword) q = q.where(containsText(['users.account', 'users.name', 'users.nickname'], f.keyword));
  if (f.roleId) q = q.where('users.role_id', '=', f.roleId);
  const total = Number(
    (
      await q
        .clearSelect()
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
  const rows = await q
    .orderBy('users.created_at', 'desc')
    .orderBy('users.id', 'desc')
    .limit(size)
    .offset((page - 1) * size)
    .execute();
  return { total, rows };
}

export const companyUserById = (db: Db, companyId: number, id: number) =>
  companyUsers(db, companyId).where('users.id', '=', id).executeTakeFirst();

/** The company an account belongs to, if the account exists. */
export const accountCompany = (db: Db, account: string) =>
  db.selectFrom('users').select(['company_id']).where('account', '=', account).executeTakeFirst();

export async function roleInCompany(db: Db, companyId: number, roleId: number): Promise<boolean> {
  const role = await db
    .selectFrom('company_roles')
    .select('id')
    .where('id', '=', roleId)
    .where('company_id', '=', companyId)
    .executeTakeFirst();
  return !!role;
}

export const insertCompanyUser = (trx: Db, values: Omit<Insertable<UsersTable>, 'id'>) =>
  trx.insertInto('users').values(values).returningAll().executeTakeFirstOrThrow();

export const updateUserRow = (trx: Db, id: number, set: Updateable<UsersTable>) =>
  trx.updateTable('users').set(set).where('id', '=', id).returningAll().executeTakeFirstOrThrow();

/** The company's account row as it stands inside the changing transaction (the audit's "before"). */
export const companyUserRow = (trx: Db, companyId: number, id: number) =>
  trx.selectFrom('users').selectAll().where('id', '=', id).where('company_id', '=', companyId).executeTakeFirst();
