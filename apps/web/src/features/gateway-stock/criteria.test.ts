import { describe, expect, it } from 'vitest';
import { criteriaSearch, DEFAULT_SIZE, isFiltered, parseCriteria, serverFilters } from './criteria.ts';
import { parseBatchLines, secretsCsv } from './secrets.ts';

describe('stock criteria', () => {
  it('reads the address and writes it back without defaults', () => {
    const c = parseCriteria(new URLSearchParams('q=GW1&customerId=7&protocol=sunfleet-weather&binding=unbound&page=3&size=50'));
    expect(c).toEqual({ keyword: 'GW1', customerId: 7, protocol: 'sunfleet-weather', binding: 'unbound', page: 3, size: 50 });
    expect(criteriaSearch(c).toString()).toBe('q=GW1&customerId=7&protocol=sunfleet-weather&binding=unbound&page=3&size=50');
    expect(criteriaSearch(parseCriteria(new URLSearchParams())).toString()).toBe('');
  });

  it('drops what the server would refuse', () => {
    const c = parseCriteria(new URLSearchParams(`q=${'A'.repeat(40)}&customerId=-1&binding=maybe&size=33&page=0`));
    expect(c).toEqual({ keyword: 'A'.repeat(32), page: 1, size: DEFAULT_SIZE });
    expect(isFiltered(c)).toBe(true);
    expect(serverFilters({ keyword: '', page: 1, size: 20 })).toEqual({});
    expect(isFiltered({ keyword: '', page: 1, size: 20 })).toBe(false);
  });
});

describe('secrets', () => {
  it('writes a CSV with the header and quotes what needs it', () => {
    const csv = secretsCsv(
      [{ id: 1, sn: 'GW1', claimKey: 'K', secret: 'a,b', firmwareKey: 'F=' }],
      ['SN', 'Claim key', 'Device secret', 'Firmware key'],
    );
    expect(csv).toBe('SN,Claim key,Device secret,Firmware key\r\nGW1,K,"a,b",F=\r\n');
  });

  it('reads a batch typed one per line', () => {
    expect(parseBatchLines('GW1\n\n GW2 , sunfleet-weather , Roof \nGW3;;x')).toEqual([
      { sn: 'GW1' },
      { sn: 'GW2', protocol: 'sunfleet-weather', alias: 'Roof' },
      { sn: 'GW3', alias: 'x' },
    ]);
  });
});
