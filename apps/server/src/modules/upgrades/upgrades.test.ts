/**
 * One device's upgrade through the API and a gateway on MQTT: what the device is sent (a signed
 * link that serves the image, its size, hash, signature and version), each state as the device
 * reports its stages, success only once it reports the new version after its reboot, the
 * maintenance log, the codes (1001, 1005, 4001, 4; 600/305 another tenant's; 2 without the
 * permission or as a visitor), and cutting an upgrade in each state.
 */
import { createHash } from 'node:crypto';
import { companyGrantable, ErrorCode } from '@sunfleet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CommandRig, commandRig } from '../../../test/commands.ts';
import { type Account, account, company } from '../../../test/kits/plants.ts';
import { share } from '../../../test/kits/reports.ts';
import { type StoredFirmware, storeFirmware, type UpgradePlant, upgradePlant } from '../../../test/kits/upgrades.ts';
import { waitFor } from '../../../test/mqtt.ts';
import { loadFirmwareSigner, verifyFirmwareSignature } from '../../firmware/signing.ts';
import { silentLogger } from '../../log.ts';
import { upgradeCtx } from './engine.ts';
import { createUpgradeRunner, type UpgradeRunner } from './runner.ts';

let rig: CommandRig;
let runner: UpgradeRunner;
let owner: Account;
let visitor: Account;
let stranger: Account;
let inverterFw: StoredFirmware;
let gatewayFw: StoredFirmware;

beforeAll(async () => {
  rig = await commandRig({ timeoutMs: 5000 });
  runner = createUpgradeRunner(upgradeCtx({ ...rig.s.app.deps, config: rig.s.config }), silentLogger);
  owner = await account(rig.s);
  visitor = await account(rig.s);
  stranger = await account(rig.s);
  inverterFw = await storeFirmware(rig.s, { type: 'inverter', version: 'V1.5.0.0' });
  gatewayFw = await storeFirmware(rig.s, { type: 'gateway', version: 'SFG-2.5.0' });
});
const plants: UpgradePlant[] = [];
afterAll(async () => {
  for (const p of plants) await p.gateway.disconnect();
  await rig.close();
});

async function plant(opts: Parameters<typeof upgradePlant>[2] = {}) {
  const p = await upgradePlant(rig, owner, opts);
  plants.push(p);
  return p;
}

// biome-ignore lint/suspicious/noExplicitAny: the tests read fields of several reply shapes
type Reply = { code: number; msg: string; data: any };
const call = (who: Account, method: 'GET' | 'POST', url: string, payload?: unknown): Promise<Reply> =>
  rig.s.call(who.token, method, url, payload).then((r) => r.body as Reply);
const progress = (sn: string) => call(owner, 'GET', `/api/v1/inverter/${sn}/upgrade/progress`);
const statusOf = async (sn: string) =>
  (await rig.s.db.selectFrom('devices').select('status').where('sn', '=', sn).executeTakeFirstOrThrow()).status;
const logOf = (sn: string) =>
  rig.s.db.selectFrom('maintenance_log').selectAll().where('device_sn', '=', sn).orderBy('id', 'desc').executeTakeFirstOrThrow();

describe('an inverter upgrade', () => {
  it('an inverter never upgraded answers "no upgrade" (code 0, null), not 404; once started, its upgrade', async () => {
    const p = await plant();
    expect(await progress(p.inverterSn)).toMatchObject({ code: ErrorCode.ok, data: null });
    const started = await call(owner, 'POST', `/api/v1/inverter/${p.inverterSn}/upgrade?firmId=${inverterFw.id}`);
    expect(started.code).toBe(ErrorCode.ok);
    const now = await progress(p.inverterSn);
    expect(now.code).toBe(ErrorCode.ok);
    expect(now.data).toMatchObject({ sn: p.inverterSn, rolloutId: started.data.rolloutId });
  });

  it('sends a signed link to the image, follows each stage, and succeeds once the new version is reported', async () => {
    const p = await plant();
    const res = await call(owner, 'POST', `/api/v1/inverter/${p.inverterSn}/upgrade?firmId=${inverterFw.id}`);
    expect(res).toMatchObject({
      code: ErrorCode.ok,
      data: { refused: [], devices: [{ sn: p.inverterSn, state: 'sending', toVersion: 'V1.5.0.0' }] },
    });
    const [command] = await p.gateway.receivedCount(1);
    expect(command).toMatchObject({
      type: 'upgrade',
      device: p.inverterSn,
      firmware: {
        size: inverterFw.bytes.length,
        sha256: inverterFw.sha256,
        signature: inverterFw.signature,
        version: 'V1.5.0.0',
      },
    });
    // The link serves the image, whose signature the device checks with the provisioned key.
    const url = new URL(command!.firmware!.url);
    const image = await rig.s.app.inject({ method: 'GET', url: url.pathname + url.search });
    expect(image.statusCode).toBe(200);
    expect(createHash('sha256').update(image.rawPayload).digest('hex')).toBe(inverterFw.sha256);
    const key = loadFirmwareSigner(rig.s.config.dataDir).publicKey;
    expect(verifyFirmwareSignature(key, command!.firmware!.sha256, command!.firmware!.signature)).toBe(true);
    expect(await logOf(p.inverterSn)).toMatchObject({ kind: 'upgrade', result: 'running', user_id: owner.id });

    const before = await statusOf(p.inverterSn);
    expect(before).not.toBe('upgrading');
    const id = command!.id;
    const step = async (body: Parameters<typeof p.gateway.reply>[1], state: string, percent: number | null) => {
      await p.gateway.reply(id, body);
      await waitFor(async () => (await progress(p.inverterSn)).data.state === state, 3000, state);
      expect((await progress(p.inverterSn)).data.progress).toBe(percent);
    };
    await step({ status: 'accepted' }, 'sending', null);
    await waitFor(async () => (await rig.commands.get(id))?.state === 'acknowledged', 3000, 'acknowledged');
    // Accepted, not yet under way on the device: a power command still goes through.
    expect(await statusOf(p.inverterSn)).toBe(before);
    await step({ status: 'progress', stage: 'download', progress: 40 }, 'sending', 40);
    // Under way: the device's status says so, and power on/off is refused.
    expect(await statusOf(p.inverterSn)).toBe('upgrading');
    expect(await call(owner, 'GET', `/api/v1/inverter/${p.inverterSn}/boot`)).toMatchObject({
      code: ErrorCode.stateBlocksAction,
    });
    await step({ status: 'progress', stage: 'verify', progress: 100 }, 'downloaded', 100);
    await step({ status: 'progress', stage: 'flash', progress: 30 }, 'upgrading', 30);
    // The device's ok alone is not success: the version it reports next is.
    await step({ status: 'ok' }, 'upgrading', 100);
    await runner.tick();
    expect((await progress(p.inverterSn)).data.state).toBe('upgrading');
    await p.gateway.report(p.inverterSn, '01 05 00 00');
    await waitFor(
      async () => {
        await runner.tick();
        return (await progress(p.inverterSn)).data.state === 'success';
      },
      5000,
      'success',
    );
    expect(await logOf(p.inverterSn)).toMatchObject({ result: 'succeeded' });
    expect((await logOf(p.inverterSn)).finished_at).not.toBeNull();
    // Ended: the status is what the device's open events say again, and ingest keeps it so.
    expect(await statusOf(p.inverterSn)).toBe('normal');
    await p.gateway.report(p.inverterSn, '01 05 00 00');
    await new Promise((r) => setTimeout(r, 300));
    expect(await statusOf(p.inverterSn)).toBe('normal');
  });

  it('ingest keeps an "upgrading" status while it lasts, and does not bring it back once it is cleared', async () => {
    const q = await plant();
    await rig.s.db.updateTable('devices').set({ status: 'upgrading' }).where('sn', '=', q.inverterSn).execute();
    // The first frame loads the device as it is in the store now: upgrading. The next one comes
    // 20 minutes of device time later, so that ingest writes the device's row again.
    await q.gateway.report(q.inverterSn, '01 04 00 00', Date.now() - 20 * 60_000);
    await waitFor(async () => (await call(owner, 'GET', `/api/v1/inverter/${q.inverterSn}/firmware`)).data.version === '1_4_0_0');
    expect(await statusOf(q.inverterSn)).toBe('upgrading');
    // The upgrade ends (its status is cleared in the store): the next frames leave it cleared.
    await rig.s.db.updateTable('devices').set({ status: 'normal' }).where('sn', '=', q.inverterSn).execute();
    await q.gateway.report(q.inverterSn, '01 05 00 00');
    await waitFor(async () => (await call(owner, 'GET', `/api/v1/inverter/${q.inverterSn}/firmware`)).data.version === '1_5_0_0');
    expect(await statusOf(q.inverterSn)).toBe('normal');
  });

  it('download failed, failed with the device’s reason, and failed when another version comes back', async () => {
    const a = await plant();
    await call(owner, 'POST', `/api/v1/inverter/${a.inverterSn}/upgrade?firmId=${inverterFw.id}`);
    const [ca] = await a.gateway.receivedCount(1);
    await a.gateway.reply(ca!.id, { status: 'error', stage: 'download', error: 'connection reset' });
    await waitFor(async () => (await progress(a.inverterSn)).data.state === 'download_failed', 3000, 'download_failed');
    expect((await progress(a.inverterSn)).data.error).toBe('connection reset');
    expect(await logOf(a.inverterSn)).toMatchObject({ result: 'failed' });

    const b = await plant();
    await call(owner, 'POST', `/api/v1/inverter/${b.inverterSn}/upgrade?firmId=${inverterFw.id}`);
    const [cb] = await b.gateway.receivedCount(1);
    await b.gateway.reply(cb!.id, { status: 'error', stage: 'verify', error: 'signature check failed' });
    await waitFor(async () => (await progress(b.inverterSn)).data.state === 'failed', 3000, 'failed');
    expect((await progress(b.inverterSn)).data.error).toBe('signature check failed');

    const c = await plant();
    await call(owner, 'POST', `/api/v1/inverter/${c.inverterSn}/upgrade?firmId=${inverterFw.id}`);
    const [cc] = await c.gateway.receivedCount(1);
    await c.gateway.reply(cc!.id, { status: 'ok' });
    await waitFor(async () => (await rig.commands.get(cc!.id))?.state === 'succeeded', 3000, 'ok');
    await c.gateway.report(c.inverterSn, '01 04 02 11');
    await waitFor(
      async () => (await call(owner, 'GET', `/api/v1/inverter/${c.inverterSn}/firmware`)).data.version === '1_4_2_17',
    );
    // Within the confirmation time the device may still be rebooting; past it, the other version fails it.
    await runner.tick();
    expect((await progress(c.inverterSn)).data.state).toBe('upgrading');
    const later = createUpgradeRunner(
      upgradeCtx({ ...rig.s.app.deps, config: rig.s.config, now: () => Date.now() + rig.s.config.upgrades.confirmMs }),
      silentLogger,
    );
    expect(await statusOf(c.inverterSn)).toBe('upgrading');
    await later.tick();
    expect((await progress(c.inverterSn)).data.state).toBe('failed');
    expect(await statusOf(c.inverterSn)).not.toBe('upgrading');
    expect((await progress(c.inverterSn)).data.error).toBe('the device reports version 1_4_2_17 after the upgrade');
  });

  it('refuses: 1001 offline, 1005 while an upgrade runs, 4001 already on that version, 4 a firmware not usable; nothing sent', async () => {
    const off = await plant({ online: false });
    expect(await call(owner, 'POST', `/api/v1/inverter/${off.inverterSn}/upgrade?firmId=${inverterFw.id}`)).toMatchObject({
      code: ErrorCode.deviceOffline,
    });
    const p = await plant();
    expect((await call(owner, 'POST', `/api/v1/inverter/${p.inverterSn}/upgrade?firmId=${inverterFw.id}`)).code).toBe(
      ErrorCode.ok,
    );
    expect(await call(owner, 'POST', `/api/v1/inverter/${p.inverterSn}/upgrade?firmId=${inverterFw.id}`)).toMatchObject({
      code: ErrorCode.stateBlocksAction,
      data: null,
    });
    const q = await plant();
    await q.gateway.report(q.inverterSn, '01 05 00 00');
    await waitFor(async () => (await call(owner, 'GET', `/api/v1/inverter/${q.inverterSn}/firmware`)).data.version === '1_5_0_0');
    expect(await call(owner, 'POST', `/api/v1/inverter/${q.inverterSn}/upgrade?firmId=${inverterFw.id}`)).toMatchObject({
      code: ErrorCode.firmwareLatest,
    });
    const disabled = await storeFirmware(rig.s, { type: 'inverter', version: '9.9', enabled: false });
    expect(await call(owner, 'POST', `/api/v1/inverter/${q.inverterSn}/upgrade?firmId=${disabled.id}`)).toMatchObject({
      code: ErrorCode.validation,
    });
    expect(await call(owner, 'POST', `/api/v1/inverter/${q.inverterSn}/upgrade?firmId=${gatewayFw.id}`)).toMatchObject({
      code: ErrorCode.validation,
    });
    expect(await call(owner, 'POST', `/api/v1/inverter/${q.inverterSn}/upgrade`)).toMatchObject({ code: ErrorCode.validation });
    expect(q.gateway.upgrades()).toEqual([]);
    expect(off.gateway.upgrades()).toEqual([]);
  });

  it('another tenant’s device is not seen (600, 305); a visitor and an account without the permission get 2; nothing stored', async () => {
    const p = await plant();
    expect(await call(stranger, 'POST', `/api/v1/inverter/${p.inverterSn}/upgrade?firmId=${inverterFw.id}`)).toMatchObject({
      code: ErrorCode.inverterMissing,
    });
    expect(await call(stranger, 'POST', `/api/v1/gateway/${p.gatewayId}/upgrade?firmId=${gatewayFw.id}`)).toMatchObject({
      code: ErrorCode.gatewayMissing,
    });
    expect(
      await call(stranger, 'POST', `/api/v1/gateways/batch/upgrade`, { firmId: gatewayFw.id, sns: [p.gateway.sn] }),
    ).toMatchObject({ code: ErrorCode.gatewayMissing });
    expect(await call(stranger, 'GET', `/api/v1/inverter/${p.inverterSn}/upgrade/progress`)).toMatchObject({
      code: ErrorCode.inverterMissing,
    });
    expect(await call(stranger, 'POST', `/api/v1/inverter/${p.inverterSn}/cutUpgrade`)).toMatchObject({
      code: ErrorCode.inverterMissing,
    });
    await share(rig.s, p.plantId, visitor.id, 'visitor');
    expect(await call(visitor, 'POST', `/api/v1/inverter/${p.inverterSn}/upgrade?firmId=${inverterFw.id}`)).toMatchObject({
      code: ErrorCode.noPermission,
    });
    // A company whose grant leaves upgrades out: its administrator sees the plant but may not upgrade.
    const companyId = await company(
      rig.s,
      undefined,
      companyGrantable.filter((n) => n !== 'inverter.upgrade' && n !== 'gateway.upgrade'),
    );
    const staff = await account(rig.s, { kind: 'company_admin', companyId });
    const theirs = await upgradePlant(rig, owner, { companyId });
    plants.push(theirs);
    // They see the inverter, which has had no upgrade: that is its state, not an error.
    expect(await call(staff, 'GET', `/api/v1/inverter/${theirs.inverterSn}/upgrade/progress`)).toMatchObject({
      code: ErrorCode.ok,
      data: null,
    });
    expect(await call(staff, 'POST', `/api/v1/inverter/${theirs.inverterSn}/upgrade?firmId=${inverterFw.id}`)).toMatchObject({
      code: ErrorCode.noPermission,
    });
    expect(await call(staff, 'POST', `/api/v1/gateway/${theirs.gatewayId}/upgrade?firmId=${gatewayFw.id}`)).toMatchObject({
      code: ErrorCode.noPermission,
    });
    const rows = await rig.s.db
      .selectFrom('upgrade_devices')
      .select('id')
      .where('device_sn', 'in', [p.inverterSn, p.gateway.sn, theirs.inverterSn, theirs.gateway.sn])
      .execute();
    expect(rows).toEqual([]);
    expect(p.gateway.upgrades()).toEqual([]);
  });
});

describe('a gateway upgrade', () => {
  it('succeeds when the gateway comes back from its reboot saying the new version; checks say why one cannot', async () => {
    const p = await plant({ sw: 'SFG-2.4.1' });
    const other = await plant({ sw: 'SFG-2.5.0' });
    const off = await plant({ online: false, sw: 'SFG-2.4.1' });
    const check = await call(owner, 'POST', '/api/v1/gateways/batch/check', {
      firmId: gatewayFw.id,
      sns: [p.gateway.sn, other.gateway.sn, off.gateway.sn],
    });
    expect(check.data.map((c: { sn: string; code: number }) => c.code)).toEqual([
      ErrorCode.ok,
      ErrorCode.firmwareLatest,
      ErrorCode.deviceOffline,
    ]);
    expect(await call(owner, 'POST', `/api/v1/gateway/${other.gateway.sn}/check?firmId=${gatewayFw.id}`)).toMatchObject({
      code: ErrorCode.ok,
      data: { ok: false, code: ErrorCode.firmwareLatest, version: 'SFG-2.5.0' },
    });
    expect(await call(owner, 'POST', `/api/v1/gateway/${other.gatewayId}/upgrade?firmId=${gatewayFw.id}`)).toMatchObject({
      code: ErrorCode.firmwareLatest,
    });

    const res = await call(owner, 'POST', `/api/v1/gateway/${p.gatewayId}/upgrade?firmId=${gatewayFw.id}`);
    expect(res).toMatchObject({
      code: ErrorCode.ok,
      data: { devices: [{ sn: p.gateway.sn, kind: 'gateway', fromVersion: 'SFG-2.4.1' }] },
    });
    const [command] = await p.gateway.receivedCount(1);
    expect(command).toMatchObject({ type: 'upgrade', firmware: { version: 'SFG-2.5.0' } });
    expect(command!.device).toBeUndefined();
    await p.gateway.reply(command!.id, { status: 'ok' });
    await waitFor(async () => (await rig.commands.get(command!.id))?.state === 'succeeded', 3000, 'ok');
    await runner.tick();
    const device = () =>
      rig.s.db.selectFrom('upgrade_devices').selectAll().where('device_sn', '=', p.gateway.sn).executeTakeFirstOrThrow();
    expect((await device()).state).toBe('upgrading');
    await p.gateway.reboot('SFG-2.5.0');
    await runner.tick();
    expect(await device()).toMatchObject({ state: 'success', error: null });
    expect(await logOf(p.gateway.sn)).toMatchObject({ result: 'succeeded' });
  });
});

describe('cutting an upgrade', () => {
  it('a download is told to abort and ends cancelled; a flash under way finishes; 404 when none runs', async () => {
    const p = await plant();
    expect(await call(owner, 'POST', `/api/v1/inverter/${p.inverterSn}/cutUpgrade`)).toMatchObject({ code: ErrorCode.notFound });
    await call(owner, 'POST', `/api/v1/inverter/${p.inverterSn}/upgrade?firmId=${inverterFw.id}`);
    const [command] = await p.gateway.receivedCount(1);
    await p.gateway.reply(command!.id, { status: 'progress', stage: 'download', progress: 20 });
    await waitFor(async () => (await rig.commands.get(command!.id))?.progress === 20, 3000, 'downloading');
    const cut = await call(owner, 'POST', `/api/v1/inverter/${p.inverterSn}/cutUpgrade`);
    expect(cut).toMatchObject({ code: ErrorCode.ok, data: { state: 'sending' } });
    const [, abort] = await p.gateway.receivedCount(2);
    expect(abort).toMatchObject({ type: 'abort', target: command!.id, device: p.inverterSn });
    await p.gateway.reply(abort!.id, { status: 'ok' });
    await p.gateway.reply(command!.id, { status: 'error', stage: 'download', error: 'cancelled' });
    await waitFor(async () => (await progress(p.inverterSn)).data.state === 'cancelled', 3000, 'cancelled');
    expect(await logOf(p.inverterSn)).toMatchObject({ result: 'cancelled' });

    // Verifying the download: aborted too.
    const d = await plant();
    await call(owner, 'POST', `/api/v1/inverter/${d.inverterSn}/upgrade?firmId=${inverterFw.id}`);
    const [cd] = await d.gateway.receivedCount(1);
    await d.gateway.reply(cd!.id, { status: 'progress', stage: 'verify', progress: 100 });
    await waitFor(async () => (await progress(d.inverterSn)).data.state === 'downloaded', 3000, 'downloaded');
    await call(owner, 'POST', `/api/v1/inverter/${d.inverterSn}/cutUpgrade`);
    expect((await d.gateway.receivedCount(2))[1]).toMatchObject({ type: 'abort', target: cd!.id });

    // Flashing: nothing is sent; it finishes and reports.
    const f = await plant();
    await call(owner, 'POST', `/api/v1/inverter/${f.inverterSn}/upgrade?firmId=${inverterFw.id}`);
    const [cf] = await f.gateway.receivedCount(1);
    await f.gateway.reply(cf!.id, { status: 'progress', stage: 'flash', progress: 50 });
    await waitFor(async () => (await progress(f.inverterSn)).data.state === 'upgrading', 3000, 'flashing');
    expect(await call(owner, 'POST', `/api/v1/inverter/${f.inverterSn}/cutUpgrade`)).toMatchObject({
      code: ErrorCode.ok,
      data: { state: 'upgrading' },
    });
    await new Promise((r) => setTimeout(r, 100));
    expect(f.gateway.received.map((c) => c.type)).toEqual(['upgrade']);
    await f.gateway.reply(cf!.id, { status: 'ok' });
    await waitFor(async () => (await rig.commands.get(cf!.id))?.state === 'succeeded', 3000, 'ok');
    await f.gateway.report(f.inverterSn, '01 05 00 00');
    await waitFor(
      async () => {
        await runner.tick();
        return (await progress(f.inverterSn)).data.state === 'success';
      },
      5000,
      'success after cut',
    );
  });

  it('an upgrade whose command still waits for the gateway is cancelled with its job', async () => {
    const p = await plant();
    await call(owner, 'POST', `/api/v1/inverter/${p.inverterSn}/upgrade?firmId=${inverterFw.id}`);
    const row = await rig.s.db
      .selectFrom('upgrade_devices')
      .selectAll()
      .where('device_sn', '=', p.inverterSn)
      .executeTakeFirstOrThrow();
    // As if it had not been sent yet: the job back in the queue (the gateway went offline first).
    await p.gateway.disconnect();
    await rig.s.db.updateTable('command_jobs').set({ state: 'queued', sent_at: null }).where('id', '=', row.job_id!).execute();
    expect(await call(owner, 'POST', `/api/v1/inverter/${p.inverterSn}/cutUpgrade`)).toMatchObject({
      code: ErrorCode.ok,
      data: { state: 'cancelled' },
    });
    expect((await rig.commands.get(row.job_id!))?.state).toBe('cancelled');
  });
});
