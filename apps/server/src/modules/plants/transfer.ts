/**
 * Transfer (`plant/{id}/transfer?account=`): owner rights only; the target account must
 * exist and be enabled (else 4, naming the field); transferring to oneself answers 207
 * ("already"). The plant becomes the target's own plant (a company plant stops being one);
 * its gateways, devices, day rollups and events reference the plant, so they move with it;
 * every share ends. Both parties are mailed, each in their language.
 */
import { toLanguage } from '@sunfleet/contracts';
import type { Caller } from '../../access/caller.ts';
import { plantFor } from '../../access/resolve.ts';
import type { Db } from '../../db/index.ts';
import { now } from '../../db/index.ts';
import { fail } from '../../http/errors.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { targetAccount } from './accounts.ts';
import { plantsChanged } from './list.ts';
import { transferMail } from './transfer-mail.ts';

/** A mail that fails is logged (`onMailError`); the transfer has happened and stays. */
export async function transferPlant(
  db: Db,
  mailer: Mailer,
  caller: Caller,
  plantId: number,
  account: string,
  onMailError: (err: unknown) => void,
) {
  await plantFor(db, caller, plantId, 'manage');
  const target = await targetAccount(db, account, 'query.account');
  if (target.id === caller.user.id) fail(207);
  const plant = await db.selectFrom('plants').select(['name']).where('id', '=', plantId).executeTakeFirstOrThrow();
  const t = now();
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('plants')
      .set({ owner_user_id: target.id, company_id: null, updated_at: t })
      .where('id', '=', plantId)
      .execute();
    await trx.deleteFrom('plant_shares').where('plant_id', '=', plantId).execute();
  });
  plantsChanged();
  const from = caller.user;
  const sent = await Promise.allSettled([
    mailer.send(transferMail(from.account, toLanguage(from.language), 'from', plant.name, target.account)),
    mailer.send(transferMail(target.account, toLanguage(target.language), 'to', plant.name, from.account)),
  ]);
  for (const s of sent) if (s.status === 'rejected') onMailError(s.reason);
  return null;
}
