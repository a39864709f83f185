/**
 * One leader among processes: on PostgreSQL by an advisory lock on a connection of its own (two
 * leaders here stand for two processes: each has its own connection); the lock passes on when
 * the leader stops or its connection is cut; jobs gated on it run in the leader only. SQLite:
 * one process, always the leader.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStore, type TestStore } from '../../test/store.ts';
import { startPeriodic } from '../jobs/periodic.ts';
import { type Leader, startLeader } from './leader.ts';

const CHECK_MS = 150;
let store: TestStore;
const started: Leader[] = [];

beforeAll(async () => {
  store = await openTestStore(2);
});
afterAll(async () => {
  for (const l of started) await l.stop();
  await store.close();
});

const leader = (name: string) => {
  const l = startLeader({ databaseUrl: store.databaseUrl, name, checkMs: CHECK_MS });
  started.push(l);
  return l;
};
const uniqueName = () => `t-${randomBytes(4).toString('hex')}`;

async function waitFor(what: string, ok: () => boolean, ms = 5000): Promise<number> {
  const t0 = Date.now();
  while (!ok()) {
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
  return Date.now() - t0;
}

describe.runIf(!process.env.TEST_DATABASE_URL)('leader on SQLite', () => {
  it('is always this process', async () => {
    const l = leader('jobs');
    expect(l.isLeader()).toBe(true);
    expect(await l.check()).toBe(true);
  });
});

describe.runIf(!!process.env.TEST_DATABASE_URL)('leader on PostgreSQL', () => {
  it('one of two processes leads; when it stops, the other takes over within a check', async () => {
    const name = uniqueName();
    const a = leader(name);
    const b = leader(name);
    await waitFor('a leader', () => a.isLeader() || b.isLeader());
    await a.check();
    await b.check();
    expect([a.isLeader(), b.isLeader()].filter(Boolean)).toHaveLength(1);
    const [first, second] = a.isLeader() ? [a, b] : [b, a];
    await first.stop();
    expect(first.isLeader()).toBe(false);
    const took = await waitFor('the other to lead', () => second.isLeader(), 4 * CHECK_MS);
    expect(took).toBeLessThanOrEqual(4 * CHECK_MS);
  });

  it('another name is another leadership', async () => {
    const a = leader(uniqueName());
    const b = leader(uniqueName());
    await waitFor('both to lead', () => a.isLeader() && b.isLeader());
  });

  it('loses leadership at once when its connection is cut; one process leads again within the bound', async () => {
    const name = uniqueName();
    const a = leader(name);
    await waitFor('a to lead', () => a.isLeader());
    const b = leader(name);
    await b.check();
    expect(b.isLeader()).toBe(false);
    // The server ends the leader's session (a failover, an administrator, a network cut).
    const killed = await sql<{ n: number }>`
      select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
      where application_name = ${`sunfleet-leader:${name}`}
        and pid in (select pid from pg_locks where locktype = 'advisory' and granted)`.execute(store.db);
    expect(killed.rows[0]?.n).toBe(1);
    await waitFor('a to hear it', () => !a.isLeader(), 2000);
    // Someone leads again within the bound (b, or a reconnected), and only one.
    const took = await waitFor('a leader again', () => a.isLeader() || b.isLeader(), 4 * CHECK_MS);
    expect(took).toBeLessThanOrEqual(4 * CHECK_MS);
    await a.check();
    await b.check();
    expect([a.isLeader(), b.isLeader()].filter(Boolean)).toHaveLength(1);
  });

  it('a job gated on the leadership runs in the leader only', async () => {
    const name = uniqueName();
    const runs = { a: 0, b: 0 };
    const a = leader(name);
    const b = leader(name);
    await waitFor('a leader', () => a.isLeader() || b.isLeader());
    const jobs = (['a', 'b'] as const).map((k) =>
      startPeriodic(
        async () => {
          runs[k]++;
        },
        20,
        () => {},
        () => {},
        { when: (k === 'a' ? a : b).isLeader },
      ),
    );
    await new Promise((r) => setTimeout(r, 300));
    for (const j of jobs) await j.stop();
    const [led, followed] = a.isLeader() ? [runs.a, runs.b] : [runs.b, runs.a];
    expect(led).toBeGreaterThan(3);
    expect(followed).toBe(0);
  });
});
