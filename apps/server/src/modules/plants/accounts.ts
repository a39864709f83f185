/**
 * The account a share or transfer names: it must exist and be enabled, else 4 "no such account"
 * (a disabled account answers like a missing one: the caller learns found or not found, nothing more).
 */

import { ErrorCode } from '@sunfleet/contracts';
import type { Db } from '../../db/index.ts';
import { fail } from '../../http/errors.ts';
import { accountByName } from './plants.repo.ts';

export async function targetAccount(db: Db, account: string, field: string) {
  const user = await accountByName(db, account);
  if (!user?.enabled) return fail(ErrorCode.validation, `${field}: no such account`);
  return user;
}
