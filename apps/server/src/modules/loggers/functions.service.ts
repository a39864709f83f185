/**
 * The catalogue of maintenance functions operators offer on devices: a name (unique, 207 when
 * taken), a function code (unique, 5000 when taken), a description in English and Spanish, and
 * whether it is offered. Readers of the maintenance log list the enabled ones; the operator
 * (`logger.function.edit`) lists all, adds and edits.
 */
import { type DataOf, ErrorCode, type loggersApi } from '@sunfleet/contracts';
import type { Selectable } from 'kysely';
import type { Caller } from '../../access/caller.ts';
import { can } from '../../access/caller.ts';
import type { Db } from '../../db/index.ts';
import type { LoggerFunctionsTable } from '../../db/schema.ts';
import { fail } from '../../http/errors.ts';
import { iso } from '../../time/index.ts';
import * as repo from './functions.repo.ts';

type Fn = DataOf<typeof loggersApi.getFunction>;
type Input = { id?: number; name: string; code: string; descriptionEn: string; descriptionEs: string; enabled: boolean };

const toFunction = (r: Selectable<LoggerFunctionsTable>): Fn => ({
  id: r.id,
  name: r.name,
  code: r.code,
  descriptionEn: r.description_en,
  descriptionEs: r.description_es,
  enabled: Number(r.enabled) === 1,
  updatedAt: iso(r.updated_at)!,
});

/** Names compare without case or surrounding spaces. */
const sameName = (name: string) => name.trim().toLowerCase();

async function namedLike(db: Db, name: string) {
  const rows = await repo.functionNames(db);
  return rows.find((r) => sameName(r.name) === sameName(name));
}

export async function listFunctions(db: Db, caller: Caller, all: boolean) {
  return (await repo.functionsByName(db, all && can(caller, 'logger.function.edit'))).map(toFunction);
}

export async function getFunction(db: Db, id: number) {
  const row = await repo.functionById(db, id);
  if (!row) return fail(ErrorCode.notFound);
  return toFunction(row);
}

export async function checkFunctionName(db: Db, name: string, exceptId?: number) {
  const taken = await namedLike(db, name);
  if (taken && taken.id !== exceptId) fail(ErrorCode.already, 'name: another maintenance function has this name');
}

export async function saveFunction(db: Db, input: Input) {
  const name = input.name.trim();
  const code = input.code.trim();
  if (name === '') fail(ErrorCode.validation, 'name: required');
  const at = Date.now();
  const values = {
    name,
    code,
    description_en: input.descriptionEn.trim(),
    description_es: input.descriptionEs.trim(),
    enabled: input.enabled ? 1 : 0,
    updated_at: at,
  };
  const id = await db.transaction().execute(async (trx) => {
    if (input.id !== undefined) {
      if (!(await repo.functionExists(trx, input.id))) fail(ErrorCode.notFound);
    }
    const rows = await repo.functionNames(trx);
    const others = rows.filter((r) => r.id !== input.id);
    if (others.some((r) => sameName(r.name) === sameName(name)))
      fail(ErrorCode.already, 'name: another maintenance function has this name');
    if (others.some((r) => r.code.toLowerCase() === code.toLowerCase()))
      fail(ErrorCode.codeExists, 'code: another maintenance function has this code');
    if (input.id !== undefined) {
      await repo.updateFunction(trx, input.id, values);
      return input.id;
    }
    return repo.insertFunction(trx, values, at);
  });
  return getFunction(db, id);
}
