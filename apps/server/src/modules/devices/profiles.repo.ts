/** SQL of each account's saved parameter profiles. */
import type { Db } from '../../db/index.ts';

export const profilesOf = (db: Db, userId: number) =>
  db
    .selectFrom('parameter_profiles')
    .select(['id', 'name', 'params', 'updated_at'])
    .where('user_id', '=', userId)
    .orderBy('position')
    .orderBy('id')
    .execute();

/** Replace the account's profiles with these, in this order. */
export async function replaceProfiles(trx: Db, userId: number, profiles: { name: string; params: string[] }[], t: number) {
  await trx.deleteFrom('parameter_profiles').where('user_id', '=', userId).execute();
  if (profiles.length > 0) {
    await trx
      .insertInto('parameter_profiles')
      .values(
        profiles.map((p, position) => ({
          user_id: userId,
          position,
          name: p.name,
          params: JSON.stringify(p.params),
          created_at: t,
          updated_at: t,
        })),
      )
      .execute();
  }
}
