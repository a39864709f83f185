/** First start: create the first system administrator, from env or with a random password printed once. */
import { randomBytes } from 'node:crypto';
import type { Config } from '../config.ts';
import type { Db } from '../db/index.ts';
import { now } from '../db/index.ts';
import { hashPassword } from '../modules/auth/passwords.ts';

export async function ensureAdmin(db: Db, config: Config): Promise<{ account: string; password: string | null } | null> {
  const existing = await db.selectFrom('users').select('id').where('kind', '=', 'sysadmin').executeTakeFirst();
  if (existing) return null;
  const account = (config.adminEmail ?? 'admin@sunfleet.local').toLowerCase();
  const password = config.adminPassword ?? randomBytes(9).toString('base64url').slice(0, 12);
  const t = now();
  const made = await db
    .insertInto('users')
    .values({
      account,
      password_hash: await hashPassword(password, config.passwordCost),
      kind: 'sysadmin',
      nickname: 'Administrator',
      created_at: t,
      updated_at: t,
    })
    // Two processes starting together on an empty store: one makes the administrator.
    .onConflict((oc) => oc.column('account').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!made) return null;
  return { account, password: config.adminPassword ? null : password };
}
