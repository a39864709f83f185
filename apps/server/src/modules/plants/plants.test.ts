/** Create, read, edit, delete a plant: every plant field, each with its validation rule. */

import { ErrorCode } from '@sunfleet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness.ts';
import { type Account, account, company, createPlant, uniqueName } from '../../../test/kits/plants.ts';

let s: TestServer;
let owner: Account;
let admin: Account;
let companyId: number;

const valid = { name: 'Sunny Acres', capacity: 12.5, type: 0, timezone: 'Europe/Madrid' };
const post = (who: Account, url: string, body?: unknown) => s.call(who.token, 'POST', url, body);
const get = (who: Account, url: string) => s.call(who.token, 'GET', url);
const plantCount = async () =>
  Number(
    (
      await s.db
        .selectFrom('plants')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

beforeAll(async () => {
  s = await startServer();
  owner = await account(s);
  companyId = await company(s);
  admin = await account(s, { kind: 'company_admin', companyId });
});
afterAll(() => s.close());

describe('create', () => {
  it('creates an owner’s plant with every field and reads it back', async () => {
    const body = {
      ...valid,
      name: '  Casa del Sol  ',
      type: 1,
      commissioningDate: '2025-06-01',
      currency: 'EUR',
      valuationMethod: 'tou',
      price: 0.15,
      priceSegments: [
        { start: '08:00', end: '20:00', price: 0.25 },
        { start: '00:00', end: '08:00', price: 0.1 },
        { start: '20:00', end: '23:59', price: 0.18 },
      ],
      longitude: -5.98,
      latitude: 37.39,
      address: 'Calle del Sol 1, Sevilla',
      alias: 'Home',
      totalInvestment: 8500.5,
      income: 120.25,
      contactName: 'Ana García',
      contactPhone: '+34 600 000 000',
    };
    const res = await post(owner, '/api/v1/plant', body);
    expect(res.body.code).toBe(ErrorCode.ok);
    expect(res.body.data).toMatchObject({
      name: 'Casa del Sol',
      type: 1,
      capacity: 12.5,
      status: 'offline',
      commissioningDate: '2025-06-01',
      currency: 'EUR',
      valuationMethod: 'tou',
      price: 0.15,
      // Stored in order of the day.
      priceSegments: [
        { start: '00:00', end: '08:00', price: 0.1 },
        { start: '08:00', end: '20:00', price: 0.25 },
        { start: '20:00', end: '23:59', price: 0.18 },
      ],
      longitude: -5.98,
      latitude: 37.39,
      address: 'Calle del Sol 1, Sevilla',
      timezone: 'Europe/Madrid',
      alias: 'Home',
      totalInvestment: 8500.5,
      income: 120.25,
      contactName: 'Ana García',
      contactPhone: '+34 600 000 000',
      owner: { id: owner.id, account: owner.account },
      company: null,
      role: 'owner',
      canEdit: true,
      canManage: true,
      gateways: [],
      power: null,
      todayEnergy: 0,
      totalEnergy: 0,
      alarms: 0,
    });
    const id = (res.body.data as { id: number }).id;
    expect((await get(owner, `/api/v1/plant/${id}`)).body.data).toEqual(res.body.data);
  });

  it('a company account’s plant is a company plant', async () => {
    const id = await createPlant(s, admin);
    const row = await s.db
      .selectFrom('plants')
      .select(['owner_user_id', 'company_id'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ owner_user_id: null, company_id: companyId });
    expect((await get(admin, `/api/v1/plant/${id}`)).body.data).toMatchObject({ role: 'company', canManage: true, owner: null });
    const rows = ((await get(admin, '/api/v1/plants?size=100')).body.data as { list: { id: number }[] }).list;
    expect(rows.find((p) => p.id === id)).toMatchObject({ role: 'company', canEdit: true, canManage: true });
  });

  it('stores the runtime’s name for a zone link', async () => {
    const res = await post(owner, '/api/v1/plant', { ...valid, name: uniqueName(), timezone: 'Etc/UTC' });
    expect(res.body.data).toMatchObject({ timezone: 'UTC' });
  });

  it('a read-only account cannot create (2)', async () => {
    const ro = await account(s, { readOnly: true });
    expect((await post(ro, '/api/v1/plant', valid)).body.code).toBe(ErrorCode.noPermission);
  });

  const refusals: Array<[string, Record<string, unknown>, number]> = [
    ['a 4-character name', { name: 'Abcd' }, ErrorCode.validation],
    ['a name of 5 only with spaces around', { name: '  Abcd  ' }, ErrorCode.validation],
    ['a 33-character name', { name: 'x'.repeat(33) }, ErrorCode.validation],
    ['a name with forbidden characters', { name: 'Plant <one>' }, ErrorCode.validation],
    ['no name', { name: undefined }, ErrorCode.validation],
    ['a negative capacity', { capacity: -1 }, ErrorCode.validation],
    ['a capacity over 50000', { capacity: 50000.01 }, ErrorCode.validation],
    ['a capacity with three decimals', { capacity: 1.234 }, ErrorCode.validation],
    ['an unknown type', { type: 3 }, ErrorCode.validation],
    ['a price over 9999', { price: 9999.01 }, ErrorCode.validation],
    ['a price with three decimals', { price: 1.005 }, ErrorCode.validation],
    ['a negative price', { price: -0.01 }, ErrorCode.validation],
    ['an unknown time zone', { timezone: 'Mars/Olympus' }, ErrorCode.validation],
    ['an unknown currency', { currency: 'ABC' }, ErrorCode.validation],
    ['an impossible date', { commissioningDate: '2025-02-30' }, ErrorCode.validation],
    ['a badly formed date', { commissioningDate: '1/2/2025' }, ErrorCode.validation],
    ['a picture from elsewhere', { picture: 'https://example.com/x.png' }, ErrorCode.validation],
    ['a field that does not exist', { owner_user_id: 1 }, ErrorCode.validation],
    ['a latitude over 90', { latitude: 90.5, longitude: 0 }, ErrorCode.coordinates],
    ['a longitude under -180', { latitude: 0, longitude: -180.5 }, ErrorCode.coordinates],
    ['a latitude without longitude', { latitude: 10 }, ErrorCode.coordinates],
    ['an investment over the value limit', { totalInvestment: 10000000 }, ErrorCode.validation],
    ['time of use without segments', { valuationMethod: 'tou' }, ErrorCode.validation],
    [
      '7 price segments',
      { valuationMethod: 'tou', priceSegments: Array.from({ length: 7 }, () => ({ start: '00:00', end: '23:59', price: 1 })) },
      ErrorCode.validation,
    ],
    [
      'segments with a gap',
      {
        valuationMethod: 'tou',
        priceSegments: [
          { start: '00:00', end: '08:00', price: 1 },
          { start: '09:00', end: '23:59', price: 2 },
        ],
      },
      ErrorCode.validation,
    ],
    [
      'overlapping segments',
      {
        valuationMethod: 'tou',
        priceSegments: [
          { start: '00:00', end: '10:00', price: 1 },
          { start: '09:00', end: '23:59', price: 2 },
        ],
      },
      ErrorCode.validation,
    ],
    [
      'segments ending before 23:59',
      { valuationMethod: 'tou', priceSegments: [{ start: '00:00', end: '23:00', price: 1 }] },
      ErrorCode.validation,
    ],
    [
      'segments starting after 00:00',
      { valuationMethod: 'tou', priceSegments: [{ start: '01:00', end: '23:59', price: 1 }] },
      ErrorCode.validation,
    ],
    [
      'a segment ending where it starts',
      {
        valuationMethod: 'tou',
        priceSegments: [
          { start: '00:00', end: '00:00', price: 1 },
          { start: '00:00', end: '23:59', price: 1 },
        ],
      },
      ErrorCode.validation,
    ],
    [
      'a segment hour 24:00',
      { valuationMethod: 'tou', priceSegments: [{ start: '00:00', end: '24:00', price: 1 }] },
      ErrorCode.validation,
    ],
    [
      'a segment price with three decimals',
      { valuationMethod: 'tou', priceSegments: [{ start: '00:00', end: '23:59', price: 0.125 }] },
      ErrorCode.validation,
    ],
  ];
  it.each(refusals)('refuses %s and writes nothing', async (_what, change, code) => {
    const before = await plantCount();
    const res = await post(owner, '/api/v1/plant', { ...valid, name: uniqueName(), ...change });
    expect(res.body.code).toBe(code);
    if (code === ErrorCode.validation) {
      expect(res.body.msg).toMatch(/body/);
      // It names the field changed (a time-of-use plan without a good day of segments: the segments).
      expect([...Object.keys(change), 'priceSegments']).toContain(
        (res.body.data as { fields: string[] } | null)?.fields[0]?.split('.')[0],
      );
    } else expect(res.body.data).toBeNull();
    expect(await plantCount()).toBe(before);
  });

  it('explains a segment gap in the message', async () => {
    const res = await post(owner, '/api/v1/plant', {
      ...valid,
      valuationMethod: 'tou',
      priceSegments: [
        { start: '00:00', end: '08:00', price: 1 },
        { start: '09:00', end: '23:59', price: 2 },
      ],
    });
    expect(res.body.msg).toContain('nothing covers 08:00–09:00');
  });

  it('accepts the limits themselves', async () => {
    const res = await post(owner, '/api/v1/plant', {
      name: 'x'.repeat(32),
      capacity: 50000,
      type: 2,
      timezone: 'UTC',
      price: 9999,
      latitude: -90,
      longitude: 180,
      valuationMethod: 'tou',
      priceSegments: Array.from({ length: 6 }, (_, i) => ({
        start: i === 0 ? '00:00' : `${String(i * 4).padStart(2, '0')}:00`,
        end: i === 5 ? '23:59' : `${String((i + 1) * 4).padStart(2, '0')}:00`,
        price: 9999,
      })),
    });
    expect(res.body.code).toBe(ErrorCode.ok);
    expect((await post(owner, '/api/v1/plant', { ...valid, name: 'Fiver', capacity: 0, price: 0 })).body.code).toBe(ErrorCode.ok);
  });
});

describe('edit', () => {
  let id: number;
  beforeAll(async () => {
    id = await createPlant(s, owner, { latitude: 40, longitude: -3, price: 0.2, contactName: 'Luis' });
  });

  it('info changes only the fields sent', async () => {
    const res = await post(owner, `/api/v1/plant/${id}/info`, { name: 'Renamed plant', capacity: 20, commissioningDate: null });
    expect(res.body.data).toMatchObject({
      name: 'Renamed plant',
      capacity: 20,
      latitude: 40,
      longitude: -3,
      price: 0.2,
      contactName: 'Luis',
    });
  });

  it('info refuses income fields, income refuses info fields (each call has its section)', async () => {
    expect((await post(owner, `/api/v1/plant/${id}/info`, { price: 1 })).body.code).toBe(ErrorCode.validation);
    expect((await post(owner, `/api/v1/plant/${id}/income`, { name: 'Other name' })).body.code).toBe(ErrorCode.validation);
    expect((await post(owner, `/api/v1/plant/${id}/contacts`, { capacity: 3 })).body.code).toBe(ErrorCode.validation);
  });

  it('checks coordinates against the stored ones: one side cleared alone is 10', async () => {
    expect((await post(owner, `/api/v1/plant/${id}/info`, { latitude: 41.5 })).body.data).toMatchObject({
      latitude: 41.5,
      longitude: -3,
    });
    expect((await post(owner, `/api/v1/plant/${id}/info`, { longitude: null })).body.code).toBe(ErrorCode.coordinates);
    expect((await post(owner, `/api/v1/plant/${id}/info`, { longitude: 200 })).body.code).toBe(ErrorCode.coordinates);
    expect((await post(owner, `/api/v1/plant/${id}/info`, { latitude: null, longitude: null })).body.data).toMatchObject({
      latitude: null,
      longitude: null,
    });
  });

  it('income: time of use with segments, then constant drops them', async () => {
    const segments = [
      { start: '00:00', end: '12:00', price: 0.1 },
      { start: '12:00', end: '23:59', price: 0.3 },
    ];
    const tou = await post(owner, `/api/v1/plant/${id}/income`, {
      valuationMethod: 'tou',
      priceSegments: segments,
      currency: 'USD',
    });
    expect(tou.body.data).toMatchObject({ valuationMethod: 'tou', priceSegments: segments, currency: 'USD' });
    // Segments alone are checked against the stored method.
    expect((await post(owner, `/api/v1/plant/${id}/income`, { priceSegments: [segments[0]] })).body.code).toBe(
      ErrorCode.validation,
    );
    expect((await post(owner, `/api/v1/plant/${id}/income`, { valuationMethod: 'tou', priceSegments: [] })).body.code).toBe(
      ErrorCode.validation,
    );
    const constant = await post(owner, `/api/v1/plant/${id}/income`, { valuationMethod: 'constant', price: 0.22, income: 10 });
    expect(constant.body.data).toMatchObject({ valuationMethod: 'constant', priceSegments: [], price: 0.22, income: 10 });
    expect((await post(owner, `/api/v1/plant/${id}/income`, { valuationMethod: 'generation' })).body.data).toMatchObject({
      valuationMethod: 'generation',
    });
  });

  it('contacts, and the whole-plant edit', async () => {
    const res = await post(owner, `/api/v1/plant/${id}/contacts`, { contactName: '  ', contactPhone: '+1 555-0100' });
    expect(res.body.data).toMatchObject({ contactName: null, contactPhone: '+1 555-0100' });
    expect((await post(owner, `/api/v1/plant/${id}/contacts`, { contactPhone: 'call me' })).body.code).toBe(ErrorCode.validation);
    const all = await post(owner, `/api/v1/plant/${id}`, {
      name: 'All at once',
      alias: 'AA',
      type: 2,
      timezone: 'America/New_York',
      contactName: 'Eva',
    });
    expect(all.body.data).toMatchObject({
      name: 'All at once',
      alias: 'AA',
      type: 2,
      timezone: 'America/New_York',
      contactName: 'Eva',
    });
    expect((await post(owner, `/api/v1/plant/${id}`, { name: 'Bad' })).body.code).toBe(ErrorCode.validation);
  });
});

describe('delete', () => {
  it('the owner deletes: the plant is gone for everyone, its shares end', async () => {
    const id = await createPlant(s, owner);
    const friend = await account(s);
    await post(owner, `/api/v1/plant/${id}/share`, { account: friend.account, role: 'manager' });
    expect((await post(owner, `/api/v1/plant/${id}/delete`)).body).toMatchObject({ code: ErrorCode.ok, data: null });
    expect((await get(owner, `/api/v1/plant/${id}`)).body).toMatchObject({ code: ErrorCode.plantMissing, data: null });
    expect((await get(friend, `/api/v1/plant/${id}`)).body.code).toBe(ErrorCode.plantMissing);
    expect(await s.db.selectFrom('plant_shares').select('user_id').where('plant_id', '=', id).execute()).toEqual([]);
    expect((await post(owner, `/api/v1/plant/${id}/delete`)).body.code).toBe(ErrorCode.plantMissing);
  });
});
