/**
 * Plant transfer as a request. The owner (owner rights: the owner, or for a company plant the
 * company's users who operate it) asks with their own password (108 when wrong, nothing written);
 * the target account must exist and be enabled (4), not be the caller (207), and the plant may
 * have one pending request at a time (704). The recipient accepts or declines; the requester, anyone
 * with owner rights on the plant, or the recipient may cancel while it is pending; it lapses after
 * `limits.plantTransferDays` days. Only acceptance moves the plant (transfers.repo.ts `movePlant`),
 * in the transaction that closes the request. Every step is in the administrative audit log and
 * mailed to the other side in their language; a mail that fails is logged, the step stands.
 */
import { ErrorCode, limits, toLanguage } from '@sunfleet/contracts';
import type { Caller } from '../../access/caller.ts';
import { plantFor } from '../../access/resolve.ts';
import { recordAdminChange } from '../../audit/admin.ts';
import type { Db } from '../../db/index.ts';
import { now } from '../../db/index.ts';
import { fail } from '../../http/errors.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { plantTransferMail, type TransferMailKind } from '../../mail/plant-transfer.ts';
import { verifyPassword } from '../auth/passwords.ts';
import { isUniqueViolation } from '../gateway-stock/stock.repo.ts';
import { targetAccount } from './accounts.ts';
import { plantsChanged } from './list.ts';
import * as repo from './transfers.repo.ts';

const TTL_MS = limits.plantTransferDays * 24 * 60 * 60 * 1000;

export interface TransferDeps {
  db: Db;
  mailer: Mailer;
  portalUrl: string | null;
  onMailError: (err: unknown) => void;
}

type Side = 'from' | 'to';

async function mail(deps: TransferDeps, r: repo.TransferRow, sends: Array<[Side, TransferMailKind]>) {
  const sent = await Promise.allSettled(
    sends.map(([side, kind]) =>
      deps.mailer.send(
        plantTransferMail(
          side === 'from' ? r.from_account : r.to_account,
          toLanguage(side === 'from' ? r.from_language : r.to_language),
          kind,
          {
            plantName: r.plant_name,
            other: side === 'from' ? r.to_account : r.from_account,
            id: r.id,
            days: limits.plantTransferDays,
            portalUrl: deps.portalUrl,
          },
        ),
      ),
    ),
  );
  for (const s of sent) if (s.status === 'rejected') deps.onMailError(s.reason);
}

const auditOf = (r: repo.TransferRow, status: repo.TransferStatus) => ({
  plantId: r.plant_id,
  plantName: r.plant_name,
  from: r.from_account,
  to: r.to_account,
  status,
});

export async function requestTransfer(deps: TransferDeps, caller: Caller, plantId: number, account: string, password: string) {
  const { db } = deps;
  const plant = await plantFor(db, caller, plantId, 'manage');
  if (!(await verifyPassword(caller.user.password_hash, password))) fail(ErrorCode.oldPasswordWrong);
  const target = await targetAccount(db, account, 'query.account');
  if (target.id === caller.user.id) fail(ErrorCode.already);
  const t = now();
  let id: number;
  try {
    id = await db.transaction().execute(async (trx) => {
      await repo.expireStale(trx, plantId, t);
      const made = await repo.insertTransfer(
        trx,
        {
          plantId,
          fromUserId: caller.user.id,
          toUserId: target.id,
          ownerUserId: plant.ownerUserId,
          companyId: plant.companyId,
        },
        t,
        TTL_MS,
      );
      const row = (await repo.transferById(trx, made))!;
      await recordAdminChange(
        trx,
        {
          actorUserId: caller.user.id,
          companyId: plant.companyId,
          entity: 'plant_transfer',
          entityId: made,
          action: 'request',
          after: auditOf(row, 'pending'),
        },
        t,
      );
      return made;
    });
  } catch (err) {
    // The partial unique index allows one pending request per plant.
    if (isUniqueViolation(err)) return fail(ErrorCode.transferPending);
    throw err;
  }
  const row = (await repo.transferById(db, id))!;
  await mail(deps, row, [
    ['to', 'offered'],
    ['from', 'requested'],
  ]);
  return repo.toTransfer(row, t);
}

export async function listTransfers(db: Db, caller: Caller) {
  const t = now();
  const [offered, sent] = await Promise.all([
    repo.pendingFor(db, caller.user.id, 'to', t),
    repo.pendingFor(db, caller.user.id, 'from', t),
  ]);
  return { offered: offered.map((r) => repo.toTransfer(r, t)), sent: sent.map((r) => repo.toTransfer(r, t)) };
}

/** The request if the caller is a party to it (404 otherwise, as if it did not exist). */
async function partyOf(db: Db, caller: Caller, id: number) {
  const r = await repo.transferById(db, id);
  if (!r) return fail(ErrorCode.notFound);
  if (r.from_user_id === caller.user.id || r.to_user_id === caller.user.id) return r;
  // Someone else with owner rights on the plant may withdraw it too.
  try {
    await plantFor(db, caller, r.plant_id, 'manage');
  } catch {
    return fail(ErrorCode.notFound);
  }
  return r;
}

type Answer = 'accepted' | 'declined' | 'cancelled';
const actionOf = { accepted: 'accept', declined: 'decline', cancelled: 'cancel' } as const;

async function close(deps: TransferDeps, caller: Caller, r: repo.TransferRow, status: Answer) {
  const { db } = deps;
  const t = now();
  if (repo.statusAt(r, t) !== 'pending') fail(ErrorCode.transferClosed);
  await db.transaction().execute(async (trx) => {
    if (!(await repo.closeTransfer(trx, r.id, status, caller.user.id, t))) fail(ErrorCode.transferClosed);
    if (status === 'accepted' && !((await repo.requesterStillHolds(trx, r)) && (await repo.movePlant(trx, r, t))))
      fail(ErrorCode.transferClosed);
    await recordAdminChange(
      trx,
      {
        actorUserId: caller.user.id,
        companyId: r.company_id,
        entity: 'plant_transfer',
        entityId: r.id,
        action: actionOf[status],
        before: auditOf(r, 'pending'),
        after: auditOf(r, status),
      },
      t,
    );
  });
  if (status === 'accepted') plantsChanged();
  const toOther: Side = caller.user.id === r.to_user_id ? 'from' : 'to';
  await mail(deps, r, [[toOther, status]]);
  return repo.toTransfer({ ...r, status }, t);
}

/** Only the recipient answers; the requester gets 2 (they may cancel instead). */
async function answer(deps: TransferDeps, caller: Caller, id: number, status: 'accepted' | 'declined') {
  const r = await partyOf(deps.db, caller, id);
  if (r.to_user_id !== caller.user.id) fail(ErrorCode.noPermission);
  return close(deps, caller, r, status);
}

export const acceptTransfer = (deps: TransferDeps, caller: Caller, id: number) => answer(deps, caller, id, 'accepted');
export const declineTransfer = (deps: TransferDeps, caller: Caller, id: number) => answer(deps, caller, id, 'declined');
export async function cancelTransfer(deps: TransferDeps, caller: Caller, id: number) {
  return close(deps, caller, await partyOf(deps.db, caller, id), 'cancelled');
}
