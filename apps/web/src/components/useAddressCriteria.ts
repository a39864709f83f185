/**
 * A list's criteria kept in the address (filters, page, size), so that a reload, the back button
 * or a shared link shows the same list. `update` merges a change and starts again at page 1
 * unless told to keep the page; `onPage` shows a page (of `listPagination`, which starts a new
 * page size at page 1); `reset` clears every criterion. The address is replaced, not pushed:
 * typing in a filter does not fill the history.
 */
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';

export interface PagedCriteria {
  page: number;
  size: number;
}

export interface AddressCriteria<C extends PagedCriteria> {
  criteria: C;
  update(change: Partial<C>, keepPage?: boolean): void;
  onPage(page: number, size: number): void;
  reset(): void;
}

export function useAddressCriteria<C extends PagedCriteria>(
  parse: (params: URLSearchParams) => C,
  search: (criteria: C) => URLSearchParams,
): AddressCriteria<C> {
  const [params, setParams] = useSearchParams();
  const criteria = useMemo(() => parse(params), [parse, params]);
  const update = useCallback(
    (change: Partial<C>, keepPage = false) =>
      setParams(
        (current) => {
          const next = { ...parse(current), ...change };
          if (!keepPage) next.page = 1;
          return search(next);
        },
        { replace: true },
      ),
    [parse, search, setParams],
  );
  const onPage = useCallback((page: number, size: number) => update({ page, size } as Partial<C>, true), [update]);
  const reset = useCallback(() => setParams(new URLSearchParams(), { replace: true }), [setParams]);
  return { criteria, update, onPage, reset };
}
