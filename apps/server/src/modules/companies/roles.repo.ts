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

export const companyRoles = (db: Db, companyId: number) => rolesOf(db, companyId).execute();

export const companyRole = (db: Db, companyId: number, id: number) =>
  rolesOf(db, companyId).where('company_roles.id', '=', id).executeTakeFirst();

export async function insertRole(trx: Db, companyId: number, name: string, permissions: string, t: number): Promise<number> {
  const row = await trx
    .insertInto('company_roles')
    .values({ company_id: companyId, name, permissions, created_at: t })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export const updateRole = (trx: Db, companyId: number, id: number, name: string, permissions: string) =>
  trx.updateTable('company_roles').set({ name, permissions }).where('id', '=', id).where('company_id', '=', companyId).execute();

/** The company's accounts that hold the role. */
export const roleHolders = (trx: Db, companyId: number, id: number) =>
  trx.selectFrom('users').select('id').where('role_id', '=', id).where('company_id', '=', companyId).execute();

/** Move the role's holders to another role. */
export const moveRoleHolders = (trx: Db, from: number, to: number, t: number) =>
  trx.updateTable('users').set({ role_id: to, updated_at: t }).where('role_id', '=', from).execute();

export const deleteRoleRow = (trx: Db, companyId: number, id: number) =>
  trx.deleteFrom('company_roles').where('id', '=', id).where('company_id', '=', companyId).execute();
