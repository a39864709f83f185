/**
 * The stock list's filters, kept in the address (a link or a reload shows the same list): part of
 * an SN or alias (`q`), the customer (company id), the protocol, bound or not, the page and its
 * size. Pure functions: parse, write, and the server query they make.
 */
import type { devicesApi, QueryOf } from '@sunfleet/contracts';

export interface StockCriteria {
  keyword: string;
  customerId?: number;
  protocol?: string;
  binding?: 'bound' | 'unbound';
  page: number;
  size: number;
}

export const pageSizes = [20, 50, 100] as const;
export const DEFAULT_SIZE = 20;
/** The list's keyword limit (the server's). */
export const KEYWORD_MAX = 32;

function positive(raw: string | null): number | undefined {
  const n = Number(raw);
  return raw && Number.isInteger(n) && n > 0 && n <= 2_147_483_647 ? n : undefined;
}

export function parseCriteria(params: URLSearchParams): StockCriteria {
  const binding = params.get('binding');
  const size = positive(params.get('size'));
  const protocol = (params.get('protocol') ?? '').trim().slice(0, 64);
  return {
    keyword: (params.get('q') ?? '').trim().slice(0, KEYWORD_MAX),
    customerId: positive(params.get('customerId')),
    protocol: protocol || undefined,
    binding: binding === 'bound' || binding === 'unbound' ? binding : undefined,
    page: positive(params.get('page')) ?? 1,
    size: size && (pageSizes as readonly number[]).includes(size) ? size : DEFAULT_SIZE,
  };
}

/** The address of some criteria: defaults are left out. */
export function criteriaSearch(c: StockCriteria): URLSearchParams {
  const out = new URLSearchParams();
  if (c.keyword) out.set('q', c.keyword);
  if (c.customerId) out.set('customerId', String(c.customerId));
  if (c.protocol) out.set('protocol', c.protocol);
  if (c.binding) out.set('binding', c.binding);
  if (c.page > 1) out.set('page', String(c.page));
  if (c.size !== DEFAULT_SIZE) out.set('size', String(c.size));
  return out;
}

type Filters = Pick<QueryOf<typeof devicesApi.listGateways>, 'keyword' | 'customerId' | 'protocol' | 'binding'>;

/** The filters as the server takes them (the list and the download). */
export function serverFilters(c: StockCriteria): Filters {
  return {
    ...(c.keyword ? { keyword: c.keyword } : {}),
    ...(c.customerId ? { customerId: c.customerId } : {}),
    ...(c.protocol ? { protocol: c.protocol } : {}),
    ...(c.binding ? { binding: c.binding } : {}),
  };
}

export const isFiltered = (c: StockCriteria) => Boolean(c.keyword || c.customerId || c.protocol || c.binding);
