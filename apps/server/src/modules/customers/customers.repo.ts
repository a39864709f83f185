/** SQL for customers (companies with their type, agent and administrator) and customer types. */
import { sql, type Transaction } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { Database } from '../../db/schema.ts';
import { containsText } from '../../db/search.ts';

export function customerRows(db: Db) {
  return db
    .selectFrom('companies')
    .leftJoin('customer_types', 'customer_types.id', 'companies.customer_type_id')
    .leftJoin('companies as agent', 'agent.id', 'companies.agent_company_id')
    .select((eb) => [
      'companies.id',
      'companies.name',
      'companies.contact_name',
      'companies.email',
      'companies.phone',
      'companies.address',
      'companies.customer_type_id',
      'companies.agent_company_id',
      'companies.permissions',
      'companies.created_at',
      'customer_types.name as type_name',
      'agent.name as agent_name',
      // The first administrator account of the company, and of its agent.
      eb
        .selectFrom('users')
        .select('users.account')
        .whereRef('users.company_id', '=', 'companies.id')
        .where('users.kind', '=', 'company_admin')
        .orderBy('users.id')
        .limit(1)
        .as('account'),
      eb
        .selectFrom('users')
        .select('users.account')
        .whereRef('users.company_id', '=', 'agent.id')
        .where('users.kind', '=', 'company_admin')
        .orderBy('users.id')
        .limit(1)
        .as('agent_account'),
      eb
        .selectFrom('companies as served')
        .select((c) => c.fn.countAll<number>().as('n'))
        .whereRef('served.agent_company_id', '=', 'companies.id')
        .as('customers'),
      eb
        .selectFrom('users')
        .select((c) => c.fn.countAll<number>().as('n'))
        .whereRef('users.company_id', '=', 'companies.id')
        .as('users'),
      eb
        .selectFrom('gateways')
        .select((c) => c.fn.countAll<number>().as('n'))
        .whereRef('gateways.company_id', '=', 'companies.id')
        .where('gateways.deleted_at', 'is', null)
        .as('gateways'),
    ]);
}
export type CustomerRow = Awaited<ReturnType<ReturnType<typeof customerRows>['executeTakeFirstOrThrow']>>;

/** `column` contains `text`, case and accents folded (db/search.ts). */
export const contains = (column: string, text: string) => containsText([column], text);

export const companyNamed = (db: Db, name: string) =>
  db.selectFrom('companies').select('id').where(sql<boolean>`lower(name) = ${name.trim().toLowerCase()}`).executeTakeFirst();

export const accountNamed = (db: Db, account: string) =>
  db
    .selectFrom('users')
    .select(['id', 'kind', 'company_id'])
    .where('account', '=', account.trim().toLowerCase())
    .executeTakeFirst();

export const count = async (q: { executeTakeFirstOrThrow(): Promise<{ n: number | string | bigint }> }) =>
  Number((await q.executeTakeFirstOrThrow()).n);

// ——— customer types ———

export function typeRows(db: Db) {
  return db.selectFrom('customer_types').select((eb) => [
    'customer_types.id',
    'customer_types.name',
    'customer_types.remark',
    'customer_types.parent_id',
    'customer_types.permissions',
    'customer_types.created_at',
    eb
      .selectFrom('companies')
      .select((c) => c.fn.countAll<number>().as('n'))
      .whereRef('companies.customer_type_id', '=', 'customer_types.id')
      .as('customers'),
  ]);
}
export type TypeRow = Awaited<ReturnType<ReturnType<typeof typeRows>['executeTakeFirstOrThrow']>>;

export const typeNamed = (db: Db, name: string) =>
  db.selectFrom('customer_types').select('id').where(sql<boolean>`lower(name) = ${name.trim().toLowerCase()}`).executeTakeFirst();

/**
 * The column a unique index refused a write on (`companies.name`, `users.account`, …), or null
 * for any other error: two requests that both passed the check before writing meet here.
 */
export function uniqueClash(err: unknown): string | null {
  const e = err as { code?: string; constraint?: string; table?: string; detail?: string; message?: string };
  if (e?.code === '23505') {
    // PostgreSQL: "Key (name)=(…) already exists." on table `table`.
    const column = /^Key \(([^)]+)\)/.exec(e.detail ?? '')?.[1];
    return e.table && column ? `${e.table}.${column}` : (e.constraint ?? 'unknown');
  }
  if (e?.code === 'SQLITE_CONSTRAINT_UNIQUE') return /UNIQUE constraint failed: (\S+)/.exec(e.message ?? '')?.[1] ?? 'unknown';
  return null;
}

// ——— customers ———

type Tx = Db | Transaction<Database>;

export const customerById = (db: Tx, id: number) =>
  customerRows(db as Db)
    .where('companies.id', '=', id)
    .executeTakeFirst();

export const customersByIds = (db: Db, ids: number[]) => customerRows(db).where('companies.id', 'in', ids).execute();

export interface CustomerFilter {
  name?: string;
  account?: string;
  customerTypeId?: number;
  agentId?: number;
}

/** One page of customer ids, newest first, and the number of customers that match. */
export async function customerPage(db: Db, q: CustomerFilter, page: number, size: number) {
  let base = db.selectFrom('companies');
  if (q.name?.trim()) base = base.where(contains('companies.name', q.name));
  if (q.account?.trim()) {
    const pattern = q.account;
    base = base.where((eb) =>
      eb.exists(
        eb
          .selectFrom('users')
          .select('users.id')
          .whereRef('users.company_id', '=', 'companies.id')
          .where('users.kind', '=', 'company_admin')
          .where(contains('users.account', pattern)),
      ),
    );
  }
  if (q.customerTypeId) {
    const typeId = q.customerTypeId;
    base = base.where((eb) =>
      eb.or([
        eb('companies.customer_type_id', '=', typeId),
        eb('companies.customer_type_id', 'in', eb.selectFrom('customer_types').select('id').where('parent_id', '=', typeId)),
      ]),
    );
  }
  if (q.agentId) base = base.where('companies.agent_company_id', '=', q.agentId);
  const total = await count(base.select((eb) => eb.fn.countAll<number>().as('n')));
  const ids = (
    await base
      .select('companies.id')
      .orderBy('companies.created_at', 'desc')
      .orderBy('companies.id', 'desc')
      .limit(size)
      .offset((page - 1) * size)
      .execute()
  ).map((r) => r.id);
  return { total, ids };
}

export const companyPicks = (db: Db) =>
  db.selectFrom('companies').select(['id', 'name', 'agent_company_id']).orderBy('name').orderBy('id').execute();

export const companyPermissions = (db: Tx, id: number) =>
  db.selectFrom('companies').select('permissions').where('id', '=', id).executeTakeFirst();

export const customerType = (db: Tx, id: number) =>
  db.selectFrom('customer_types').select(['id', 'permissions']).where('id', '=', id).executeTakeFirst();

export interface CompanyFields {
  name: string;
  contact_name: string | null;
  email: string | null;
  phone: string | null;
  address: string | null;
  customer_type_id: number;
  agent_company_id: number | null;
}

/** A new customer company and its administrator account; the company's id. */
export async function insertCustomer(
  trx: Tx,
  company: CompanyFields & { permissions: string },
  admin: { account: string; password_hash: string },
  t: number,
): Promise<number> {
  const row = await trx
    .insertInto('companies')
    .values({ ...company, created_at: t, updated_at: t })
    .returning('id')
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('users')
    .values({ ...admin, kind: 'company_admin', company_id: row.id, created_at: t, updated_at: t })
    .execute();
  return row.id;
}

export const updateCustomer = (trx: Tx, id: number, set: CompanyFields & { permissions?: string; updated_at: number }) =>
  trx.updateTable('companies').set(set).where('id', '=', id).execute();

/** Accounts that name the company as their agent. */
export const ownersServed = (trx: Tx, companyId: number) =>
  count(
    trx
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('agent_company_id', '=', companyId),
  );

/** The company's plants not deleted. */
export const livePlants = (trx: Tx, companyId: number) =>
  count(
    trx
      .selectFrom('plants')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('company_id', '=', companyId)
      .where('deleted_at', 'is', null),
  );

/**
 * Delete a customer company: its accounts' sessions revoked, the accounts disabled and out of it,
 * its gateways back to stock, its deleted plants without it. Returns how many accounts it had.
 */
export async function deleteCustomerCompany(trx: Tx, id: number, t: number): Promise<number> {
  const accounts = (await trx.selectFrom('users').select('id').where('company_id', '=', id).execute()).map((u) => u.id);
  if (accounts.length > 0) {
    await trx
      .updateTable('sessions')
      .set({ revoked_at: t })
      .where('user_id', 'in', accounts)
      .where('revoked_at', 'is', null)
      .execute();
    await trx
      .updateTable('users')
      .set({ enabled: 0, company_id: null, role_id: null, updated_at: t })
      .where('id', 'in', accounts)
      .execute();
  }
  await trx.updateTable('gateways').set({ company_id: null, updated_at: t }).where('company_id', '=', id).execute();
  // Deleted plants keep their rows; they lose the reference to the company.
  await trx.updateTable('plants').set({ company_id: null }).where('company_id', '=', id).execute();
  await trx.deleteFrom('companies').where('id', '=', id).execute();
  return accounts.length;
}

// ——— agents ———

/** Lock the companies' rows until the transaction ends (a no-op update). */
export const lockCompanies = (trx: Tx, ids: number[]) =>
  trx
    .updateTable('companies')
    .set((eb) => ({ updated_at: eb.ref('updated_at') }))
    .where('id', 'in', ids)
    .execute();

/** The customers the company serves as their agent. */
export const customersServed = (trx: Tx, companyId: number) =>
  count(
    trx
      .selectFrom('companies')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('agent_company_id', '=', companyId),
  );

export const agentOf = (trx: Tx, companyId: number) =>
  trx.selectFrom('companies').select('agent_company_id').where('id', '=', companyId).executeTakeFirst();
