/** Dictionaries: currencies, time zones with offsets, plant types, protocols. */

import { ErrorCode } from '@sunfleet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness.ts';

let s: TestServer;
let token: string;
const get = async (url: string) => {
  const res = await s.call(token, 'GET', url);
  expect(res.body.code).toBe(ErrorCode.ok);
  return res.body.data as Array<Record<string, unknown>>;
};

beforeAll(async () => {
  s = await startServer();
  token = (await s.login((await s.user()).account)).access;
});
afterAll(() => s.close());

describe('dictionaries', () => {
  it('dict/currencies: ISO codes with names in the asked language', async () => {
    const en = await get('/api/v1/dict/currencies?lan=en');
    expect(en).toContainEqual({ code: 'EUR', name: 'Euro', symbol: '€' });
    expect(en).toContainEqual(expect.objectContaining({ code: 'USD', name: 'US Dollar' }));
    const es = await get('/api/v1/dict/currencies?lan=es');
    expect(es).toContainEqual(expect.objectContaining({ code: 'USD', name: 'dólar estadounidense' }));
  });

  it('dict/timezones: IANA zones and UTC with their current offset, by offset', async () => {
    const zones = await get('/api/v1/dict/timezones');
    expect(zones.length).toBeGreaterThan(300);
    expect(zones).toContainEqual({ id: 'UTC', offset: '+00:00', offsetMinutes: 0 });
    expect(zones).toContainEqual({ id: 'Asia/Tokyo', offset: '+09:00', offsetMinutes: 540 });
    expect(zones.find((z) => z.offsetMinutes === 330)).toMatchObject({ offset: '+05:30' });
    expect(zones).toContainEqual({ id: 'Pacific/Kiritimati', offset: '+14:00', offsetMinutes: 840 });
    const offsets = zones.map((z) => z.offsetMinutes as number);
    expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
  });

  it('dict/plantTypes: the three plant types, in English and Spanish', async () => {
    expect(await get('/api/v1/dict/plantTypes?lan=en')).toEqual([
      { value: 0, name: 'Grid-tied' },
      { value: 1, name: 'Energy storage (AC-coupled)' },
      { value: 2, name: 'Energy storage (DC-coupled)' },
    ]);
    expect((await get('/api/v1/dict/plantTypes?lan=es'))[0]).toEqual({ value: 0, name: 'Conectada a red' });
  });

  it('dict/protocols: the protocols the server decodes', async () => {
    const list = await get('/api/v1/dict/protocols?lan=es');
    expect(list.length).toBeGreaterThanOrEqual(5);
    expect(list).toContainEqual(
      expect.objectContaining({ kind: 'inverter', id: expect.any(String), version: expect.any(String) }),
    );
  });

  it('needs a signed-in caller (401)', async () => {
    expect((await s.call(null, 'GET', '/api/v1/dict/timezones')).status).toBe(401);
  });
});
