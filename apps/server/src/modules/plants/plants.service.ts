/**
 * Plant create, read, edit and delete. Who: create needs station.create (an end
 * user's plant is theirs; a company account's plant is a company plant); edit needs a plant the
 * caller operates (owner, manager, company reach, system administrator); delete needs owner
 * rights. A plant the caller cannot see answers 700, one they may not change answers 2.
 */
import { type BodyOf, ErrorCode, type plantsApi } from '@sunfleet/contracts';
import type { Caller } from '../../access/caller.ts';
import { plantFor } from '../../access/resolve.ts';
import type { Db } from '../../db/index.ts';
import { now } from '../../db/index.ts';
import { refreshPlantSummary } from '../../energy/plant-summary.ts';
import { fail } from '../../http/errors.ts';
import { removeImage } from '../users/avatar.ts';
import { bindClaimed } from './gateway-binding.ts';
import { plantsChanged } from './list.ts';
import { pictureInUse } from './pictures.repo.ts';
import { takePictures } from './pictures.ts';
import * as repo from './plants.repo.ts';
import { type PlantDetail, plantDetail } from './plants.repo.ts';
import { type PlantFields, plantColumns } from './rules.ts';

type CreateInput = BodyOf<typeof plantsApi.createPlant>;

export async function getPlant(db: Db, caller: Caller, id: number): Promise<PlantDetail> {
  return (await plantDetail(db, caller, id)) ?? fail(ErrorCode.plantMissing);
}

export async function createPlant(db: Db, caller: Caller, input: CreateInput): Promise<PlantDetail> {
  const { gateway, ...fields } = input;
  // Binding at creation is binding: it needs what `POST plant/{id}/gateway` needs.
  if (gateway && !caller.grants.has('station.gateway')) fail(ErrorCode.noPermission);
  const columns = plantColumns(fields, null);
  const { user } = caller;
  const companyPlant = (user.kind === 'company_admin' || user.kind === 'company_user') && user.company_id !== null;
  const t = now();
  const id = await db.transaction().execute(async (trx) => {
    await takePictures(trx, user.id, [columns.picture_url, columns.thumbnail_url]);
    const row = {
      id: await repo.insertPlant(trx, {
        ...columns,
        name: columns.name!,
        owner_user_id: companyPlant ? null : user.id,
        company_id: companyPlant ? user.company_id : null,
        created_at: t,
        updated_at: t,
      }),
    };
    if (gateway) await bindClaimed(trx, gateway, row.id);
    return row.id;
  });
  plantsChanged();
  if (gateway) await refreshPlantSummary(db, [id]);
  return getPlant(db, caller, id);
}

/** Any edit call: `fields` holds only what that call may change (the schema closes each section). */
export async function editPlant(db: Db, caller: Caller, id: number, fields: PlantFields, dataDir: string): Promise<PlantDetail> {
  await plantFor(db, caller, id, 'operate');
  const stored = await repo.editablePlant(db, id);
  const columns = plantColumns(fields, stored);
  if (Object.keys(columns).length > 0) {
    await db.transaction().execute(async (trx) => {
      const current = [stored.picture_url, stored.thumbnail_url];
      await takePictures(trx, caller.user.id, [columns.picture_url, columns.thumbnail_url], current);
      await repo.updatePlant(trx, id, { ...columns, updated_at: now() });
    });
    plantsChanged();
    for (const [column, before] of [
      ['picture_url', stored.picture_url],
      ['thumbnail_url', stored.thumbnail_url],
    ] as const) {
      if (columns[column] !== undefined && columns[column] !== before) await removeIfUnused(db, dataDir, before);
    }
  }
  return getPlant(db, caller, id);
}

/** A replaced picture file goes once no plant refers to it (as picture or thumbnail). */
async function removeIfUnused(db: Db, dataDir: string, url: string | null) {
  if (!url) return;
  const used = await pictureInUse(db, url);
  if (!used) await removeImage(dataDir, 'plants', url);
}

/**
 * Delete (soft): the plant disappears for everyone; its gateways and devices are unbound so
 * they can be bound again; shares end. Day rollups and events stay in the store under the id.
 */
export async function deletePlant(db: Db, caller: Caller, id: number) {
  await plantFor(db, caller, id, 'manage');
  const t = now();
  await db.transaction().execute(async (trx) => {
    await repo.softDeletePlant(trx, id, t);
  });
  plantsChanged();
  return null;
}
