/** SQL for company roles. */
import type { Db } from '../../db/index.ts';

export const roleColumns = [
  'company_roles.id',
  'company_roles.name',
  'company_roles.permissions',
  'company_roles.created_at',
] as const;

export function rolesOf(db: Db, companyId: number) {
  return db
    .selectFrom('company_roles')
    .leftJoin('users', 'users.role_id', 'company_roles.id')
    .select([...roleColumns, (eb) => eb.fn.count<number>('users.id').as('users')])
    .where('company_roles.company_id', '=', companyId)
    .groupBy(['company_roles.id', 'company_roles.name', 'company_roles.permissions', 'company_roles.created_at'])
    .orderBy('company_roles.id');
}

export const countRoles = async (db: Db, companyId: number) =>
  Number(
    (
      await db
        .selectFrom('company_roles')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('company_id', '=', companyId)
        .executeTakeFirstOrThrow()
    ).n,
  );

export const roleNamed = (db: Db, companyId: number, name: string) =>
  db.selectFrom('company_roles').select('id').where('company_id', '=', companyId).where('name', '=', name).executeTakeFirst();
