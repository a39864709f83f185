/** SQL of the maintenance functions catalogue (`logger_functions`). */
import type { Updateable } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { LoggerFunctionsTable } from '../../db/schema.ts';

/** Every function's id, name and code. */
export const functionNames = (db: Db) => db.selectFrom('logger_functions').select(['id', 'name', 'code']).execute();

/** The functions by name; only the enabled ones unless `all`. */
export function functionsByName(db: Db, all: boolean) {
  let q = db.selectFrom('logger_functions').selectAll().orderBy('name');
  if (!all) q = q.where('enabled', '=', 1);
  return q.execute();
}

export const functionById = (db: Db, id: number) =>
  db.selectFrom('logger_functions').selectAll().where('id', '=', id).executeTakeFirst();

export async function functionExists(db: Db, id: number): Promise<boolean> {
  return !!(await db.selectFrom('logger_functions').select('id').where('id', '=', id).executeTakeFirst());
}

type Values = Updateable<LoggerFunctionsTable> & {
  name: string;
  code: string;
  description_en: string;
  description_es: string;
  enabled: number;
  updated_at: number;
};

export const updateFunction = (trx: Db, id: number, values: Values) =>
  trx.updateTable('logger_functions').set(values).where('id', '=', id).execute();

export async function insertFunction(trx: Db, values: Values, createdAt: number): Promise<number> {
  const row = await trx
    .insertInto('logger_functions')
    .values({ ...values, created_at: createdAt })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
