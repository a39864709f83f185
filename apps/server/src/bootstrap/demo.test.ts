/**
 * The demo set-up is made once and found again by what it recorded, not by a name: a start after
 * an administrator renamed the demo company and its customer type, or deleted a demo account,
 * makes nothing again and does not fail.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestStore, type TestStore } from '../../test/store.ts';
import { loadConfig } from '../config.ts';
import { demoAccounts, ensureDemo } from './demo.ts';

const config = loadConfig({ PASSWORD_COST: 'test' });
let store: TestStore;
beforeEach(async () => {
  store = await openTestStore();
});
afterEach(async () => {
  await store?.close();
});

const count = async (table: 'users' | 'companies' | 'customer_types' | 'plants') =>
  Number(
    (
      await store.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('the demo set-up', () => {
  it('is made once; a start after the company and its customer type were renamed makes nothing again', async () => {
    expect(await ensureDemo(store.db, config)).toBe(true);
    const before = { users: await count('users'), companies: await count('companies'), types: await count('customer_types') };
    expect(before.companies).toBe(1);
    await store.db.updateTable('companies').set({ name: 'Renamed Installers Ltd' }).execute();
    await store.db.updateTable('customer_types').set({ name: 'Partner' }).execute();
    expect(await ensureDemo(store.db, config)).toBe(false);
    expect({ users: await count('users'), companies: await count('companies'), types: await count('customer_types') }).toEqual(
      before,
    );
  });

  it('a start after a demo account was deleted and the company renamed makes nothing again', async () => {
    expect(await ensureDemo(store.db, config)).toBe(true);
    const plants = await count('plants');
    await store.db.deleteFrom('users').where('account', '=', demoAccounts.companyAdmin).execute();
    await store.db.updateTable('companies').set({ name: 'Renamed Installers Ltd' }).execute();
    expect(await ensureDemo(store.db, config)).toBe(false);
    expect(await count('companies')).toBe(1);
    expect(await count('plants')).toBe(plants);
  });

  it('a store whose demo was made before it was recorded is recognised by its accounts, and recorded', async () => {
    expect(await ensureDemo(store.db, config)).toBe(true);
    await store.db.deleteFrom('bootstrap_steps').execute();
    await store.db.updateTable('companies').set({ name: 'Renamed Installers Ltd' }).execute();
    expect(await ensureDemo(store.db, config)).toBe(false);
    expect(await count('companies')).toBe(1);
    const steps = await store.db.selectFrom('bootstrap_steps').select('name').execute();
    expect(steps.map((r) => r.name)).toEqual(['demo']);
  });

  it('two starts at the same moment make it once', async () => {
    const made = await Promise.all([ensureDemo(store.db, config), ensureDemo(store.db, config)]);
    expect(made.filter(Boolean)).toHaveLength(1);
    expect(await count('companies')).toBe(1);
  });
});
