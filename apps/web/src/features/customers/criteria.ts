/**
 * The customer list's filters, kept in the address (a link or a reload shows the same list):
 * name, administrator account, customer type, agent, and the page. Pure functions: parse, write,
 * and the server query they make.
 */
import type { customersApi, QueryOf } from '@sunfleet/contracts';

export interface CustomerCriteria {
  name: string;
  account: string;
  customerTypeId?: number;
  agentId?: number;
  page: number;
  size: number;
}

export const PAGE_SIZES = [10, 20, 50, 100] as const;
export const DEFAULT_SIZE = 20;

function positive(raw: string | null): number | undefined {
  const n = Number(raw);
  return raw && Number.isInteger(n) && n > 0 ? n : undefined;
}

export function parseCriteria(params: URLSearchParams): CustomerCriteria {
  const size = positive(params.get('size'));
  return {
    name: (params.get('name') ?? '').trim().slice(0, 64),
    account: (params.get('account') ?? '').trim().slice(0, 254),
    customerTypeId: positive(params.get('type')),
    agentId: positive(params.get('agent')),
    page: positive(params.get('page')) ?? 1,
    size: size && (PAGE_SIZES as readonly number[]).includes(size) ? size : DEFAULT_SIZE,
  };
}

export function criteriaSearch(c: CustomerCriteria): URLSearchParams {
  const out = new URLSearchParams();
  if (c.name) out.set('name', c.name);
  if (c.account) out.set('account', c.account);
  if (c.customerTypeId) out.set('type', String(c.customerTypeId));
  if (c.agentId) out.set('agent', String(c.agentId));
  if (c.page > 1) out.set('page', String(c.page));
  if (c.size !== DEFAULT_SIZE) out.set('size', String(c.size));
  return out;
}

export const isFiltered = (c: CustomerCriteria) => Boolean(c.name || c.account || c.customerTypeId || c.agentId);

export function listQuery(c: CustomerCriteria): QueryOf<typeof customersApi.listCustomers> {
  return {
    page: c.page,
    size: c.size,
    ...(c.name ? { name: c.name } : {}),
    ...(c.account ? { account: c.account } : {}),
    ...(c.customerTypeId ? { customerTypeId: c.customerTypeId } : {}),
    ...(c.agentId ? { agentId: c.agentId } : {}),
  };
}
