/**
 * The command channel over a real embedded broker and a gateway on MQTT: the job states, replies
 * accepted only from the gateway a job went to, offline gateways, expiry, timeouts, a server
 * restart between sending and the reply, several processes sharing the store.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CommandProcess, type CommandRig, commandProcess, commandRig, TestGateway } from '../../test/commands.ts';
import { waitFor } from '../../test/mqtt.ts';
import { makePlant } from '../../test/telemetry.ts';
import { silentLogger } from '../log.ts';
import { provisionGateway } from '../telemetry/gateways.ts';
import { CommandConflict, type CommandJob } from './channel.ts';
import { jobEvents } from './jobs.repo.ts';
import { type CommandService, createCommandChannel } from './service.ts';

let rig: CommandRig;
let commands: CommandService;
const open: TestGateway[] = [];
const extra: CommandProcess[] = [];

beforeAll(async () => {
  rig = await commandRig({ timeoutMs: 1500, expiryMs: 60_000, resendMs: 60_000 });
  commands = rig.commands;
});
afterAll(async () => {
  for (const g of open) await g.disconnect();
  for (const p of extra) await p.stop().catch(() => {});
  await rig.close();
});

/** A provisioned gateway of a new plant (not connected). */
async function newGateway(): Promise<TestGateway> {
  const plantId = await makePlant(rig.s.db);
  const { sn, secret } = await provisionGateway(rig.s.db, {
    sn: `CMD${Math.random().toString(36).slice(2, 10).toUpperCase()}`,
    plantId,
  });
  const g = new TestGateway(sn, secret);
  open.push(g);
  return g;
}

/** Connected, and the store has it online (what `submit` looks at). */
async function onlineGateway(port = rig.broker.port): Promise<TestGateway> {
  const g = await newGateway();
  await g.connect(port);
  await waitOnline(g.sn, true);
  return g;
}

async function waitOnline(sn: string, online: boolean) {
  await waitFor(
    async () =>
      Number((await rig.s.db.selectFrom('gateways').select('online').where('sn', '=', sn).executeTakeFirstOrThrow()).online) ===
      (online ? 1 : 0),
    5000,
    `${sn} ${online ? 'online' : 'offline'} in the store`,
  );
}

const submit = (g: TestGateway, extraFields: Partial<Parameters<CommandService['submit']>[0]> = {}) =>
  commands.submit({ gatewaySn: g.sn, body: { type: 'restart' }, requestedBy: 1, ...extraFields });

const states = async (job: CommandJob) => (await jobEvents(rig.s.db, job.id)).map((e) => e.state);

describe('a command to an online gateway', () => {
  it('is stored queued, sent at once with its id, and succeeds on the ok reply; every state change is recorded', async () => {
    const g = await onlineGateway();
    const job = await commands.submit({
      gatewaySn: g.sn,
      deviceSn: 'INV0001',
      body: { type: 'boot', device: 'INV0001' },
      requestedBy: 42,
    });
    expect(job).toMatchObject({ gatewaySn: g.sn, deviceSn: 'INV0001', state: 'sent', requestedBy: 42 });
    const [sent] = await g.receivedCount(1);
    expect(sent).toMatchObject({ v: 1, id: job.id, type: 'boot', device: 'INV0001' });
    const done = await commands.settle(job.id, 3000);
    expect(done).toMatchObject({ state: 'succeeded', error: null, reply: { id: job.id, status: 'ok' } });
    expect(done.finishedAt).toBeGreaterThanOrEqual(done.sentAt!);
    expect(await states(job)).toEqual(['queued', 'sent', 'succeeded']);
  });

  it('accepted → acknowledged, progress keeps it, error → failed with the device’s reason', async () => {
    const g = await onlineGateway();
    g.behaviour = 'acceptOnly';
    const job = await submit(g);
    await waitFor(async () => (await commands.get(job.id))?.state === 'acknowledged', 3000, 'acknowledged');
    await g.reply(job.id, { status: 'progress', progress: 50 });
    await g.reply(job.id, { status: 'error', error: 'device busy' });
    const done = await commands.settle(job.id, 3000);
    expect(done).toMatchObject({ state: 'failed', error: 'device busy' });
    expect(await states(job)).toEqual(['queued', 'sent', 'acknowledged', 'failed']);
  });
});

describe('one open power command per device', () => {
  it('submitted together, a second power job of the device is refused alone; the rest of the group is stored and sent', async () => {
    const g = await onlineGateway();
    g.behaviour = 'silent';
    const power = (type: 'boot' | 'shutdown', device: string) =>
      commands.submit({ gatewaySn: g.sn, deviceSn: device, body: { type, device }, requestedBy: 1 });
    // Handed in within one tick: one group commit.
    const results = await Promise.allSettled([
      power('shutdown', 'INVPWR1'),
      power('boot', 'INVPWR1'),
      power('shutdown', 'INVPWR2'),
      submit(g),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toBeInstanceOf(CommandConflict);
    const stored = await rig.s.db
      .selectFrom('command_jobs')
      .select(['type', 'device_sn'])
      .where('gateway_sn', '=', g.sn)
      .execute();
    expect(stored).toHaveLength(3);
    await g.receivedCount(3);
    // Final, it no longer excludes the next one.
    const first = (results[0] as PromiseFulfilledResult<CommandJob>).value;
    await rig.s.db.updateTable('command_jobs').set({ state: 'succeeded' }).where('id', '=', first.id).execute();
    await expect(power('boot', 'INVPWR1')).resolves.toMatchObject({ state: 'sent' });
  });
});

describe('replies the channel refuses', () => {
  it('a reply forged by another gateway for this gateway’s job changes nothing and is counted', async () => {
    const victim = await onlineGateway();
    victim.behaviour = 'silent';
    const forger = await onlineGateway();
    const job = await submit(victim);
    await victim.receivedCount(1);
    const before = commands.stats().repliesRefused.foreignGateway;
    await forger.reply(job.id, { status: 'ok' });
    await forger.reply(job.id, { status: 'error', error: 'forged' });
    await waitFor(() => commands.stats().repliesRefused.foreignGateway === before + 2, 3000, 'two refused replies');
    expect(await commands.get(job.id)).toMatchObject({ state: 'sent', reply: null, error: null });
    expect(await states(job)).toEqual(['queued', 'sent']);
    // The real gateway's answer still settles it.
    await victim.reply(job.id, { status: 'ok' });
    expect((await commands.settle(job.id, 3000)).state).toBe('succeeded');
  });

  it('a reply for an unknown job, or for a job already final, is refused and counted', async () => {
    const g = await onlineGateway();
    const job = await submit(g);
    expect((await commands.settle(job.id, 3000)).state).toBe('succeeded');
    const before = commands.stats().repliesRefused;
    await g.reply(job.id, { status: 'error', error: 'late' });
    await g.reply('00000000-dead-beef-0000-000000000000', { status: 'ok' });
    await waitFor(
      () => {
        const now = commands.stats().repliesRefused;
        return now.notOpen === before.notOpen + 1 && now.unknownJob === before.unknownJob + 1;
      },
      3000,
      'refused replies',
    );
    expect(await commands.get(job.id)).toMatchObject({ state: 'succeeded', error: null });
  });
});

describe('a gateway that is offline', () => {
  it('gets its queued jobs in order when it says it is online, and they settle', async () => {
    const g = await newGateway();
    const first = await submit(g, { body: { type: 'settings', setting: { name: 'uploadInterval', value: 120 } } });
    const second = await submit(g);
    expect([first.state, second.state]).toEqual(['queued', 'queued']);
    await g.connect(rig.broker.port);
    const received = await g.receivedCount(2);
    expect(received.map((c) => c.id)).toEqual([first.id, second.id]);
    expect((await commands.settle(first.id, 3000)).state).toBe('succeeded');
    expect((await commands.settle(second.id, 3000)).state).toBe('succeeded');
  });

  it('a queued job expires at its expiry and is never sent, even when the gateway comes back', async () => {
    const g = await newGateway();
    const job = await submit(g, { expiresInMs: 50 });
    await new Promise((r) => setTimeout(r, 80));
    await commands.sweep();
    expect(await commands.get(job.id)).toMatchObject({ state: 'expired', error: 'expired', sentAt: null });
    await g.connect(rig.broker.port);
    await waitOnline(g.sn, true);
    await commands.sweep();
    expect(g.received).toEqual([]);
  });

  it('a queued job can be cancelled; a sent one cannot', async () => {
    const g = await newGateway();
    const queued = await submit(g);
    expect(await commands.cancel(queued.id, 7)).toMatchObject({ state: 'cancelled' });
    const online = await onlineGateway();
    online.behaviour = 'silent';
    const sent = await submit(online);
    expect(await commands.cancel(sent.id, 7)).toMatchObject({ state: 'sent' });
    await g.connect(rig.broker.port);
    await waitOnline(g.sn, true);
    await commands.sweep();
    expect(g.received).toEqual([]);
  });
});

describe('timeouts', () => {
  it('a sent job without a final answer times out (settle and the sweeper both see it)', async () => {
    const g = await onlineGateway();
    g.behaviour = 'silent';
    const a = await submit(g, { timeoutMs: 100 });
    const b = await submit(g, { timeoutMs: 100 });
    expect(await commands.settle(a.id, 1000)).toMatchObject({ state: 'timed_out', error: 'timed out' });
    // Past b's own timeout (its send may have come later than a's on a loaded machine).
    await new Promise((r) => setTimeout(r, Math.max(0, b.sentAt! + 100 - Date.now()) + 20));
    await commands.sweep();
    expect(await commands.get(b.id)).toMatchObject({ state: 'timed_out' });
    // A reply after the timeout changes nothing.
    await g.reply(b.id, { status: 'ok' });
    await waitFor(async () => commands.stats().repliesRefused.notOpen > 0, 3000, 'refused');
    expect(await commands.get(b.id)).toMatchObject({ state: 'timed_out' });
  });

  it('settle returns the job as it stands after maxWaitMs', async () => {
    const g = await onlineGateway();
    g.behaviour = 'silent';
    const job = await submit(g, { timeoutMs: 10_000 });
    const started = Date.now();
    expect((await commands.settle(job.id, 150)).state).toBe('sent');
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe('several server processes, and a restart', () => {
  it('a job sent before a restart is settled after it: sent again with the same id, run once by the gateway', async () => {
    // Process A sends, the gateway runs the command but its reply is lost, A stops.
    const a = await commandProcess(rig.s);
    extra.push(a);
    const g = await onlineGateway(a.broker.port);
    g.behaviour = 'loseFirstReply';
    const waiting = await newGateway(); // offline: its job stays queued over the restart
    const job = await a.commands.submit({ gatewaySn: g.sn, body: { type: 'restart' }, requestedBy: 1 });
    const queued = await a.commands.submit({ gatewaySn: waiting.sn, body: { type: 'restart' }, requestedBy: 1 });
    await g.receivedCount(1);
    expect(g.runs.get(job.id)).toBe(1);
    await g.disconnect();
    await a.stop();
    expect(await commands.get(job.id)).toMatchObject({ state: 'sent' });

    // Process B starts on the same store; the gateways connect to it.
    const b = await commandProcess(rig.s);
    extra.push(b);
    await g.connect(b.broker.port);
    await g.receivedCount(2);
    expect(g.received.map((c) => c.id)).toEqual([job.id, job.id]);
    expect((await b.commands.settle(job.id, 3000)).state).toBe('succeeded');
    expect(g.runs.get(job.id)).toBe(1);
    await waiting.connect(b.broker.port);
    expect((await b.commands.settle(queued.id, 3000)).state).toBe('succeeded');
    expect(waiting.runs.get(queued.id)).toBe(1);
    expect(b.commands.stats().resent).toBeGreaterThanOrEqual(1);
    await g.disconnect();
    await waiting.disconnect();
    await b.stop();
  });

  it('the sweeper sends again a job that had no answer for resendMs (same id), and expires or times out what is due', async () => {
    const p = await commandProcess(
      rig.s,
      createCommandChannel({
        db: rig.s.db,
        dialect: rig.s.store.dialect,
        log: silentLogger,
        defaults: { timeoutMs: 5000, expiryMs: 60_000, resendMs: 50 },
      }),
    );
    extra.push(p);
    const g = await onlineGateway(p.broker.port);
    g.behaviour = 'loseFirstReply';
    const job = await p.commands.submit({ gatewaySn: g.sn, body: { type: 'restart' }, requestedBy: 1 });
    await g.receivedCount(1);
    await new Promise((r) => setTimeout(r, 80));
    expect((await p.commands.sweep()).resent).toBeGreaterThanOrEqual(1);
    expect((await p.commands.settle(job.id, 3000)).state).toBe('succeeded');
    expect(g.received.map((c) => c.id)).toEqual([job.id, job.id]);
    expect(g.runs.get(job.id)).toBe(1);
    await g.disconnect();
    await p.stop();
  });

  it('settle in a process that did not take the reply sees it from the store', async () => {
    const g = await onlineGateway();
    g.behaviour = 'silent';
    const job = await submit(g);
    const elsewhere = createCommandChannel({
      db: rig.s.db,
      dialect: rig.s.store.dialect,
      log: silentLogger,
      defaults: rig.s.config.commands,
      pollMs: 50,
    });
    const settling = elsewhere.settle(job.id, 3000);
    await g.reply(job.id, { status: 'ok' });
    expect((await settling).state).toBe('succeeded');
    await elsewhere.close();
  });

  it('a job submitted where nothing can publish is sent by a process that can (the sweeper dispatches it)', async () => {
    const g = await onlineGateway();
    const apiOnly = createCommandChannel({
      db: rig.s.db,
      dialect: rig.s.store.dialect,
      log: silentLogger,
      defaults: rig.s.config.commands,
    });
    const job = await apiOnly.submit({ gatewaySn: g.sn, body: { type: 'restart' }, requestedBy: 1 });
    expect(job.state).toBe('queued');
    expect((await commands.sweep()).dispatched).toBe(1);
    expect((await apiOnly.settle(job.id, 3000)).state).toBe('succeeded');
    await apiOnly.close();
  });

  it('the next group is stored while the previous one is still being published; publishes keep their order', async () => {
    const g = await newGateway();
    await rig.s.db.updateTable('gateways').set({ online: 1 }).where('sn', '=', g.sn).execute();
    const slow = createCommandChannel({
      db: rig.s.db,
      dialect: rig.s.store.dialect,
      log: silentLogger,
      defaults: rig.s.config.commands,
    });
    const published: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    slow.attach(async (_topic, payload) => {
      await held;
      published.push((JSON.parse(payload) as { id: string }).id);
    });
    const first = slow.submit({ gatewaySn: g.sn, body: { type: 'restart' }, requestedBy: 1 });
    await waitFor(
      async () =>
        (await rig.s.db.selectFrom('command_jobs').select('state').where('gateway_sn', '=', g.sn).execute()).length === 1,
      3000,
      'the first job stored',
    );
    const second = slow.submit({ gatewaySn: g.sn, body: { type: 'restart' }, requestedBy: 1 });
    // Stored and claimed while the first one's publish is held.
    await waitFor(
      async () =>
        (await rig.s.db.selectFrom('command_jobs').select('state').where('gateway_sn', '=', g.sn).execute()).filter(
          (r) => r.state === 'sent',
        ).length === 2,
      3000,
      'both jobs claimed',
    );
    expect(published).toEqual([]);
    release();
    const [a, b] = await Promise.all([first, second]);
    expect(published).toEqual([a.id, b.id]);
    await slow.close();
  });

  it('with a broker each, a process sends only to the gateways with a session on its broker', async () => {
    const b = await commandProcess(rig.s);
    extra.push(b);
    const g = await onlineGateway(b.broker.port);
    // The store does not have it online yet (B's presence write still to come): B sends at once all the same.
    await rig.s.db.updateTable('gateways').set({ online: 0 }).where('sn', '=', g.sn).execute();
    const viaB = await b.commands.submit({ gatewaySn: g.sn, body: { type: 'restart' }, requestedBy: 1 });
    expect(viaB.state).toBe('sent');
    expect((await b.commands.settle(viaB.id, 3000)).state).toBe('succeeded');
    // A job A takes in is left for B: A's broker does not have the gateway.
    await rig.s.db.updateTable('gateways').set({ online: 1 }).where('sn', '=', g.sn).execute();
    const viaA = await submit(g);
    expect(viaA.state).toBe('queued');
    expect((await commands.sweep()).dispatched).toBe(0);
    expect((await commands.get(viaA.id))?.state).toBe('queued');
    expect((await b.commands.sweep()).dispatched).toBe(1);
    expect((await commands.settle(viaA.id, 3000)).state).toBe('succeeded');
    expect(g.received.map((c) => c.id)).toEqual([viaB.id, viaA.id]);
  });

  it('two processes dispatching one gateway’s queued jobs at once send each job once', async () => {
    const g = await onlineGateway();
    const apiOnly = createCommandChannel({
      db: rig.s.db,
      dialect: rig.s.store.dialect,
      log: silentLogger,
      defaults: rig.s.config.commands,
    });
    const jobs = [];
    for (let i = 0; i < 20; i++) jobs.push(await apiOnly.submit({ gatewaySn: g.sn, body: { type: 'restart' }, requestedBy: 1 }));
    expect(jobs.every((j) => j.state === 'queued')).toBe(true);
    const other = createCommandChannel({
      db: rig.s.db,
      dialect: rig.s.store.dialect,
      log: silentLogger,
      defaults: rig.s.config.commands,
    });
    other.attach((topic, payload, o) => rig.broker.publish(topic, payload, o));
    const sweeps = await Promise.all([commands.sweep(), other.sweep(), commands.sweep(), other.sweep()]);
    expect(sweeps.reduce((n, r) => n + r.dispatched, 0)).toBe(20);
    for (const j of jobs) expect((await commands.settle(j.id, 3000)).state).toBe('succeeded');
    const counts = new Map<string, number>();
    for (const c of g.received) counts.set(c.id, (counts.get(c.id) ?? 0) + 1);
    expect(counts.size).toBe(20);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    await other.close();
    await apiOnly.close();
  });
});
