/** SQL for a company's accounts: the list with role names, one account, the columns the audit log keeps. */
import type { Db } from '../../db/index.ts';
import type { User } from '../../db/schema.ts';
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
