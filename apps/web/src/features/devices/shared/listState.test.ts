import { describe, expect, it } from 'vitest';
import { countQuery, hasFilters, type ListSpec, listQuery, listSearch, parseListState } from './listState.ts';

const spec: ListSpec<'sn' | 'power' | 'status'> = {
  sorts: ['sn', 'power', 'status'],
  defaultSort: 'sn',
  statuses: ['normal', 'fault'],
  types: ['micro', 'threePhase'],
};
const parse = (q: string) => parseListState(new URLSearchParams(q), spec);

describe('device list state in the query string', () => {
  it('defaults to SN ascending, first page of 20, no filters', () => {
    const s = parse('');
    expect(s).toMatchObject({ sort: 'sn', order: 1, page: 1, size: 20, keyword: '', plantId: undefined, status: undefined });
    expect(listSearch(s, spec)).toEqual({});
    expect(hasFilters(s)).toBe(false);
    expect(listQuery(s)).toEqual({ page: 1, size: 20, sort: 'sn', order: 1 });
  });

  it('reads what it knows and drops what it does not', () => {
    const s = parse('plantId=4&status=fault&type=micro&keyword=%20HY1%20&sort=power&order=2&page=3&size=50');
    expect(s).toMatchObject({
      plantId: 4,
      status: 'fault',
      type: 'micro',
      keyword: 'HY1',
      sort: 'power',
      order: 2,
      page: 3,
      size: 50,
    });
    expect(listSearch(s, spec)).toEqual({
      plantId: '4',
      status: 'fault',
      type: 'micro',
      keyword: 'HY1',
      sort: 'power',
      order: '2',
      page: '3',
      size: '50',
    });
    const bad = parse('plantId=0&status=lost&type=x&sort=drop&order=9&page=-2&size=500');
    expect(bad).toMatchObject({
      plantId: undefined,
      status: undefined,
      type: undefined,
      sort: 'sn',
      order: 1,
      page: 1,
      size: 20,
    });
  });

  it('keeps the keyword to 32 characters and leaves status out of the counts', () => {
    const s = parse(`keyword=${'x'.repeat(40)}&status=fault&plantId=9`);
    expect(s.keyword).toHaveLength(32);
    expect(countQuery(s)).toEqual({ plantId: 9, keyword: 'x'.repeat(32) });
  });
});
