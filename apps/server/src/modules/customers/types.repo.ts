/** SQL for customer types (one level of subtypes). */
import type { Db } from '../../db/index.ts';
import { contains, count, typeRows } from './customers.repo.ts';

export const typeById = (db: Db, id: number) => typeRows(db).where('customer_types.id', '=', id).executeTakeFirst();

/** The subtypes of these types, by name. */
export const subtypesOf = (db: Db, parentIds: number[]) =>
  typeRows(db).where('customer_types.parent_id', 'in', parentIds).orderBy('customer_types.name').execute();

/** One page of top-level types (by name) whose name or a subtype's contains `name`, and how many match. */
export async function typePage(db: Db, name: string | undefined, page: number, size: number) {
  let base = db.selectFrom('customer_types').where('customer_types.parent_id', 'is', null);
  if (name?.trim()) {
    base = base.where((eb) =>
      eb.or([
        contains('customer_types.name', name),
        eb.exists(
          eb
            .selectFrom('customer_types as sub')
            .select('sub.id')
            .whereRef('sub.parent_id', '=', 'customer_types.id')
            .where(contains('sub.name', name)),
        ),
      ]),
    );
  }
  const total = await count(base.select((eb) => eb.fn.countAll<number>().as('n')));
  const ids = (
    await base
      .select('customer_types.id')
      .orderBy('customer_types.name')
      .orderBy('customer_types.id')
      .limit(size)
      .offset((page - 1) * size)
      .execute()
  ).map((r) => r.id);
  if (ids.length === 0) return { total, rows: [] };
  const rows = await typeRows(db)
    .where('customer_types.id', 'in', ids)
    .orderBy('customer_types.name')
    .orderBy('customer_types.id')
    .execute();
  return { total, rows };
}

export const allTypes = (db: Db) =>
  db.selectFrom('customer_types').select(['id', 'name', 'parent_id']).orderBy('name').orderBy('id').execute();

export const typeParent = (db: Db, id: number) =>
  db.selectFrom('customer_types').select(['id', 'parent_id']).where('id', '=', id).executeTakeFirst();

export const subtypeCount = (db: Db, id: number) =>
  count(
    db
      .selectFrom('customer_types')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('parent_id', '=', id),
  );

export interface TypeFields {
  name: string;
  remark: string | null;
  parent_id: number | null;
  permissions: string;
}

export async function insertType(db: Db, fields: TypeFields, t: number): Promise<number> {
  const row = await db
    .insertInto('customer_types')
    .values({ ...fields, created_at: t })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export const updateType = (db: Db, id: number, fields: TypeFields) =>
  db.updateTable('customer_types').set(fields).where('id', '=', id).execute();

export const deleteTypeRow = (db: Db, id: number) => db.deleteFrom('customer_types').where('id', '=', id).execute();
