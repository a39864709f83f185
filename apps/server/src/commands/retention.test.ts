/**
 * Retention of command jobs, on a fake clock: final jobs finished longer ago than the retention
 * are deleted with their state changes, in batches; open jobs never; a job a setting change or a
 * maintenance-log entry still points at stays until that entry is past the retention too, and
 * then the entry's pointer is cleared.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/harness.ts';
import { device, gateway, storePlant } from '../../test/kits/plants.ts';
import { housekeep } from '../jobs/housekeeping.ts';
import { insertJobs } from './jobs.repo.ts';
import { pruneCommandJobs } from './retention.ts';

const DAY = 86_400_000;
const NOW = 1_900_000_000_000;
let s: TestServer;
let userId: number;
let gatewayId: number;
let plantId: number;
let seq = 0;
const uuid = () => `00000000-0000-4000-8000-${String(++seq).padStart(12, '0')}`;

beforeAll(async () => {
  s = await startServer();
  userId = (await s.user()).id;
  plantId = await storePlant(s, { owner_user_id: userId });
  const gw = await gateway(s, plantId);
  gatewayId = (await s.db.selectFrom('gateways').select('id').where('sn', '=', gw.sn).executeTakeFirstOrThrow()).id;
});
afterAll(() => s.close());

/** A job created `ageDays` ago, in `state`, finished then when final; with its first event. */
async function job(state: string, ageDays: number): Promise<string> {
  const at = NOW - ageDays * DAY;
  const id = `ret-${uuid()}`;
  const final = !['queued', 'sent', 'acknowledged'].includes(state);
  await insertJobs(s.db, [
    {
      id,
      gateway_sn: 'GWRET',
      device_sn: `INV${seq}`,
      batch_id: null,
      type: 'restart',
      state,
      body: '{}',
      reply: null,
      error: null,
      requested_by: userId,
      timeout_ms: 1000,
      expires_at: at + DAY,
      created_at: at,
      sent_at: null,
      last_sent_at: null,
      acknowledged_at: null,
      finished_at: final ? at : null,
    },
  ]);
  return id;
}

/** A setting change pointing at `jobId`, finished `ageDays` ago (null: still running). */
async function settingChange(jobId: string, ageDays: number | null): Promise<string> {
  const id = uuid();
  await s.db
    .insertInto('setting_changes')
    .values({
      id,
      batch_id: null,
      device_id: await device(s, gatewayId, plantId),
      device_sn: 'SN1',
      family: 'dyStore',
      group_name: 'batt',
      kind: 'write',
      revert_of: null,
      state: ageDays === null ? 'writing' : 'failed',
      requested: '{}',
      before_values: null,
      after_values: null,
      error: null,
      error_code: null,
      command_job_id: jobId,
      requested_by: userId,
      created_at: NOW - (ageDays ?? 0) * DAY,
      updated_at: NOW - (ageDays ?? 0) * DAY,
      finished_at: ageDays === null ? null : NOW - ageDays * DAY,
    })
    .execute();
  return id;
}

async function maintenance(jobId: string, ageDays: number): Promise<number> {
  const row = await s.db
    .insertInto('maintenance_log')
    .values({
      kind: 'restart',
      device_sn: 'GWRET',
      gateway_sn: 'GWRET',
      plant_id: plantId,
      user_id: userId,
      job_id: jobId,
      detail: '{}',
      result: 'succeeded',
      created_at: NOW - ageDays * DAY,
      finished_at: NOW - ageDays * DAY,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

const exists = async (id: string) =>
  !!(await s.db.selectFrom('command_jobs').select('id').where('id', '=', id).executeTakeFirst());
const events = async (id: string) =>
  (await s.db.selectFrom('command_job_events').select('id').where('job_id', '=', id).execute()).length;

describe('command job retention', () => {
  it('deletes final jobs past the retention with their events, never an open job, keeps what an audit row still needs', async () => {
    const old = await Promise.all(['succeeded', 'failed', 'timed_out', 'cancelled', 'expired'].map((st) => job(st, 181)));
    const recent = await job('succeeded', 179);
    const openOld = await Promise.all(['queued', 'sent', 'acknowledged'].map((st) => job(st, 400)));
    const forRunningChange = await job('failed', 300);
    const running = await settingChange(forRunningChange, null);
    const forRecentChange = await job('failed', 300);
    await settingChange(forRecentChange, 10);
    const forOldChange = await job('failed', 300);
    const oldChange = await settingChange(forOldChange, 200);
    const forRecentEntry = await job('succeeded', 300);
    await maintenance(forRecentEntry, 100);
    const forOldEntry = await job('succeeded', 300);
    const oldEntry = await maintenance(forOldEntry, 250);

    const result = await housekeep({ db: s.db, dataDir: s.config.dataDir, now: () => NOW });
    expect(result.commandJobs).toBe(old.length + 2);
    for (const id of [...old, forOldChange, forOldEntry]) {
      expect(await exists(id)).toBe(false);
      expect(await events(id)).toBe(0);
    }
    for (const id of [recent, ...openOld, forRunningChange, forRecentChange, forRecentEntry]) {
      expect(await exists(id)).toBe(true);
      expect(await events(id)).toBe(1);
    }
    // The audit rows past the retention stay, without a pointer at a job that is gone.
    const change = await s.db
      .selectFrom('setting_changes')
      .select('command_job_id')
      .where('id', '=', oldChange)
      .executeTakeFirstOrThrow();
    expect(change.command_job_id).toBeNull();
    const entry = await s.db.selectFrom('maintenance_log').select('job_id').where('id', '=', oldEntry).executeTakeFirstOrThrow();
    expect(entry.job_id).toBeNull();
    const kept = await s.db
      .selectFrom('setting_changes')
      .select('command_job_id')
      .where('id', '=', running)
      .executeTakeFirstOrThrow();
    expect(kept.command_job_id).toBe(forRunningChange);

    // Once the clock passes the recent one's retention, it goes too; a shorter retention is a setting.
    expect((await housekeep({ db: s.db, dataDir: s.config.dataDir, now: () => NOW + 2 * DAY })).commandJobs).toBe(1);
    expect(await exists(recent)).toBe(false);
    const month = await job('succeeded', 31);
    expect((await housekeep({ db: s.db, dataDir: s.config.dataDir, now: () => NOW })).commandJobs).toBe(0);
    // At 30 days: that job, and the one whose maintenance entry finished 100 days ago.
    expect(
      (await housekeep({ db: s.db, dataDir: s.config.dataDir, now: () => NOW, commandJobRetentionDays: 30 })).commandJobs,
    ).toBe(2);
    expect(await exists(month)).toBe(false);
    expect(await exists(forRecentEntry)).toBe(false);
    expect(await exists(forRecentChange)).toBe(true);
  });

  it('deletes in batches until none is left', async () => {
    const ids = await Promise.all(Array.from({ length: 7 }, () => job('succeeded', 1000)));
    expect(await pruneCommandJobs(s.db, NOW, 180 * DAY, 3)).toBe(7);
    for (const id of ids) expect(await exists(id)).toBe(false);
  });
});
