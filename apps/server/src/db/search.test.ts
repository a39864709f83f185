/**
 * "Contains" search folds case and accents alike on SQLite and PostgreSQL: "MÁLAGA", "malaga"
 * and "Málaga" find one another; the searched text's `%`, `_` and `!` are literal.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/harness.ts';
import { account, createPlant } from '../../test/kits/plants.ts';
import { openTestStore, type TestStore } from '../../test/store.ts';
import { containsText, foldText, skeletonPattern } from './search.ts';

describe('foldText', () => {
  it('lowers case and removes the accents of vowels, ñ and ç', () => {
    expect(foldText('MÁLAGA')).toBe('malaga');
    expect(foldText('Ñandú São Paulo Çà ÉTÉ Ÿ')).toBe('nandu sao paulo ca ete y');
  });

  it('the skeleton a column must match first: a letter with accented forms is any one character', () => {
    expect(skeletonPattern('Málaga')).toBe('%m_l_g_%');
    expect(skeletonPattern(' 100%_! ')).toBe('%100!%!_!!%');
  });
});

const NAMES = [
  'Málaga',
  'MÁLAGA Norte',
  'malaga sur',
  'Córdoba',
  'ÑANDÚ',
  'São Paulo',
  'Mëlaga',
  'Rate 100%',
  'Rate 1000',
  'a_b',
  'axb',
];

describe('containsText on the store', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await openTestStore(2);
    await sql`create table search_probe (name text)`.execute(store.db);
    for (const name of [...NAMES, null]) await sql`insert into search_probe (name) values (${name})`.execute(store.db);
  });
  afterAll(() => store?.close());

  const found = async (text: string) =>
    (
      await sql<{ name: string }>`select name from search_probe where ${containsText(['name'], text)} order by name`.execute(
        store.db,
      )
    ).rows
      .map((r) => r.name)
      .sort();

  it('finds every case and accent of the text', async () => {
    const malaga = ['MÁLAGA Norte', 'Málaga', 'malaga sur'];
    expect(await found('MÁLAGA')).toEqual(malaga);
    expect(await found('malaga')).toEqual(malaga);
    expect(await found('Málaga')).toEqual(malaga);
    expect(await found('CORDOBA')).toEqual(['Córdoba']);
    expect(await found('ñandu')).toEqual(['ÑANDÚ']);
    expect(await found('nandú')).toEqual(['ÑANDÚ']);
    expect(await found('sao')).toEqual(['São Paulo']);
  });

  it('takes the text’s wildcards literally', async () => {
    expect(await found('100%')).toEqual(['Rate 100%']);
    expect(await found('_')).toEqual(['a_b']);
    expect(await found('!')).toEqual([]);
  });
});

describe('list searches', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(() => s?.close());

  it('the plant list finds "Málaga" by "MÁLAGA" and "malaga"', async () => {
    const owner = await account(s);
    await createPlant(s, owner, { name: 'Málaga Roof' });
    await createPlant(s, owner, { name: 'Sevilla Roof' });
    for (const text of ['MÁLAGA', 'malaga', 'Málaga']) {
      const res = await s.call(owner.token, 'GET', `/api/v1/plants?name=${encodeURIComponent(text)}`);
      expect(
        (res.body.data as { list: { name: string }[] }).list.map((p) => p.name),
        text,
      ).toEqual(['Málaga Roof']);
    }
  });
});
