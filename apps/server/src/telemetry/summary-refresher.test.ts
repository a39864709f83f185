/** Plant summary passes: a pass the store refuses keeps its plants for the next one. */
import type { KyselyPlugin } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStore, type TestStore } from '../../test/store.ts';
import { dataMessage, HYBRID, makeGateway, makePlant, uniqueSn } from '../../test/telemetry.ts';
import { silentLogger } from '../log.ts';
import { createIngest } from './ingest/pipeline.ts';
import { startSummaryRefresher } from './summary-refresher.ts';

let store: TestStore;
beforeAll(async () => {
  store = await openTestStore();
});
afterAll(async () => {
  await store?.close();
});

describe('summary refresher', () => {
  it('refreshes the touched plants again after a pass the store refused', async () => {
    const plantId = await makePlant(store.db);
    const gw = await makeGateway(store.db, plantId);
    const t = Date.now() - 60_000;
    const ingest = createIngest({ db: store.db, dialect: store.dialect, log: silentLogger });
    ingest.message(gw.sn, 'data', dataMessage(t, [{ sn: uniqueSn('INV'), protocol: HYBRID, values: { activePower: 1234 } }]), t);
    await ingest.close();
    await store.db.updateTable('plants').set({ power_w: null, last_data_at: null }).where('id', '=', plantId).execute();

    let down = true;
    const outage: KyselyPlugin = {
      transformQuery: (args) => {
        if (down) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
        return args.node;
      },
      transformResult: async (args) => args.result,
    };
    const refresher = startSummaryRefresher(store.db.withPlugin(outage), pino({ level: 'silent' }), 60_000);
    try {
      refresher.touch([plantId]);
      expect(await refresher.runOnce()).toBe(false);
      down = false;
      expect(await refresher.runOnce()).toBe(true);
      const plant = await store.db
        .selectFrom('plants')
        .select(['power_w', 'last_data_at'])
        .where('id', '=', plantId)
        .executeTakeFirstOrThrow();
      expect({ power: plant.power_w, lastData: Number(plant.last_data_at) }).toEqual({ power: 1234, lastData: t });
    } finally {
      await refresher.stop();
    }
  });
});
