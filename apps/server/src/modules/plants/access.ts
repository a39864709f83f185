/**
 * A plant id from a request, through the scopes of access/scopes.ts: a plant the caller cannot
 * see answers 700 (as if it did not exist); one the caller sees but may not change answers 2.
 * "Manage" is the owner's rights (delete, share, transfer): the owner, or for a company plant
 * the users of that company who can operate it. Managers, visitors and agents never manage.
 */
import type { Caller } from '../../access/caller.ts';
import { plantsOperable, plantsOwned, plantsVisible } from '../../access/scopes.ts';
import type { Db } from '../../db/index.ts';
import { fail } from '../../http/errors.ts';

export interface PlantAccess {
  id: number;
  ownerUserId: number | null;
  companyId: number | null;
  canEdit: boolean;
  canManage: boolean;
}

export type Need = 'view' | 'edit' | 'manage';

export async function plantAccess(db: Db, caller: Caller, id: number, need: Need = 'view'): Promise<PlantAccess> {
  const row = await db
    .selectFrom('plants')
    .select((eb) => [
      'plants.id',
      'plants.owner_user_id',
      'plants.company_id',
      eb.case().when(plantsOperable(eb, caller)).then(1).else(0).end().as('operable'),
      eb.case().when(plantsOwned(eb, caller)).then(1).else(0).end().as('owned'),
    ])
    .where((eb) => plantsVisible(eb, caller))
    .where('plants.id', '=', id)
    .executeTakeFirst();
  if (!row) return fail(700);
  const canEdit = Number(row.operable) === 1;
  const companyPlantOfCaller = row.company_id !== null && row.company_id === caller.user.company_id;
  const access: PlantAccess = {
    id: row.id,
    ownerUserId: row.owner_user_id,
    companyId: row.company_id,
    canEdit,
    canManage: Number(row.owned) === 1 || (canEdit && companyPlantOfCaller),
  };
  if (need === 'edit' && !access.canEdit) fail(2);
  if (need === 'manage' && !access.canManage) fail(2);
  return access;
}
