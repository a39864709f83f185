/** SQL for one's own account: the user row, and what the profile shows beside it. */
import type { Updateable } from 'kysely';
import type { Db } from '../../db/index.ts';
import { now } from '../../db/index.ts';
import type { UsersTable } from '../../db/schema.ts';

/** Changes columns of a user row and stamps `updated_at`. */
export async function updateUser(db: Db, userId: number, set: Omit<Updateable<UsersTable>, 'id' | 'updated_at'>) {
  await db
    .updateTable('users')
    .set({ ...set, updated_at: now() })
    .where('id', '=', userId)
    .execute();
}

export const userById = (db: Db, userId: number) =>
  db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();

export const companyOfProfile = (db: Db, companyId: number) =>
  db
    .selectFrom('companies')
    .select(['id', 'name', 'logo_url', 'icon_url', 'theme_color'])
    .where('id', '=', companyId)
    .executeTakeFirst();

export const roleName = (db: Db, roleId: number) =>
  db.selectFrom('company_roles').select('name').where('id', '=', roleId).executeTakeFirst();
