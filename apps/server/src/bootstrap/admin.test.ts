/** The first administrator: made once, also when two processes start together on an empty store. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStore, type TestStore } from '../../test/store.ts';
import { loadConfig } from '../config.ts';
import { ensureAdmin } from './admin.ts';

let store: TestStore;
beforeAll(async () => {
  store = await openTestStore();
});
afterAll(async () => {
  await store?.close();
});

describe('the first administrator', () => {
  it('is made once by two starts at the same moment, and not again later', async () => {
    const config = loadConfig({ PASSWORD_COST: 'test' });
    const made = await Promise.all([ensureAdmin(store.db, config), ensureAdmin(store.db, config)]);
    expect(made.filter((m) => m !== null)).toHaveLength(1);
    expect(made.find((m) => m !== null)).toMatchObject({ account: 'admin@sunfleet.local' });
    const admins = await store.db.selectFrom('users').select('id').where('kind', '=', 'sysadmin').execute();
    expect(admins).toHaveLength(1);
    expect(await ensureAdmin(store.db, config)).toBeNull();
  });
});
