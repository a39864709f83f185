/** SQL for accounts as sign-in, sign-up and password reset see them (addresses stored lower-case). */

import type { Language } from '@sunfleet/contracts';
import type { Db } from '../../db/index.ts';
import { now } from '../../db/index.ts';

export const userByAccount = (db: Db, account: string) =>
  db.selectFrom('users').selectAll().where('account', '=', account).executeTakeFirst();

export const accountId = (db: Db, account: string) =>
  db.selectFrom('users').select('id').where('account', '=', account).executeTakeFirst();

export const enabledOf = (db: Db, userId: number) =>
  db.selectFrom('users').select(['id', 'enabled']).where('id', '=', userId).executeTakeFirst();

/** A new owner account; the unique account column refuses a second row for one address. */
export async function insertEndUser(
  db: Db,
  input: { account: string; passwordHash: string; nickname: string | null; language: Language },
) {
  const t = now();
  const row = await db
    .insertInto('users')
    .values({
      account: input.account,
      password_hash: input.passwordHash,
      kind: 'end_user',
      nickname: input.nickname,
      language: input.language,
      created_at: t,
      updated_at: t,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function setPasswordHash(db: Db, userId: number, passwordHash: string) {
  await db.updateTable('users').set({ password_hash: passwordHash, updated_at: now() }).where('id', '=', userId).execute();
}
