/**
 * A firmware list's filters, kept in the address (a link or a reload shows the same list):
 * product name and version (parts of them), enabled or not, and the page. Pure functions:
 * parse, write, and the server query they make.
 */
export interface FirmwareCriteria {
  productName: string;
  version: string;
  enabled?: boolean;
  page: number;
  size: number;
}

export const pageSizes = [10, 20, 50, 100] as const;
export const DEFAULT_SIZE = 20;
const TEXT_MAX = 40;

function positive(raw: string | null): number | undefined {
  const n = Number(raw);
  return raw && Number.isInteger(n) && n > 0 ? n : undefined;
}

export function parseCriteria(params: URLSearchParams): FirmwareCriteria {
  const enabled = params.get('enabled');
  const size = positive(params.get('size'));
  return {
    productName: (params.get('product') ?? '').trim().slice(0, TEXT_MAX),
    version: (params.get('version') ?? '').trim().slice(0, TEXT_MAX),
    enabled: enabled === '1' ? true : enabled === '0' ? false : undefined,
    page: positive(params.get('page')) ?? 1,
    size: size && (pageSizes as readonly number[]).includes(size) ? size : DEFAULT_SIZE,
  };
}

export function criteriaSearch(c: FirmwareCriteria): URLSearchParams {
  const out = new URLSearchParams();
  if (c.productName) out.set('product', c.productName);
  if (c.version) out.set('version', c.version);
  if (c.enabled !== undefined) out.set('enabled', c.enabled ? '1' : '0');
  if (c.page > 1) out.set('page', String(c.page));
  if (c.size !== DEFAULT_SIZE) out.set('size', String(c.size));
  return out;
}

export const isFiltered = (c: FirmwareCriteria) => c.productName !== '' || c.version !== '' || c.enabled !== undefined;

/** The list call's query: empty filters left out. */
export function serverQuery(c: FirmwareCriteria) {
  return {
    page: c.page,
    size: c.size,
    ...(c.productName ? { productName: c.productName } : {}),
    ...(c.version ? { version: c.version } : {}),
    ...(c.enabled !== undefined ? { enabled: c.enabled ? ('1' as const) : ('0' as const) } : {}),
  };
}

/** An image's size in KiB (1,024 bytes), one decimal, in the interface language's marks. */
export const formatKib = (bytes: number, locale: string) =>
  `${new Intl.NumberFormat(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(bytes / 1024)} KiB`;
