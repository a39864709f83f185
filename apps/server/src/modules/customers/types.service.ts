/**
 * Customer type rules: names unique regardless of case (4); a subtype's parent is a type without
 * a parent (4), and a type with subtypes gets no parent (1007): one level of subtypes. A type
 * with a subtype is not deleted (1007), nor one customers hold (4). A type's permissions are what
 * a new customer of the type is granted (only what a company may hold: 4). Every change is
 * recorded in the administrative audit log in its transaction.
 */
import { type customersApi as api, type BodyOf, ErrorCode, type QueryOf } from '@sunfleet/contracts';
import type { Transaction } from 'kysely';
import type { Caller } from '../../access/caller.ts';
import { recordAdminChange } from '../../audit/admin.ts';
import type { Db } from '../../db/index.ts';
import { now, parseJson } from '../../db/index.ts';
import type { Database } from '../../db/schema.ts';
import { fail } from '../../http/errors.ts';
import { iso } from '../../time/index.ts';
import { type TypeRow, typeNamed, uniqueClash } from './customers.repo.ts';
import { customerPermissions } from './customers.service.ts';
import * as repo from './types.repo.ts';

type Input = BodyOf<typeof api.createCustomerType>;
type ListQuery = QueryOf<typeof api.listCustomerTypes>;

const toSubtype = (r: TypeRow) => ({
  id: r.id,
  name: r.name,
  remark: r.remark,
  parentId: r.parent_id,
  permissions: parseJson<string[]>(r.permissions, []),
  customers: Number(r.customers ?? 0),
  createdAt: iso(r.created_at)!,
});
type CustomerType = ReturnType<typeof toSubtype> & { children: ReturnType<typeof toSubtype>[] };

async function withChildren(db: Db, parents: TypeRow[]): Promise<CustomerType[]> {
  if (parents.length === 0) return [];
  const children = await repo.subtypesOf(
    db,
    parents.map((p) => p.id),
  );
  return parents.map((p) => ({
    ...toSubtype(p),
    children: children.filter((c) => c.parent_id === p.id).map(toSubtype),
  }));
}

export async function getType(db: Db, id: number): Promise<CustomerType> {
  const row = await repo.typeById(db, id);
  if (!row) return fail(ErrorCode.notFound);
  return (await withChildren(db, [row]))[0]!;
}

export async function listTypes(db: Db, q: ListQuery) {
  const size = q.size ?? 10;
  const page = q.page ?? 1;
  const { total, rows } = await repo.typePage(db, q.name, page, size);
  if (rows.length === 0) return { total, list: [] };
  return { total, list: await withChildren(db, rows) };
}

/** Every type, a type before its subtypes. */
export async function typePicks(db: Db) {
  const rows = await repo.allTypes(db);
  const out: Array<{ id: number; name: string; parentId: number | null }> = [];
  for (const top of rows.filter((r) => r.parent_id === null)) {
    out.push({ id: top.id, name: top.name, parentId: null });
    for (const sub of rows.filter((r) => r.parent_id === top.id)) out.push({ id: sub.id, name: sub.name, parentId: top.id });
  }
  return out;
}

async function checkInput(trx: Transaction<Database>, id: number | null, input: Input) {
  const name = input.name.trim();
  if (!name) fail(ErrorCode.validation, 'name: required');
  const taken = await typeNamed(trx, name);
  if (taken && taken.id !== id) fail(ErrorCode.validation, NAME_TAKEN);
  const parentId = input.parentId ?? null;
  if (parentId !== null) {
    if (parentId === id) fail(ErrorCode.validation, 'parentId: a type is not its own parent');
    const parent = await repo.typeParent(trx, parentId);
    if (!parent) fail(ErrorCode.validation, 'parentId: no such customer type');
    if (parent!.parent_id !== null) fail(ErrorCode.validation, 'parentId: a subtype has no subtypes');
    if (id !== null && (await repo.subtypeCount(trx, id)) > 0) fail(ErrorCode.typeHasSubtype);
  }
  return { name, parentId, remark: input.remark?.trim() || null };
}

const audited = (t: CustomerType) => ({ name: t.name, remark: t.remark, parentId: t.parentId, permissions: t.permissions });

/** A write a unique index refused after the name check passed (a request racing this one): 4, as the check says. */
async function naming<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (err) {
    if (uniqueClash(err) === 'customer_types.name') return fail(ErrorCode.validation, NAME_TAKEN);
    throw err;
  }
}
const NAME_TAKEN = 'name: a customer type with this name exists';

export async function createType(db: Db, caller: Caller, input: Input): Promise<CustomerType> {
  const id = await naming(
    db.transaction().execute(async (trx) => {
      const fields = await checkInput(trx, null, input);
      const permissions = customerPermissions(input.permissions ?? []);
      const row = {
        id: await repo.insertType(
          trx,
          { name: fields.name, remark: fields.remark, parent_id: fields.parentId, permissions: JSON.stringify(permissions) },
          now(),
        ),
      };
      await recordAdminChange(trx, {
        actorUserId: caller.user.id,
        companyId: null,
        entity: 'customer_type',
        entityId: row.id,
        action: 'create',
        after: audited(await getType(trx, row.id)),
      });
      return row.id;
    }),
  );
  return getType(db, id);
}

export async function editType(db: Db, caller: Caller, id: number, input: Input): Promise<CustomerType> {
  await naming(
    db.transaction().execute(async (trx) => {
      const before = await getType(trx, id);
      const fields = await checkInput(trx, id, input);
      const permissions = input.permissions === undefined ? before.permissions : customerPermissions(input.permissions);
      await repo.updateType(trx, id, {
        name: fields.name,
        remark: fields.remark,
        parent_id: fields.parentId,
        permissions: JSON.stringify(permissions),
      });
      await recordAdminChange(trx, {
        actorUserId: caller.user.id,
        companyId: null,
        entity: 'customer_type',
        entityId: id,
        action: 'edit',
        before: audited(before),
        after: audited(await getType(trx, id)),
      });
    }),
  );
  return getType(db, id);
}

export async function deleteType(db: Db, caller: Caller, id: number): Promise<null> {
  await db.transaction().execute(async (trx) => {
    const before = await getType(trx, id);
    if (before.children.length > 0) fail(ErrorCode.typeHasSubtype);
    if (before.customers > 0)
      fail(ErrorCode.validation, `id: ${before.customers} customer(s) hold this type; give them another first`);
    await repo.deleteTypeRow(trx, id);
    await recordAdminChange(trx, {
      actorUserId: caller.user.id,
      companyId: null,
      entity: 'customer_type',
      entityId: id,
      action: 'delete',
      before: audited(before),
    });
  });
  return null;
}
