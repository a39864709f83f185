import { describe, expect, it } from 'vitest';
import { criteriaSearch, parseCriteria, serverQuery } from './criteria.ts';

describe('maintenance log criteria', () => {
  it('reads the address, dropping what is not a filter', () => {
    const c = parseCriteria(
      new URLSearchParams('plantId=4&sn=%20INV1%20&kind=debug&start=2026-01-02&end=2026-01-05&page=2&size=50'),
    );
    expect(c).toEqual({
      plantId: 4,
      sn: 'INV1',
      kind: 'debug',
      range: { start: '2026-01-02', end: '2026-01-05' },
      page: 2,
      size: 50,
    });
    const bad = parseCriteria(new URLSearchParams('plantId=-1&kind=reboot&start=2026-01-02&page=x&size=7'));
    expect(bad).toEqual({ plantId: undefined, sn: '', kind: undefined, range: undefined, page: 1, size: 20 });
  });

  it('writes criteria back without the defaults', () => {
    const c = parseCriteria(new URLSearchParams('kind=restart&page=3'));
    expect(criteriaSearch(c).toString()).toBe('kind=restart&page=3');
    expect(criteriaSearch(parseCriteria(new URLSearchParams())).toString()).toBe('');
  });

  it('asks for local days as instants, the end day included, and an SN only when valid', () => {
    const c = parseCriteria(new URLSearchParams('sn=INV1&start=2026-01-02&end=2026-01-05'));
    const q = serverQuery(c, true);
    expect(q).toMatchObject({ sn: 'INV1', page: 1, size: 20 });
    expect(new Date(q.startTime!).getTime()).toBe(new Date(2026, 0, 2).getTime());
    expect(new Date(q.endTime!).getTime()).toBe(new Date(2026, 0, 6).getTime());
    expect(serverQuery(c, false)).not.toHaveProperty('sn');
  });
});
