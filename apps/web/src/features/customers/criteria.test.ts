import { describe, expect, it } from 'vitest';
import { criteriaSearch, DEFAULT_SIZE, isFiltered, listQuery, parseCriteria } from './criteria.ts';

describe('customer list criteria', () => {
  it('reads the address, ignoring what is not a filter', () => {
    const c = parseCriteria(new URLSearchParams('name=%20Sol%20&type=3&agent=x&page=0&size=7'));
    expect(c).toEqual({ name: 'Sol', account: '', customerTypeId: 3, agentId: undefined, page: 1, size: DEFAULT_SIZE });
    expect(isFiltered(c)).toBe(true);
    expect(isFiltered(parseCriteria(new URLSearchParams()))).toBe(false);
  });
  it('writes back what it read, and asks the server only for what is set', () => {
    const c = parseCriteria(new URLSearchParams('account=a%40b.c&agent=9&page=2&size=50'));
    expect(parseCriteria(criteriaSearch(c))).toEqual(c);
    expect(listQuery(c)).toEqual({ page: 2, size: 50, account: 'a@b.c', agentId: 9 });
  });
});
