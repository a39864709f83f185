/** The account a share or transfer names: it must exist (4) and be enabled (101). */
import type { Db } from '../../db/index.ts';
import { fail } from '../../http/errors.ts';

export async function targetAccount(db: Db, account: string, field: string) {
  const user = await db
    .selectFrom('users')
    .select(['id', 'account', 'nickname', 'kind', 'language', 'enabled'])
    .where('account', '=', account.trim().toLowerCase())
    .executeTakeFirst();
  if (!user) return fail(4, `${field}: no such account`);
  if (!user.enabled) return fail(101);
  return user;
}
