/**
 * The filters, sort and page of a device list, kept in the query string (`?plantId=4&status=fault
 * &sort=power&order=2&page=2`), so a reload, the back button from a detail page or a shared link
 * shows the same list. Unknown or malformed values fall back to the defaults (sort by SN,
 * ascending, first page of 20).
 */
import { limits } from '@sunfleet/contracts';
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';

export interface ListSpec<S extends string> {
  sorts: readonly S[];
  defaultSort: S;
  statuses: readonly string[];
  /** Type filter values (inverters). */
  types?: readonly string[];
  /** Binding and communication filter values (gateways). */
  bindings?: readonly string[];
  commTypes?: readonly string[];
}

export interface ListState<S extends string> {
  plantId: number | undefined;
  status: string | undefined;
  type: string | undefined;
  binding: string | undefined;
  commType: string | undefined;
  keyword: string;
  sort: S;
  order: 1 | 2;
  page: number;
  size: number;
}

export const DEFAULT_SIZE = 20;
export const PAGE_SIZES = [10, 20, 50, 100] as const;
export const KEYWORD_MAX = 32;

const positive = (raw: string | null): number | undefined => {
  if (!raw || !/^[1-9]\d{0,9}$/.test(raw)) return undefined;
  return Number(raw);
};
const oneOf = (raw: string | null, allowed: readonly string[] | undefined) =>
  raw !== null && allowed?.includes(raw) ? raw : undefined;

export function parseListState<S extends string>(params: URLSearchParams, spec: ListSpec<S>): ListState<S> {
  const sort = oneOf(params.get('sort'), spec.sorts) as S | undefined;
  const size = positive(params.get('size'));
  return {
    plantId: positive(params.get('plantId')),
    status: oneOf(params.get('status'), spec.statuses),
    type: oneOf(params.get('type'), spec.types),
    binding: oneOf(params.get('binding'), spec.bindings),
    commType: oneOf(params.get('commType'), spec.commTypes),
    keyword: (params.get('keyword') ?? '').trim().slice(0, KEYWORD_MAX),
    sort: sort ?? spec.defaultSort,
    order: params.get('order') === '2' ? 2 : 1,
    page: positive(params.get('page')) ?? 1,
    size: size && size <= limits.page.maxSize ? size : DEFAULT_SIZE,
  };
}

/** The query string of a state: only what differs from the defaults. */
export function listSearch<S extends string>(state: ListState<S>, spec: ListSpec<S>): Record<string, string> {
  const out: Record<string, string> = {};
  if (state.plantId) out.plantId = String(state.plantId);
  if (state.status) out.status = state.status;
  if (state.type) out.type = state.type;
  if (state.binding) out.binding = state.binding;
  if (state.commType) out.commType = state.commType;
  if (state.keyword) out.keyword = state.keyword;
  if (state.sort !== spec.defaultSort || state.order !== 1) {
    out.sort = state.sort;
    out.order = String(state.order);
  }
  if (state.page > 1) out.page = String(state.page);
  if (state.size !== DEFAULT_SIZE) out.size = String(state.size);
  return out;
}

/** Whether any filter is set (the reset button shows then). */
export const hasFilters = (s: ListState<string>) =>
  Boolean(s.plantId || s.status || s.type || s.binding || s.commType || s.keyword);

/** The list query of the server: paging, sort and the filters that are set. */
export function listQuery<S extends string>(s: ListState<S>) {
  return {
    page: s.page,
    size: s.size,
    sort: s.sort,
    order: s.order,
    ...(s.plantId ? { plantId: s.plantId } : {}),
    ...(s.keyword ? { keyword: s.keyword } : {}),
  };
}

/** The count query: the list's filters except status (and paging and sort). */
export function countQuery(s: ListState<string>) {
  return {
    ...(s.plantId ? { plantId: s.plantId } : {}),
    ...(s.keyword ? { keyword: s.keyword } : {}),
  };
}

/**
 * The list state of the page and a setter: a change of filters or sort goes back to the first
 * page; `replace` keeps the history clean while typing.
 */
export function useListState<S extends string>(spec: ListSpec<S>) {
  const [params, setParams] = useSearchParams();
  // `spec` is a module constant of each page: stable.
  const state = useMemo(() => parseListState(params, spec), [params, spec]);
  const update = useCallback(
    (change: Partial<ListState<string>>) => {
      setParams(
        (current) => {
          const prev = parseListState(current, spec);
          const paging = 'page' in change || 'size' in change;
          // A sort the list does not know is dropped by the next parse (back to the default).
          const next = { ...prev, ...change, page: paging ? (change.page ?? 1) : 1 } as ListState<S>;
          if ('size' in change && change.size !== prev.size) next.page = 1;
          return listSearch(next, spec);
        },
        { replace: true },
      );
    },
    [setParams, spec],
  );
  return [state, update] as const;
}
