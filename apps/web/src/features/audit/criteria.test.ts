import { describe, expect, it } from 'vitest';
import { auditQuery, changedFields, criteriaSearch, parseCriteria } from './criteria.ts';

describe('audit log criteria', () => {
  it('reads the address, dropping what is not valid', () => {
    const c = parseCriteria(
      new URLSearchParams('entity=role&actor=%20ana%20&companyId=3&start=2026-03-01&end=2026-03-02&page=2&size=50'),
    );
    expect(c).toEqual({ entity: 'role', actor: 'ana', companyId: 3, start: '2026-03-01', end: '2026-03-02', page: 2, size: 50 });
    const bad = parseCriteria(new URLSearchParams('entity=plant&companyId=-1&start=2026-03-05&end=2026-03-01&page=0&size=7'));
    expect(bad).toEqual({ entity: undefined, actor: '', companyId: undefined, page: 1, size: 20 });
  });

  it('writes back only what differs from the defaults, and reads back the same', () => {
    const c = parseCriteria(new URLSearchParams('entity=user&start=2026-03-01&end=2026-03-01'));
    expect(criteriaSearch(c).toString()).toBe('entity=user&start=2026-03-01&end=2026-03-01');
    expect(parseCriteria(criteriaSearch(c))).toEqual(c);
  });

  it('asks for whole local days, both ends included', () => {
    const q = auditQuery(parseCriteria(new URLSearchParams('start=2026-03-01&end=2026-03-02')));
    expect(new Date(q.from!).getTime()).toBe(new Date(2026, 2, 1).getTime());
    expect(new Date(q.to!).getTime()).toBe(new Date(2026, 2, 3).getTime() - 1);
    expect(auditQuery(parseCriteria(new URLSearchParams()))).toEqual({ page: 1, size: 20 });
  });

  it('lists the fields a change touched', () => {
    expect(changedFields({ name: 'a', phone: null, roleId: 1 }, { name: 'b', phone: null, roleId: 2 })).toEqual([
      { field: 'name', from: 'a', to: 'b' },
      { field: 'roleId', from: 1, to: 2 },
    ]);
    expect(changedFields(null, { name: 'n', phone: null })).toEqual([{ field: 'name', from: undefined, to: 'n' }]);
  });
});
