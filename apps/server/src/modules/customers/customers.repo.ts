/** SQL for customers (companies with their type, agent and administrator) and customer types. */
import { sql } from 'kysely';
import type { Db } from '../../db/index.ts';
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
