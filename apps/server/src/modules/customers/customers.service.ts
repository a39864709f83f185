/**
 * Customer rules: a customer is a company with a customer type and an administrator account,
 * made and changed by the platform operator. Company names are unique regardless of case (203);
 * an administrator account is unique (104); a customer holds only permissions a company may be
 * granted (4), by default its type's; an agent follows the rules of `agents.ts`. A customer that
 * is still an agent is not deleted (903), nor one that holds plants (4); deleting one returns
 * its gateways to stock and disables its accounts, which leave it. Every change is recorded in
 * the administrative audit log in its transaction.
 */
import { type customersApi as api, type BodyOf, companyGrantable, ErrorCode, type QueryOf } from '@sunfleet/contracts';
import type { Transaction } from 'kysely';
import type { Caller } from '../../access/caller.ts';
import { recordAdminChange } from '../../audit/admin.ts';
import type { Db } from '../../db/index.ts';
import { now, parseJson } from '../../db/index.ts';
import type { Database } from '../../db/schema.ts';
import { fail } from '../../http/errors.ts';
import { iso } from '../../time/index.ts';
import { normalise } from '../auth/accounts.service.ts';
import { hashPassword } from '../auth/passwords.ts';
import { agentCompanyFor } from './agents.ts';
import * as repo from './customers.repo.ts';
import { accountNamed, type CustomerRow, companyNamed, uniqueClash } from './customers.repo.ts';

type Create = BodyOf<typeof api.createCustomer>;
type Edit = BodyOf<typeof api.editCustomer>;
type ListQuery = QueryOf<typeof api.listCustomers>;
type PasswordCost = Parameters<typeof hashPassword>[1];

const grantable: ReadonlySet<string> = new Set(companyGrantable);

/** Unique permission names, each one a company may be granted (else 4). */
export function customerPermissions(names: readonly string[]): string[] {
  const unique = [...new Set(names)];
  const bad = unique.find((n) => !grantable.has(n));
  if (bad !== undefined) fail(ErrorCode.validation, `permissions: "${bad}" is not a permission a customer may hold`);
  return unique;
}

const text = (v: string | null | undefined) => {
  const t = v?.trim();
  return t ? t : null;
};

/** A write that a unique index refused after the checks passed (a request racing this one): 203 or 104, as the check would have said. */
async function inserting<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (err) {
    const clash = uniqueClash(err);
    if (clash === 'companies.name') return fail(ErrorCode.companyNameTaken);
    if (clash === 'users.account') return fail(ErrorCode.accountExists);
    throw err;
  }
}

export function toCustomer(r: CustomerRow) {
  return {
    id: r.id,
    name: r.name,
    account: r.account ?? null,
    contactName: r.contact_name,
    email: r.email,
    phone: r.phone,
    address: r.address,
    customerType: r.customer_type_id === null ? null : { id: r.customer_type_id, name: r.type_name ?? '' },
    agent:
      r.agent_company_id === null ? null : { id: r.agent_company_id, name: r.agent_name ?? '', account: r.agent_account ?? null },
    customers: Number(r.customers ?? 0),
    users: Number(r.users ?? 0),
    gateways: Number(r.gateways ?? 0),
    createdAt: iso(r.created_at)!,
  };
}
type Customer = ReturnType<typeof toCustomer>;

export async function getCustomer(db: Db, id: number): Promise<Customer> {
  const row = await repo.customerById(db, id);
  if (!row) return fail(ErrorCode.notFound);
  return toCustomer(row);
}

export async function listCustomers(db: Db, q: ListQuery) {
  const size = q.size ?? 10;
  const page = q.page ?? 1;
  const { total, ids } = await repo.customerPage(db, q, page, size);
  if (ids.length === 0) return { total, list: [] };
  const rows = await repo.customersByIds(db, ids);
  const byId = new Map(rows.map((r) => [r.id, toCustomer(r)]));
  return { total, list: ids.map((id) => byId.get(id)!) };
}

export async function customerPicks(db: Db) {
  const rows = await repo.companyPicks(db);
  return rows.map((r) => ({ id: r.id, name: r.name, agentId: r.agent_company_id }));
}

/** 203 when the company name is another company's; 104 when the account exists. */
export async function checkCustomer(db: Db, q: { name?: string; account?: string; id?: number }) {
  if (q.name?.trim()) {
    const taken = await companyNamed(db, q.name);
    if (taken && taken.id !== q.id) fail(ErrorCode.companyNameTaken);
  }
  if (q.account?.trim() && (await accountNamed(db, q.account))) fail(ErrorCode.accountExists);
}

export async function customerRole(db: Db, id: number): Promise<string[]> {
  const row = await repo.companyPermissions(db, id);
  if (!row) return fail(ErrorCode.notFound);
  return parseJson<string[]>(row.permissions, []).filter((n) => grantable.has(n));
}

async function typeOf(db: Db | Transaction<Database>, id: number) {
  const type = await repo.customerType(db, id);
  if (!type) return fail(ErrorCode.validation, 'customerTypeId: no such customer type');
  return type;
}

/** What the audit log keeps of a customer (no password, no counts). */
const audited = (c: Customer) => ({
  name: c.name,
  account: c.account,
  contactName: c.contactName,
  email: c.email,
  phone: c.phone,
  address: c.address,
  customerTypeId: c.customerType?.id ?? null,
  agentId: c.agent?.id ?? null,
});

export async function createCustomer(db: Db, caller: Caller, input: Create, cost: PasswordCost): Promise<Customer> {
  const name = input.name.trim();
  if (!name) fail(ErrorCode.validation, 'name: required');
  const account = normalise(input.account);
  const passwordHash = await hashPassword(input.password, cost);
  const id = await inserting(
    db.transaction().execute(async (trx) => {
      if (await companyNamed(trx, name)) fail(ErrorCode.companyNameTaken);
      if (await accountNamed(trx, account)) fail(ErrorCode.accountExists);
      const type = await typeOf(trx, input.customerTypeId);
      const permissions = customerPermissions(
        input.permissions ?? parseJson<string[]>(type.permissions, []).filter((n) => grantable.has(n)),
      );
      const agentId = input.agentAccount
        ? await agentCompanyFor(trx, { id: null, ownAccount: account }, input.agentAccount)
        : null;
      const t = now();
      const company = {
        id: await repo.insertCustomer(
          trx,
          {
            name,
            contact_name: text(input.contactName),
            email: text(input.email),
            phone: text(input.phone),
            address: text(input.address),
            customer_type_id: type.id,
            agent_company_id: agentId,
            permissions: JSON.stringify(permissions),
          },
          { account, password_hash: passwordHash },
          t,
        ),
      };
      const after = await getCustomer(trx, company.id);
      await recordAdminChange(trx, {
        actorUserId: caller.user.id,
        companyId: company.id,
        entity: 'customer',
        entityId: company.id,
        action: 'create',
        after: { ...audited(after), permissions },
      });
      if (agentId !== null) await recordAgent(trx, caller, company.id, null, agentId);
      return company.id;
    }),
  );
  return getCustomer(db, id);
}

async function recordAgent(
  trx: Transaction<Database>,
  caller: Caller,
  customerId: number,
  before: number | null,
  after: number | null,
) {
  await recordAdminChange(trx, {
    actorUserId: caller.user.id,
    companyId: customerId,
    entity: 'agent',
    entityId: customerId,
    action: after === null ? 'remove' : 'assign',
    before: { agentId: before },
    after: { agentId: after },
  });
}

export async function editCustomer(db: Db, caller: Caller, id: number, input: Edit): Promise<Customer> {
  const name = input.name.trim();
  if (!name) fail(ErrorCode.validation, 'name: required');
  await inserting(
    db.transaction().execute(async (trx) => {
      const before = await getCustomer(trx, id);
      const taken = await companyNamed(trx, name);
      if (taken && taken.id !== id) fail(ErrorCode.companyNameTaken);
      await typeOf(trx, input.customerTypeId);
      const permissions = input.permissions === undefined ? undefined : customerPermissions(input.permissions);
      const current = before.agent?.id ?? null;
      const unchanged =
        input.agentAccount === undefined ||
        (input.agentAccount !== null && before.agent?.account === normalise(input.agentAccount));
      const agentId = unchanged ? current : input.agentAccount ? await agentCompanyFor(trx, { id }, input.agentAccount) : null;
      const permissionsBefore = await customerRole(trx, id);
      await repo.updateCustomer(trx, id, {
        name,
        contact_name: text(input.contactName),
        email: text(input.email),
        phone: text(input.phone),
        address: text(input.address),
        customer_type_id: input.customerTypeId,
        agent_company_id: agentId,
        ...(permissions ? { permissions: JSON.stringify(permissions) } : {}),
        updated_at: now(),
      });
      const after = await getCustomer(trx, id);
      await recordAdminChange(trx, {
        actorUserId: caller.user.id,
        companyId: id,
        entity: 'customer',
        entityId: id,
        action: 'edit',
        before: { ...audited(before), permissions: permissionsBefore },
        after: { ...audited(after), permissions: permissions ?? permissionsBefore },
      });
      if (current !== agentId) await recordAgent(trx, caller, id, current, agentId);
    }),
  );
  return getCustomer(db, id);
}

export async function deleteCustomer(db: Db, caller: Caller, id: number): Promise<null> {
  await db.transaction().execute(async (trx) => {
    const before = await getCustomer(trx, id);
    const servesCustomers = before.customers > 0;
    const servesOwners = await repo.ownersServed(trx, id);
    if (servesCustomers || servesOwners > 0) fail(ErrorCode.accountAgent);
    const plants = await repo.livePlants(trx, id);
    if (plants > 0) fail(ErrorCode.validation, `id: the customer holds ${plants} plant(s); transfer or delete them first`);
    const accounts = await repo.deleteCustomerCompany(trx, id, now());
    await recordAdminChange(trx, {
      actorUserId: caller.user.id,
      companyId: id,
      entity: 'customer',
      entityId: id,
      action: 'delete',
      before: { ...audited(before), accountsDisabled: accounts, gatewaysToStock: before.gateways },
    });
  });
  return null;
}
