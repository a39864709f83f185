/** The SQL of gateways in stock: taken SNs, customers by reference, inserts and the edits. */
import type { Db } from '../../db/index.ts';
import { secretHash } from '../../telemetry/gateways.ts';

/** Values per statement stay well under both stores' parameter limits. */
const CHUNK = 500;

function chunks<T>(items: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** The SNs among `sns` that a live gateway has. */
export async function takenSns(db: Db, sns: readonly string[]): Promise<Set<string>> {
  const taken = new Set<string>();
  for (const part of chunks([...new Set(sns)])) {
    const rows = await db.selectFrom('gateways').select('sn').where('sn', 'in', part).where('deleted_at', 'is', null).execute();
    for (const r of rows) taken.add(r.sn);
  }
  return taken;
}

const MAX_INT = 2_147_483_647;

/** Companies named by id (digits) or exact name: reference → company id. */
export async function customersByRef(db: Db, refs: readonly string[]): Promise<Map<string, number>> {
  const unique = [...new Set(refs)];
  const ids = unique.filter((r) => /^[1-9][0-9]{0,9}$/.test(r) && Number(r) <= MAX_INT).map(Number);
  const names = unique.filter((r) => !/^[0-9]+$/.test(r));
  const out = new Map<string, number>();
  for (const part of chunks(ids)) {
    for (const c of await db.selectFrom('companies').select('id').where('id', 'in', part).execute()) out.set(String(c.id), c.id);
  }
  for (const part of chunks(names)) {
    for (const c of await db.selectFrom('companies').select(['id', 'name']).where('name', 'in', part).execute())
      out.set(c.name, c.id);
  }
  return out;
}

export async function customerExists(db: Db, id: number): Promise<boolean> {
  return (await db.selectFrom('companies').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}

export interface NewStockGateway {
  sn: string;
  companyId: number | null;
  protocol: string | null;
  alias: string | null;
  secret: string;
  claimKey: string;
}

/**
 * Write gateways (inside the caller's transaction). A deleted gateway's row with the same SN is
 * taken over: it starts afresh (bound_at now, so a plant it joins never sees its earlier data).
 * Returns each SN's id.
 */
export async function insertGateways(trx: Db, items: readonly NewStockGateway[], t: number): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  const deleted = new Map<string, number>();
  for (const part of chunks(items.map((i) => i.sn))) {
    const rows = await trx
      .selectFrom('gateways')
      .select(['id', 'sn'])
      .where('sn', 'in', part)
      .where('deleted_at', 'is not', null)
      .execute();
    for (const r of rows) deleted.set(r.sn, r.id);
  }
  const values = (i: NewStockGateway) => ({
    secret_hash: secretHash(i.secret),
    claim_key_hash: secretHash(i.claimKey),
    alias: i.alias,
    company_id: i.companyId,
    protocol_id: i.protocol,
  });
  for (const i of items) {
    const id = deleted.get(i.sn);
    if (id === undefined) continue;
    await trx
      .updateTable('gateways')
      .set({
        ...values(i),
        plant_id: null,
        sw_version: null,
        hw_version: null,
        comm_type: null,
        rssi: null,
        online: 0,
        last_online_at: null,
        last_seen_at: null,
        bound_at: t,
        created_at: t,
        updated_at: t,
        deleted_at: null,
      })
      .where('id', '=', id)
      .execute();
    ids.set(i.sn, id);
  }
  for (const part of chunks(items.filter((i) => !deleted.has(i.sn)))) {
    const rows = await trx
      .insertInto('gateways')
      .values(part.map((i) => ({ sn: i.sn, ...values(i), created_at: t, updated_at: t })))
      .returning(['id', 'sn'])
      .execute();
    for (const r of rows) ids.set(r.sn, r.id);
  }
  return ids;
}

export interface StockRow {
  id: number;
  sn: string;
  plant_id: number | null;
  company_id: number | null;
  protocol_id: string | null;
}

/** Live gateways by id (the ones of `ids` that exist). */
export async function stockRows(db: Db, ids: readonly number[]): Promise<StockRow[]> {
  const out: StockRow[] = [];
  for (const part of chunks(ids)) {
    out.push(
      ...(await db
        .selectFrom('gateways')
        .select(['id', 'sn', 'plant_id', 'company_id', 'protocol_id'])
        .where('id', 'in', part)
        .where('deleted_at', 'is', null)
        .execute()),
    );
  }
  return out;
}

export async function setCompany(trx: Db, ids: readonly number[], companyId: number | null, t: number) {
  for (const part of chunks(ids)) {
    await trx.updateTable('gateways').set({ company_id: companyId, updated_at: t }).where('id', 'in', part).execute();
  }
}

export async function setProtocol(trx: Db, ids: readonly number[], protocol: string | null, t: number) {
  for (const part of chunks(ids)) {
    await trx.updateTable('gateways').set({ protocol_id: protocol, updated_at: t }).where('id', 'in', part).execute();
  }
}

/** Mark a gateway deleted unless it is bound (checked in the statement): whether it was. */
export async function markDeleted(trx: Db, id: number, t: number): Promise<boolean> {
  const res = await trx
    .updateTable('gateways')
    .set({ deleted_at: t, updated_at: t })
    .where('id', '=', id)
    .where('plant_id', 'is', null)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** A unique index refused the write (PostgreSQL 23505, SQLite SQLITE_CONSTRAINT_UNIQUE). */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
