import { describe, expect, it } from 'vitest';
import { criteriaSearch, DEFAULT_SIZE, formatKib, parseCriteria, serverQuery } from './criteria.ts';

describe('firmware list criteria', () => {
  it('reads and writes the address, dropping what is unknown', () => {
    const c = parseCriteria(new URLSearchParams('product=HY&version=1_&enabled=0&page=3&size=50&x=1'));
    expect(c).toEqual({ productName: 'HY', version: '1_', enabled: false, page: 3, size: 50 });
    expect(criteriaSearch(c).toString()).toBe('product=HY&version=1_&enabled=0&page=3&size=50');
    expect(parseCriteria(new URLSearchParams('page=-1&size=7&enabled=maybe'))).toEqual({
      productName: '',
      version: '',
      enabled: undefined,
      page: 1,
      size: DEFAULT_SIZE,
    });
  });

  it('sends only the filters that are set', () => {
    expect(serverQuery(parseCriteria(new URLSearchParams('')))).toEqual({ page: 1, size: DEFAULT_SIZE });
    expect(serverQuery(parseCriteria(new URLSearchParams('enabled=1&product=A')))).toEqual({
      page: 1,
      size: DEFAULT_SIZE,
      productName: 'A',
      enabled: '1',
    });
  });

  it('shows sizes in KiB', () => {
    expect(formatKib(1_572_864, 'en')).toBe('1,536.0 KiB');
    expect(formatKib(1536, 'es')).toBe('1,5 KiB');
  });
});
