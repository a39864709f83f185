/**
 * Replies committed as a group: many replies of one group are stored with one update and one
 * insert of events, in arrival order per job (accepted then ok in one group is acknowledged then
 * succeeded), each refusal kept apart, and a job another process moved first keeps that change.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStore, type TestStore } from '../../test/store.ts';
import { applyChanges, insertJobs, jobById, jobEvents } from './jobs.repo.ts';
import { replyCommitter } from './replies.ts';

let s: TestStore;
beforeAll(async () => {
  s = await openTestStore();
});
afterAll(() => s.close());

let made = 0;
async function sentJobs(gatewaySn: string, n: number): Promise<string[]> {
  const at = 1_000;
  const rows = Array.from({ length: n }, () => ({
    id: `job-${++made}`,
    gateway_sn: gatewaySn,
    device_sn: null,
    batch_id: null,
    type: 'restart',
    state: 'sent',
    body: '{"type":"restart"}',
    reply: null,
    error: null,
    requested_by: 1,
    timeout_ms: 60_000,
    expires_at: at + 60_000,
    created_at: at,
    sent_at: at,
    last_sent_at: at,
    acknowledged_at: null,
    finished_at: null,
  }));
  await insertJobs(s.db, rows);
  return rows.map((r) => r.id);
}

const reply = (id: string, status: 'accepted' | 'progress' | 'ok' | 'error', error?: string) => ({
  v: 1 as const,
  id,
  ts: 2_000,
  status,
  ...(error ? { error } : {}),
});

describe('a group of replies', () => {
  it('is applied in arrival order per job, with every state change recorded, refusals apart', async () => {
    const [a, b, c, d] = await sentJobs('GWA', 4);
    const many = await sentJobs('GWA', 600);
    const committer = replyCommitter(s.db, () => 5_000);
    // Handed in within one tick: one group.
    const outcomes = await Promise.all([
      committer.add('GWA', reply(a!, 'accepted')),
      committer.add('GWA', reply(a!, 'progress')),
      committer.add('GWA', reply(a!, 'ok')),
      committer.add('GWA', reply(b!, 'error', 'device busy')),
      committer.add('GWB', reply(c!, 'ok')),
      committer.add('GWA', reply('job-none', 'ok')),
      committer.add('GWA', reply(d!, 'accepted')),
      committer.add('GWA', reply(d!, 'accepted')),
      committer.add('GWA', reply(b!, 'ok')),
      ...many.map((id) => committer.add('GWA', reply(id, 'ok'))),
    ]);
    expect(outcomes.slice(0, 9).map((o) => (o === null || typeof o === 'string' ? o : o.state))).toEqual([
      'acknowledged',
      null,
      'succeeded',
      'failed',
      'foreignGateway',
      'unknownJob',
      'acknowledged',
      null,
      'notOpen',
    ]);
    expect(await jobById(s.db, a!)).toMatchObject({ state: 'succeeded', finished_at: expect.anything() });
    expect(Number((await jobById(s.db, a!))!.acknowledged_at)).toBe(5_000);
    expect((await jobEvents(s.db, a!)).map((e) => e.state)).toEqual(['queued', 'acknowledged', 'succeeded']);
    expect(await jobById(s.db, b!)).toMatchObject({ state: 'failed', error: 'device busy' });
    expect(await jobEvents(s.db, b!)).toEqual([
      expect.objectContaining({ state: 'queued' }),
      { state: 'failed', at: 5_000, detail: 'device busy' },
    ]);
    expect(await jobById(s.db, c!)).toMatchObject({ state: 'sent', finished_at: null });
    expect((await jobEvents(s.db, d!)).map((e) => e.state)).toEqual(['queued', 'acknowledged']);
    // More jobs than one update statement takes.
    expect(outcomes.slice(9).every((o) => o !== null && typeof o === 'object' && o.state === 'succeeded')).toBe(true);
    const stored = await s.db.selectFrom('command_jobs').select('state').where('id', 'in', many).execute();
    expect(stored.every((r) => r.state === 'succeeded')).toBe(true);
  });

  it('a change worked out against a job another process has moved since is not applied', async () => {
    const [a, b] = await sentJobs('GWC', 2);
    await s.db.updateTable('command_jobs').set({ state: 'timed_out', error: 'timed out' }).where('id', '=', a!).execute();
    const change = {
      gatewaySn: 'GWC',
      expect: 'sent',
      state: 'succeeded',
      acknowledgedAt: 7,
      finishedAt: 7,
      reply: '{}',
      error: null,
      progress: null,
      stage: null,
    };
    const applied = await applyChanges(s.db, [
      { id: a!, ...change },
      { id: b!, ...change },
      { id: b!.replace('job', 'nojob'), ...change },
    ]);
    expect([...applied]).toEqual([b]);
    expect(await jobById(s.db, a!)).toMatchObject({ state: 'timed_out', error: 'timed out' });
    expect(await jobById(s.db, b!)).toMatchObject({ state: 'succeeded', reply: '{}', error: null });
  });
});
