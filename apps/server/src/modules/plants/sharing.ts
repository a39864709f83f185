/**
 * Sharing: only the owner shares, and only as manager or visitor; never with
 * oneself (701) or a company account (702), never a company plant (703). Sharing again changes
 * the role. Shares are read on every request (access/scopes.ts), so ending one takes effect on
 * the sharee's next request.
 */

import { ErrorCode } from '@sunfleet/contracts';
import type { Caller } from '../../access/caller.ts';
import { plantFor } from '../../access/resolve.ts';
import type { Db } from '../../db/index.ts';
import { now } from '../../db/index.ts';
import type { ShareRole } from '../../db/schema.ts';
import { fail } from '../../http/errors.ts';
import { iso } from '../../time/index.ts';
import { targetAccount } from './accounts.ts';
import { plantsChanged } from './list.ts';
import { deleteShare, type ShareRow, shareOf, sharesOfPlant, upsertShare } from './plants.repo.ts';

const toShareUser = (r: ShareRow) => ({ userId: r.user_id, account: r.account, role: r.role, sharedAt: iso(r.created_at)! });

export async function sharePlant(db: Db, caller: Caller, plantId: number, input: { account: string; role: ShareRole }) {
  const plant = await plantFor(db, caller, plantId, 'manage');
  if (plant.companyId !== null) fail(ErrorCode.shareCompanyPlant);
  const target = await targetAccount(db, input.account, 'body.account');
  if (target.id === caller.user.id || target.id === plant.ownerUserId) fail(ErrorCode.shareSelf);
  if (target.kind === 'company_admin' || target.kind === 'company_user') fail(ErrorCode.shareCompanyUser);
  await upsertShare(db, plantId, target.id, input.role, now());
  plantsChanged();
  const made = await shareOf(db, plantId, target.id);
  return { account: made.account, role: made.role, sharedAt: iso(made.created_at)! };
}

export async function shareUsers(db: Db, caller: Caller, plantId: number) {
  await plantFor(db, caller, plantId, 'manage');
  return (await sharesOfPlant(db, plantId)).map(toShareUser);
}

/** The owner ends anyone's share; a sharee may end their own. */
export async function cancelShare(db: Db, caller: Caller, plantId: number, userId: number) {
  await plantFor(db, caller, plantId, userId === caller.user.id ? 'view' : 'manage');
  await deleteShare(db, plantId, userId);
  plantsChanged();
  return null;
}
