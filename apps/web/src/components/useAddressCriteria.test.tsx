import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, useLocation } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { listPagination } from './ListTable.tsx';
import { useAddressCriteria } from './useAddressCriteria.ts';

interface Criteria {
  name: string;
  page: number;
  size: number;
}
const parse = (p: URLSearchParams): Criteria => ({
  name: p.get('name') ?? '',
  page: Number(p.get('page') ?? 1),
  size: Number(p.get('size') ?? 20),
});
const search = (c: Criteria) => {
  const p = new URLSearchParams();
  if (c.name) p.set('name', c.name);
  if (c.page !== 1) p.set('page', String(c.page));
  if (c.size !== 20) p.set('size', String(c.size));
  return p;
};

function renderCriteria(at: string) {
  const wrapper = ({ children }: { children: ReactNode }) => <MemoryRouter initialEntries={[at]}>{children}</MemoryRouter>;
  return renderHook(() => ({ ...useAddressCriteria(parse, search), address: useLocation().search }), { wrapper });
}

describe('criteria in the address', () => {
  it('reads them from the address; a new filter starts at page 1, a page keeps the filters', () => {
    const { result } = renderCriteria('/list?name=casa&page=3');
    expect(result.current.criteria).toEqual({ name: 'casa', page: 3, size: 20 });
    act(() => result.current.update({ name: 'finca' }));
    expect(result.current.address).toBe('?name=finca');
    act(() => result.current.onPage(2, 20));
    expect(result.current.criteria).toEqual({ name: 'finca', page: 2, size: 20 });
    act(() => result.current.update({ size: 50 }, true));
    expect(result.current.address).toBe('?name=finca&page=2&size=50');
    act(() => result.current.reset());
    expect(result.current.address).toBe('');
  });
});

describe('list pagination', () => {
  it('goes to the page asked; a new page size starts again at page 1', () => {
    const onPage = vi.fn();
    const pagination = listPagination({
      page: 3,
      size: 20,
      total: 95,
      sizes: [20, 50, 100],
      onPage,
      totalText: (n) => `${n} rows`,
    });
    expect(pagination).toMatchObject({ current: 3, pageSize: 20, total: 95, pageSizeOptions: ['20', '50', '100'] });
    expect(pagination.showTotal?.(95, [41, 60])).toBe('95 rows');
    pagination.onChange?.(4, 20);
    pagination.onChange?.(3, 50);
    expect(onPage.mock.calls).toEqual([
      [4, 20],
      [1, 50],
    ]);
  });
});
