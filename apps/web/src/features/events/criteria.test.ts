import { describe, expect, it } from 'vitest';
import { criteriaSearch, formatDuration, isFiltered, parseCriteria, serverFilters } from './criteria.ts';

const TODAY = new Date(2026, 4, 20, 12, 0, 0);

describe('event criteria', () => {
  it('defaults: the last 7 days, page 1 of 20, nothing else', () => {
    const c = parseCriteria(new URLSearchParams(), TODAY);
    expect(c).toEqual({
      plantId: undefined,
      sn: '',
      search: '',
      kind: undefined,
      level: undefined,
      state: undefined,
      acknowledged: undefined,
      range: { start: '2026-05-14', end: '2026-05-20' },
      page: 1,
      size: 20,
    });
    expect(criteriaSearch(c, TODAY).toString()).toBe('');
    expect(isFiltered(c, TODAY)).toBe(false);
  });

  it('reads the address and writes it back; unknown values are dropped', () => {
    const c = parseCriteria(
      new URLSearchParams(
        'plantId=7&sn=INV-001&kind=battery&level=fault&state=open&ack=no&start=2026-04-01&end=2026-04-30&page=3&size=50',
      ),
      TODAY,
    );
    expect(c.plantId).toBe(7);
    expect(c.kind).toBe('battery');
    expect(c.level).toBe('fault');
    expect(c.state).toBe('open');
    expect(c.acknowledged).toBe(false);
    expect(c.range).toEqual({ start: '2026-04-01', end: '2026-04-30' });
    expect(c.page).toBe(3);
    expect(c.size).toBe(50);
    expect(criteriaSearch(c, TODAY).toString()).toBe(
      'plantId=7&sn=INV-001&kind=battery&level=fault&state=open&ack=no&start=2026-04-01&end=2026-04-30&page=3&size=50',
    );
    const odd = parseCriteria(new URLSearchParams('plantId=-2&kind=car&level=fatal&state=gone&size=33&page=x'), TODAY);
    expect([odd.plantId, odd.kind, odd.level, odd.state, odd.size, odd.page]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      20,
      1,
    ]);
  });

  it('the server query: dates and zone always, an SN only when valid', () => {
    const c = parseCriteria(new URLSearchParams('sn=INV 1&level=warning&ack=yes'), TODAY);
    expect(serverFilters(c, 'Europe/Madrid')).toEqual({
      startDate: '2026-05-14',
      endDate: '2026-05-20',
      timezone: 'Europe/Madrid',
      level: 'warning',
      acknowledged: true,
    });
    const ok = parseCriteria(new URLSearchParams('sn=INV_1-A&plantId=3'), TODAY);
    expect(serverFilters(ok, 'UTC')).toMatchObject({ sn: 'INV_1-A', plantId: 3 });
  });

  it('a search is kept in the address as q and sent from 2 characters, beside a linked SN', () => {
    const c = parseCriteria(new URLSearchParams('q=  roof east  '), TODAY);
    expect(c.search).toBe('roof east');
    expect(criteriaSearch(c, TODAY).toString()).toBe('q=roof+east');
    expect(isFiltered(c, TODAY)).toBe(true);
    expect(serverFilters(c, 'UTC')).toMatchObject({ search: 'roof east' });
    expect(serverFilters(parseCriteria(new URLSearchParams('q=r'), TODAY), 'UTC').search).toBeUndefined();
    expect(parseCriteria(new URLSearchParams(`q=${'x'.repeat(80)}`), TODAY).search).toHaveLength(64);
    const both = parseCriteria(new URLSearchParams('sn=INV_1&q=madrid'), TODAY);
    expect(serverFilters(both, 'UTC')).toMatchObject({ sn: 'INV_1', search: 'madrid' });
  });

  it('durations', () => {
    const at = '2026-05-20T10:00:00Z';
    expect(formatDuration(at, '2026-05-20T10:00:45Z')).toBe('45 s');
    expect(formatDuration(at, '2026-05-20T10:03:20Z')).toBe('3 min 20 s');
    expect(formatDuration(at, '2026-05-20T15:12:00Z')).toBe('5 h 12 min');
    expect(formatDuration(at, '2026-05-22T13:00:00Z')).toBe('2 d 3 h');
    expect(formatDuration(at, null, Date.parse('2026-05-20T11:00:00Z'))).toBe('1 h');
    expect(formatDuration('bad', null)).toBe('--');
  });
});
