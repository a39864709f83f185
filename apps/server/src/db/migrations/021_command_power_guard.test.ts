import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStore, type TestStore } from '../../../test/store.ts';
import * as m021 from './021_command_power_guard.ts';

let store: TestStore;
beforeAll(async () => {
  store = await openTestStore(1);
});
afterAll(() => store.close());

const job = (id: string, device: string, type: string, state: string, createdAt: number) => ({
  id,
  gateway_sn: 'GW021',
  device_sn: device,
  batch_id: null,
  type,
  state,
  body: '{}',
  reply: null,
  error: null,
  requested_by: 1,
  timeout_ms: 1000,
  expires_at: createdAt + 1000,
  created_at: createdAt,
  sent_at: null,
  last_sent_at: null,
  acknowledged_at: null,
  finished_at: null,
});

describe('021: one open power job per device', () => {
  it('fails all but the newest open power job of a device stored before it, then refuses a second one', async () => {
    const db = store.db;
    await m021.down(db); // the store as it was before 021
    await db
      .insertInto('command_jobs')
      .values([
        job('a-old', 'INV021A', 'shutdown', 'sent', 1),
        job('a-new', 'INV021A', 'boot', 'queued', 2),
        job('a-done', 'INV021A', 'boot', 'succeeded', 0),
        job('a-debug', 'INV021A', 'debug', 'sent', 0),
        job('b-one', 'INV021B', 'boot', 'acknowledged', 1),
      ])
      .execute();
    await m021.up(db);
    const states = Object.fromEntries(
      (await db.selectFrom('command_jobs').select(['id', 'state', 'error']).where('gateway_sn', '=', 'GW021').execute()).map(
        (r) => [r.id, r.state],
      ),
    );
    expect(states).toEqual({
      'a-old': 'failed',
      'a-new': 'queued',
      'a-done': 'succeeded',
      'a-debug': 'sent',
      'b-one': 'acknowledged',
    });
    const events = await db.selectFrom('command_job_events').select(['job_id', 'state', 'detail']).execute();
    expect(events).toEqual([{ job_id: 'a-old', state: 'failed', detail: 'superseded by a later power command' }]);
    // Another open power job of a device that has one is refused; a debug job is not a power job.
    await expect(
      db
        .insertInto('command_jobs')
        .values(job('b-two', 'INV021B', 'shutdown', 'queued', 3))
        .execute(),
    ).rejects.toThrow();
    await db
      .insertInto('command_jobs')
      .values(job('b-debug', 'INV021B', 'debug', 'queued', 3))
      .execute();
    await db
      .insertInto('command_jobs')
      .values(job('a-after', 'INV021C', 'shutdown', 'queued', 3))
      .execute();
  });
});
