/**
 * Staged rollouts: the canary first, then waves; a wave whose failures pass the threshold pauses
 * the rollout with its reason and the failing devices; resume goes on, cancel cancels what has
 * not started and aborts downloads; two runners never start a wave twice; and a new process over
 * the same store (another command channel, broker and runner) continues a rollout.
 */

import { ErrorCode } from '@sunfleet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CommandRig, commandProcess, commandRig } from '../../../test/commands.ts';
import { addDevice } from '../../../test/kits/events.ts';
import { type Account, account } from '../../../test/kits/plants.ts';
import { type StoredFirmware, storeFirmware, type UpgradeGateway, upgradePlant } from '../../../test/kits/upgrades.ts';
import { waitFor } from '../../../test/mqtt.ts';
import { HYBRID } from '../../../test/telemetry.ts';
import type { CommandChannel } from '../../commands/channel.ts';
import { silentLogger } from '../../log.ts';
import { upgradeCtx } from './engine.ts';
import { createUpgradeRunner } from './runner.ts';
import { firmwareInUseByRollout } from './upgrades.repo.ts';

let rig: CommandRig;
let owner: Account;
let other: Account;
let fw: StoredFirmware;
const gateways: UpgradeGateway[] = [];

beforeAll(async () => {
  rig = await commandRig({ timeoutMs: 5000 });
  owner = await account(rig.s);
  other = await account(rig.s);
  fw = await storeFirmware(rig.s, { type: 'inverter', version: '1.6.0.0' });
});
afterAll(async () => {
  for (const g of gateways) await g.disconnect();
  await rig.close();
});

const runnerOver = (commands: CommandChannel) =>
  createUpgradeRunner(upgradeCtx({ db: rig.s.db, dialect: rig.s.store.dialect, commands, config: rig.s.config }), silentLogger);

// biome-ignore lint/suspicious/noExplicitAny: the tests read fields of several reply shapes
type Reply = { code: number; msg: string; data: any };
const call = (who: Account, method: 'GET' | 'POST', url: string, payload?: unknown): Promise<Reply> =>
  rig.s.call(who.token, method, url, payload).then((r) => r.body as Reply);

/** A gateway (online) with `n` hybrid inverters of `owner`. */
async function fleet(n: number, r: CommandRig = rig) {
  const p = await upgradePlant(r, owner);
  gateways.push(p.gateway);
  const sns = [p.inverterSn];
  for (let i = 1; i < n; i++) sns.push((await addDevice(r.s, p.gatewayId, p.plantId, 'inverter', HYBRID)).sn);
  return { gateway: p.gateway, sns };
}

/** The upgrade command sent for an inverter (waits for it). */
async function commandFor(g: UpgradeGateway, sn: string) {
  return waitFor(() => g.upgrades().find((c) => c.device === sn), 5000, `upgrade of ${sn}`);
}

/** The device flashes the image and reports the new version. */
async function succeed(g: UpgradeGateway, sn: string, commands: CommandChannel = rig.commands) {
  const c = await commandFor(g, sn);
  await g.reply(c.id, { status: 'ok' });
  await waitFor(async () => (await commands.get(c.id))?.state === 'succeeded', 3000, `${sn} ok`);
  await g.report(sn, '0x01 0x06 0x00 0x00');
}

async function fail(g: UpgradeGateway, sn: string, commands: CommandChannel = rig.commands) {
  const c = await commandFor(g, sn);
  await g.reply(c.id, { status: 'error', stage: 'flash', error: 'flash write error' });
  await waitFor(async () => (await commands.get(c.id))?.state === 'failed', 3000, `${sn} failed`);
}

describe('a staged rollout', () => {
  it('runs the canary, then the waves; pauses when a wave’s failures pass the threshold; resumes; completes', async () => {
    const runner = runnerOver(rig.commands);
    const { gateway, sns } = await fleet(6);
    const res = await call(owner, 'POST', `/api/v1/inverter/${sns[0]}/batchUpgrade`, {
      firmId: fw.id,
      sns: sns.slice(1),
      canarySize: 2,
      waveSize: 2,
    });
    expect(res.code).toBe(ErrorCode.ok);
    const id = res.data.rolloutId;
    expect(res.data.devices.map((d: { wave: number; state: string }) => [d.wave, d.state])).toEqual([
      [0, 'sending'],
      [0, 'sending'],
      [1, 'pending'],
      [1, 'pending'],
      [2, 'pending'],
      [2, 'pending'],
    ]);
    expect(await firmwareInUseByRollout(rig.s.db, fw.id)).toBe(true);
    await gateway.receivedCount(2);
    // Nothing more until the canary has ended.
    await runner.tick();
    expect(gateway.upgrades()).toHaveLength(2);
    await succeed(gateway, sns[0]!);
    await succeed(gateway, sns[1]!);
    await waitFor(async () => (await runner.tick()).started === 2, 5000, 'wave 1 started');
    expect(gateway.upgrades().map((c) => c.device)).toEqual(sns.slice(0, 4));

    // Wave 1: one of two fails (50 % > 10 %): paused, with the reason and the failing device.
    await fail(gateway, sns[2]!);
    await waitFor(async () => (await runner.tick()).paused === 1, 5000, 'paused');
    const paused = await call(owner, 'GET', `/api/v1/upgrade/rollout/${id}`);
    expect(paused.data).toMatchObject({
      state: 'paused',
      currentWave: 1,
      pauseReason: 'wave 1: 1 of 2 devices failed (50 %), over the 10 % threshold',
      counts: { success: 2, failed: 1, sending: 1, pending: 2 },
      failing: [{ sn: sns[2], state: 'failed', error: 'flash write error' }],
    });
    expect(paused.data.waveList.map((w: { wave: number; size: number }) => [w.wave, w.size])).toEqual([
      [0, 2],
      [1, 2],
      [2, 2],
    ]);
    // The device under way finishes; no new wave while paused.
    await succeed(gateway, sns[3]!);
    await waitFor(
      async () => {
        await runner.tick();
        return (await call(owner, 'GET', `/api/v1/upgrade/rollout/${id}`)).data.counts.success === 3;
      },
      5000,
      'wave 1 settled',
    );
    expect(gateway.upgrades()).toHaveLength(4);
    // Another account sees nothing of it.
    expect(await call(other, 'GET', `/api/v1/upgrade/rollout/${id}`)).toMatchObject({ code: ErrorCode.notFound, data: null });
    expect(await call(other, 'POST', `/api/v1/upgrade/rollout/${id}/resume`)).toMatchObject({ code: ErrorCode.notFound });

    expect((await call(owner, 'POST', `/api/v1/upgrade/rollout/${id}/resume`)).data.state).toBe('running');
    expect(await call(owner, 'POST', `/api/v1/upgrade/rollout/${id}/resume`)).toMatchObject({
      code: ErrorCode.stateBlocksAction,
    });
    await waitFor(async () => (await runner.tick()).started === 2, 5000, 'wave 2 started');
    await succeed(gateway, sns[4]!);
    await succeed(gateway, sns[5]!);
    await waitFor(async () => (await runner.tick()).completed === 1, 5000, 'completed');
    const done = await call(owner, 'GET', `/api/v1/upgrade/rollout/${id}`);
    expect(done.data).toMatchObject({ state: 'completed', counts: { success: 5, failed: 1 } });
    expect(done.data.finishedAt).not.toBeNull();
    expect(await firmwareInUseByRollout(rig.s.db, fw.id)).toBe(false);
    const list = await call(owner, 'GET', `/api/v1/upgrade/rollouts?firmwareId=${fw.id}`);
    expect(list.data.list.map((r: { id: string }) => r.id)).toContain(id);
    expect((await call(other, 'GET', '/api/v1/upgrade/rollouts')).data.total).toBe(0);
    const logs = await rig.s.db
      .selectFrom('maintenance_log')
      .select(['device_sn', 'result'])
      .where('device_sn', 'in', sns)
      .execute();
    expect(logs.filter((l) => l.result === 'succeeded')).toHaveLength(5);
    expect(logs.filter((l) => l.result === 'failed').map((l) => l.device_sn)).toEqual([sns[2]]);
  });

  it('a canary by percentage; cancel cancels devices not started and aborts downloads', async () => {
    const runner = runnerOver(rig.commands);
    const { gateway, sns } = await fleet(4);
    const res = await call(owner, 'POST', `/api/v1/inverter/${sns[0]}/batchUpgrade`, {
      firmId: fw.id,
      sns: sns.slice(1),
      canaryPercent: 50,
      waveSize: 1,
    });
    const id = res.data.rolloutId;
    expect(res.data.devices.filter((d: { wave: number }) => d.wave === 0)).toHaveLength(2);
    const first = await commandFor(gateway, sns[0]!);
    await gateway.reply(first.id, { status: 'progress', stage: 'download', progress: 10 });
    await waitFor(async () => (await rig.commands.get(first.id))?.progress === 10, 3000, 'downloading');
    const cancelled = await call(owner, 'POST', `/api/v1/upgrade/rollout/${id}/cancel`);
    expect(cancelled.data).toMatchObject({ state: 'cancelled', counts: { cancelled: 2, sending: 2 } });
    const aborts = await waitFor(() => {
      const a = gateway.received.filter((c) => c.type === 'abort');
      return a.length === 2 ? a : null;
    });
    expect(aborts.map((a) => a.target).sort()).toEqual([first.id, (await commandFor(gateway, sns[1]!)).id].sort());
    await gateway.reply(first.id, { status: 'error', stage: 'download', error: 'cancelled' });
    // The second was already flashing when the abort came: it finishes and reports.
    await succeed(gateway, sns[1]!);
    await waitFor(
      async () => {
        await runner.tick();
        const v = (await call(owner, 'GET', `/api/v1/upgrade/rollout/${id}`)).data;
        return v.counts.cancelled === 3 && v.counts.success === 1;
      },
      5000,
      'settled after cancel',
    );
    expect(gateway.upgrades()).toHaveLength(2);
    expect(await call(owner, 'POST', `/api/v1/upgrade/rollout/${id}/cancel`)).toMatchObject({
      code: ErrorCode.stateBlocksAction,
    });
    const results = await rig.s.db.selectFrom('maintenance_log').select('result').where('device_sn', 'in', sns).execute();
    expect(results.map((r) => r.result).sort()).toEqual(['cancelled', 'cancelled', 'cancelled', 'succeeded']);
  });

  it('two runners ticking together start a wave once', async () => {
    const a = runnerOver(rig.commands);
    const b = runnerOver(rig.commands);
    const { gateway, sns } = await fleet(3);
    const res = await call(owner, 'POST', `/api/v1/inverter/${sns[0]}/batchUpgrade`, {
      firmId: fw.id,
      sns: sns.slice(1),
      canarySize: 1,
      waveSize: 2,
    });
    await succeed(gateway, sns[0]!);
    await waitFor(
      async () => {
        const [x, y] = await Promise.all([a.tick(), b.tick()]);
        return x.started + y.started > 0;
      },
      5000,
      'wave started',
    );
    await Promise.all([a.tick(), b.tick()]);
    await gateway.receivedCount(3);
    await new Promise((r) => setTimeout(r, 100));
    expect(gateway.upgrades()).toHaveLength(3);
    const jobs = await rig.s.db.selectFrom('command_jobs').select('id').where('batch_id', '=', res.data.rolloutId).execute();
    expect(jobs).toHaveLength(3);
  });
});

describe('a server restart in the middle of a rollout', () => {
  it('a new process over the same store continues it', async () => {
    const runnerA = runnerOver(rig.commands);
    const { gateway, sns } = await fleet(3);
    const res = await call(owner, 'POST', `/api/v1/inverter/${sns[0]}/batchUpgrade`, {
      firmId: fw.id,
      sns: sns.slice(1),
      canarySize: 1,
      waveSize: 1,
    });
    const id = res.data.rolloutId;
    await succeed(gateway, sns[0]!);
    await waitFor(async () => (await runnerA.tick()).started === 1, 5000, 'wave 1 started');
    const wave1 = await commandFor(gateway, sns[1]!);
    await gateway.reply(wave1.id, { status: 'progress', stage: 'flash', progress: 60 });
    await waitFor(async () => (await rig.commands.get(wave1.id))?.stage === 'flash', 3000, 'flashing');

    // Process B: another channel and broker over the same store, and its own runner; A's broker is gone.
    const b = await commandProcess(rig.s);
    try {
      const runnerB = runnerOver(b.commands);
      await gateway.disconnect();
      await gateway.connect(b.broker.port);
      await waitFor(async () => {
        const g = await rig.s.db.selectFrom('gateways').select('online').where('sn', '=', gateway.sn).executeTakeFirst();
        return Number(g?.online) === 1;
      });
      // The device finishes its flash and says so to the new process; its version comes in its data.
      await gateway.reply(wave1.id, { status: 'ok' });
      await waitFor(async () => (await b.commands.get(wave1.id))?.state === 'succeeded', 3000, 'ok through B');
      await gateway.report(sns[1]!, '0x01 0x06 0x00 0x00');
      await waitFor(async () => (await runnerB.tick()).started === 1, 5000, 'wave 2 started by B');
      await succeed(gateway, sns[2]!, b.commands);
      await waitFor(async () => (await runnerB.tick()).completed === 1, 5000, 'completed by B');
      expect((await call(owner, 'GET', `/api/v1/upgrade/rollout/${id}`)).data).toMatchObject({
        state: 'completed',
        counts: { success: 3 },
      });
    } finally {
      await gateway.disconnect();
      await b.stop();
    }
  });
});
