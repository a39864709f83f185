/**
 * Power and diagnostics through the API, over the command channel to a gateway on MQTT: what is
 * sent, the codes (600/305 not seen, 2 not operable, 1001 offline, 1 timed out, 1005 blocked),
 * and batches refused whole.
 */

import { ErrorCode } from '@sunfleet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CommandRig, commandRig, TestGateway } from '../../../test/commands.ts';
import { badInput } from '../../../test/envelopes.ts';
import { addDevice } from '../../../test/kits/events.ts';
import { type Account, account, company, storePlant, uniqueSn } from '../../../test/kits/plants.ts';
import { share } from '../../../test/kits/reports.ts';
import { waitFor } from '../../../test/mqtt.ts';
import { HYBRID } from '../../../test/telemetry.ts';
import { provisionGateway } from '../../telemetry/gateways.ts';

let rig: CommandRig;
const gateways: TestGateway[] = [];

interface Plant {
  plantId: number;
  gateway: TestGateway;
  inverterSn: string;
}

let owner: Account;
let staff: Account;
let visitor: Account;
let stranger: Account;

beforeAll(async () => {
  rig = await commandRig({ timeoutMs: 1500 });
  owner = await account(rig.s);
  const companyId = await company(rig.s);
  staff = await account(rig.s, { kind: 'company_admin', companyId });
  visitor = await account(rig.s);
  stranger = await account(rig.s);
  (rig.s as unknown as { companyId: number }).companyId = companyId;
});
afterAll(async () => {
  for (const g of gateways) await g.disconnect();
  await rig.close();
});

/** A plant of `owner` (and of the staff's company), its gateway (connected unless told) and an inverter. */
async function plant(opts: { online?: boolean } = {}): Promise<Plant> {
  const companyId = (rig.s as unknown as { companyId: number }).companyId;
  const plantId = await storePlant(rig.s, { owner_user_id: owner.id, company_id: companyId });
  await share(rig.s, plantId, visitor.id, 'visitor');
  const gw = await provisionGateway(rig.s.db, { sn: uniqueSn('GW'), plantId });
  const inverter = await addDevice(rig.s, gw.id, plantId, 'inverter', HYBRID);
  const gateway = new TestGateway(gw.sn, gw.secret);
  gateways.push(gateway);
  if (opts.online !== false) await online(gateway);
  return { plantId, gateway, inverterSn: inverter.sn };
}

async function online(g: TestGateway) {
  await g.connect(rig.broker.port);
  await waitFor(
    async () =>
      Number((await rig.s.db.selectFrom('gateways').select('online').where('sn', '=', g.sn).executeTakeFirstOrThrow()).online) ===
      1,
    5000,
    'gateway online',
  );
}

// biome-ignore lint/suspicious/noExplicitAny: the tests read fields of several reply shapes
type Reply = { code: number; msg: string; data: any };
const call = (who: Account, method: 'GET' | 'POST', url: string, payload?: unknown): Promise<Reply> =>
  rig.s.call(who.token, method, url, payload).then((r) => r.body as Reply);
const jobCount = async (gatewaySn: string) =>
  Number(
    (
      await rig.s.db
        .selectFrom('command_jobs')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('gateway_sn', '=', gatewaySn)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('inverter boot and shutdown', () => {
  it('sends the power command for the device and returns the settled job', async () => {
    const p = await plant();
    const off = await call(owner, 'GET', `/api/v1/inverter/${p.inverterSn}/shutdown`);
    expect(off).toMatchObject({
      code: ErrorCode.ok,
      data: { sn: p.inverterSn, gatewaySn: p.gateway.sn, type: 'shutdown', state: 'succeeded', error: null },
    });
    expect(p.gateway.received[0]).toMatchObject({ type: 'shutdown', device: p.inverterSn, id: off.data.jobId });
    const on = await call(owner, 'GET', `/api/v1/inverter/${p.inverterSn}/boot`);
    expect(on).toMatchObject({ code: ErrorCode.ok, data: { type: 'boot', state: 'succeeded' } });
    // The audit record: who asked.
    const row = await rig.s.db.selectFrom('command_jobs').selectAll().where('id', '=', on.data.jobId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ requested_by: owner.id, device_sn: p.inverterSn, type: 'boot', state: 'succeeded' });
  });

  it('returns the device’s reason when it refuses', async () => {
    const p = await plant();
    p.gateway.respond = () => ({ status: 'error', error: 'device has no power switch' });
    expect(await call(owner, 'GET', `/api/v1/inverter/${p.inverterSn}/boot`)).toMatchObject({
      code: ErrorCode.ok,
      data: { state: 'failed', error: 'device has no power switch' },
    });
  });

  it('1001 when the gateway is offline (nothing stored), 1 when no answer comes in time', async () => {
    const p = await plant({ online: false });
    expect(await call(owner, 'GET', `/api/v1/inverter/${p.inverterSn}/boot`)).toMatchObject({
      code: ErrorCode.deviceOffline,
      data: null,
    });
    expect(await jobCount(p.gateway.sn)).toBe(0);
    const q = await plant();
    q.gateway.behaviour = 'silent';
    expect(await call(owner, 'GET', `/api/v1/inverter/${q.inverterSn}/shutdown`)).toMatchObject({
      code: ErrorCode.timeout,
      data: null,
    });
  });

  it('1005 while another power command of the device is open, or while it is upgrading', async () => {
    const p = await plant();
    p.gateway.behaviour = 'silent';
    const first = call(owner, 'GET', `/api/v1/inverter/${p.inverterSn}/shutdown`);
    await p.gateway.receivedCount(1);
    expect(await call(owner, 'GET', `/api/v1/inverter/${p.inverterSn}/boot`)).toMatchObject({
      code: ErrorCode.stateBlocksAction,
    });
    expect((await first).code).toBe(ErrorCode.timeout);
    const q = await plant();
    await rig.s.db.updateTable('devices').set({ status: 'upgrading' }).where('sn', '=', q.inverterSn).execute();
    expect(await call(owner, 'GET', `/api/v1/inverter/${q.inverterSn}/boot`)).toMatchObject({
      code: ErrorCode.stateBlocksAction,
    });
    expect(q.gateway.received).toEqual([]);
  });

  it('of 10 shutdowns at once for one device, exactly one is stored and sent; the other 9 are 1005', async () => {
    const p = await plant();
    p.gateway.behaviour = 'silent';
    const replies = await Promise.all(
      Array.from({ length: 10 }, () => call(owner, 'GET', `/api/v1/inverter/${p.inverterSn}/shutdown`)),
    );
    // The one stored waits for an answer that does not come (1); the others were refused.
    expect(replies.map((r) => r.code).sort()).toEqual([ErrorCode.timeout, ...Array(9).fill(ErrorCode.stateBlocksAction)]);
    expect(await jobCount(p.gateway.sn)).toBe(1);
    expect(new Set(p.gateway.received.map((m) => m.id)).size).toBe(1);
    // Once it is final (timed out), the device takes a power command again.
    p.gateway.behaviour = 'answer';
    expect(await call(owner, 'GET', `/api/v1/inverter/${p.inverterSn}/boot`)).toMatchObject({
      code: ErrorCode.ok,
      data: { state: 'succeeded' },
    });
  });

  it('600 for an inverter the caller cannot see, 2 for a visitor; nothing sent', async () => {
    const p = await plant();
    expect(await call(stranger, 'GET', `/api/v1/inverter/${p.inverterSn}/boot`)).toMatchObject({
      code: ErrorCode.inverterMissing,
      data: null,
    });
    expect(await call(visitor, 'GET', `/api/v1/inverter/${p.inverterSn}/shutdown`)).toMatchObject({
      code: ErrorCode.noPermission,
      data: null,
    });
    expect(p.gateway.received).toEqual([]);
    expect(await jobCount(p.gateway.sn)).toBe(0);
  });
});

describe('debug', () => {
  it('sends the inverter debug code and shows the reply as it comes', async () => {
    const p = await plant();
    p.gateway.behaviour = 'acceptOnly';
    const sent = await call(staff, 'POST', `/api/v1/inverter/${p.inverterSn}/debug`, { code: 'AT+STATUS' });
    expect(sent).toMatchObject({ code: ErrorCode.ok, data: { code: 'AT+STATUS', text: null, type: 'debug' } });
    expect(['sent', 'acknowledged']).toContain(sent.data.state);
    const [command] = await p.gateway.receivedCount(1);
    expect(command).toMatchObject({ type: 'debug', device: p.inverterSn, text: 'AT+STATUS' });
    const pending = await call(staff, 'GET', `/api/v1/inverter/${p.inverterSn}/debug/reply`);
    expect(pending).toMatchObject({ code: ErrorCode.ok, data: { jobId: sent.data.jobId, text: null } });
    await p.gateway.reply(command!.id, { status: 'ok', text: 'grid ok\nbus ok' });
    const reply = await call(staff, 'GET', `/api/v1/inverter/${p.inverterSn}/debug/reply?jobId=${sent.data.jobId}&waitMs=3000`);
    expect(reply).toMatchObject({ code: ErrorCode.ok, data: { state: 'succeeded', text: 'grid ok\nbus ok' } });
  });

  it('inverter debug: 1001 offline; 404 for a reply when there is none, or for another device’s job; 2 for an owner without the permission', async () => {
    const p = await plant({ online: false });
    expect(await call(staff, 'POST', `/api/v1/inverter/${p.inverterSn}/debug`, { code: 'x' })).toMatchObject({
      code: ErrorCode.deviceOffline,
    });
    expect(await call(staff, 'GET', `/api/v1/inverter/${p.inverterSn}/debug/reply`)).toMatchObject({ code: ErrorCode.notFound });
    const q = await plant();
    const other = await call(staff, 'POST', `/api/v1/inverter/${q.inverterSn}/debug`, { code: 'x' });
    expect(await call(staff, 'GET', `/api/v1/inverter/${p.inverterSn}/debug/reply?jobId=${other.data.jobId}`)).toMatchObject({
      code: ErrorCode.notFound,
    });
    expect(await call(owner, 'POST', `/api/v1/inverter/${q.inverterSn}/debug`, { code: 'x' })).toMatchObject({
      code: ErrorCode.noPermission,
    });
  });

  it('gateway debug waits for the diagnostic text; 1001 offline, 305 for a gateway not seen', async () => {
    const p = await plant();
    p.gateway.respond = (c) => ({ status: 'ok', text: `ran ${c.text}` });
    expect(await call(staff, 'POST', `/api/v1/gateway/${p.gateway.sn}/debug`, { code: 'ping' })).toMatchObject({
      code: ErrorCode.ok,
      data: { sn: p.gateway.sn, state: 'succeeded', text: 'ran ping', code: 'ping' },
    });
    const q = await plant({ online: false });
    expect(await call(staff, 'POST', `/api/v1/gateway/${q.gateway.sn}/debug`, { code: 'ping' })).toMatchObject({
      code: ErrorCode.deviceOffline,
    });
    const other = await company(rig.s);
    const outsider = await account(rig.s, { kind: 'company_admin', companyId: other });
    expect(await call(outsider, 'POST', `/api/v1/gateway/${p.gateway.sn}/debug`, { code: 'ping' })).toMatchObject({
      code: ErrorCode.gatewayMissing,
      data: null,
    });
  });
});

describe('gateway restart', () => {
  it('restarts one gateway, or several named by commas; an offline one waits for it (queued)', async () => {
    const a = await plant();
    const b = await plant({ online: false });
    const one = await call(owner, 'POST', `/api/v1/gateway/${a.gateway.sn}/restart`);
    expect(one).toMatchObject({ code: ErrorCode.ok, data: { jobs: [{ sn: a.gateway.sn, type: 'restart' }] } });
    const both = await call(owner, 'POST', `/api/v1/gateway/${a.gateway.sn},${b.gateway.sn}/restart`);
    expect(both.data.jobs.map((j: { sn: string; state: string }) => [j.sn, j.state])).toEqual([
      [a.gateway.sn, 'sent'],
      [b.gateway.sn, 'queued'],
    ]);
    await online(b.gateway);
    const [command] = await b.gateway.receivedCount(1);
    expect(command).toMatchObject({ type: 'restart', id: both.data.jobs[1].jobId });
    const rows = await rig.s.db
      .selectFrom('command_jobs')
      .select('batch_id')
      .where(
        'id',
        'in',
        both.data.jobs.map((j: { jobId: string }) => j.jobId),
      )
      .execute();
    expect(new Set(rows.map((r) => r.batch_id))).toEqual(new Set([both.data.batchId]));
  });

  it('a batch naming one gateway the caller may not operate does nothing: 305 not seen, 2 visitor', async () => {
    const mine = await plant();
    const foreign = await plant();
    const strangerPlant = await storePlant(rig.s, { owner_user_id: stranger.id });
    const strangers = await provisionGateway(rig.s.db, { sn: uniqueSn('GW'), plantId: strangerPlant });
    expect(await call(owner, 'POST', '/api/v1/gateways/batch/restart', { sns: [mine.gateway.sn, strangers.sn] })).toMatchObject({
      code: ErrorCode.gatewayMissing,
      data: null,
    });
    expect(await call(visitor, 'POST', '/api/v1/gateways/batch/restart', { sns: [mine.gateway.sn] })).toMatchObject({
      code: ErrorCode.noPermission,
    });
    expect(await call(owner, 'POST', `/api/v1/gateway/${mine.gateway.sn},${strangers.sn}/restart`)).toMatchObject({
      code: ErrorCode.gatewayMissing,
    });
    await new Promise((r) => setTimeout(r, 100));
    expect(mine.gateway.received).toEqual([]);
    expect(foreign.gateway.received).toEqual([]);
    expect(await jobCount(mine.gateway.sn)).toBe(0);
    expect(await jobCount(strangers.sn)).toBe(0);
  });

  it('a batch restarts each gateway named, once, with a job each', async () => {
    const a = await plant();
    const b = await plant();
    const res = await call(owner, 'POST', '/api/v1/gateways/batch/restart', { sns: [a.gateway.sn, b.gateway.sn, a.gateway.sn] });
    expect(res.code).toBe(ErrorCode.ok);
    expect(res.data.jobs).toHaveLength(2);
    await a.gateway.receivedCount(1);
    await b.gateway.receivedCount(1);
    for (const j of res.data.jobs) expect((await rig.commands.settle(j.jobId, 3000)).state).toBe('succeeded');
    expect(await call(owner, 'POST', '/api/v1/gateways/batch/restart', { sns: [] })).toMatchObject({
      code: ErrorCode.validation,
    });
    expect(await call(owner, 'POST', `/api/v1/gateway/${encodeURIComponent('a/b')}/restart`)).toMatchObject({
      code: ErrorCode.validation,
    });
  });
  it('a batch is read back as it stands by the account that asked; another account gets 404', async () => {
    const a = await plant();
    const b = await plant({ online: false });
    const res = await call(owner, 'POST', '/api/v1/gateways/batch/restart', { sns: [a.gateway.sn, b.gateway.sn] });
    await rig.commands.settle(res.data.jobs[0].jobId, 3000);
    const progress = await call(owner, 'GET', `/api/v1/gateways/restart/${res.data.batchId}`);
    expect(progress.code).toBe(ErrorCode.ok);
    const states = Object.fromEntries(progress.data.jobs.map((j: { sn: string; state: string }) => [j.sn, j.state]));
    expect(states).toEqual({ [a.gateway.sn]: 'succeeded', [b.gateway.sn]: 'queued' });
    expect(await call(staff, 'GET', `/api/v1/gateways/restart/${res.data.batchId}`)).toMatchObject({
      code: ErrorCode.notFound,
      data: null,
    });
    expect(await call(owner, 'GET', '/api/v1/gateways/restart/00000000-0000-4000-8000-00000000dead')).toMatchObject({
      code: ErrorCode.notFound,
    });
    expect(await call(owner, 'GET', '/api/v1/gateways/restart/not-a-batch')).toMatchObject({ code: ErrorCode.validation });
  });
});

describe('gateway settings switch', () => {
  it('sends the setting and returns the settled job; a value out of range is 4 and nothing is stored', async () => {
    const p = await plant();
    const ok = await call(owner, 'POST', `/api/v1/gateway/${p.gateway.sn}/settings/switch`, {
      name: 'uploadInterval',
      value: 300,
    });
    expect(ok).toMatchObject({ code: ErrorCode.ok, data: { type: 'settings', state: 'succeeded' } });
    expect(p.gateway.received[0]).toMatchObject({ type: 'settings', setting: { name: 'uploadInterval', value: 300 } });
    const bad = await call(owner, 'POST', `/api/v1/gateway/${p.gateway.sn}/settings/switch`, {
      name: 'uploadInterval',
      value: 5,
    });
    expect(bad).toMatchObject(badInput('value'));
    expect(bad.msg).toMatch(/uploadInterval must be within 10\.\.3600/);
    expect(
      await call(owner, 'POST', `/api/v1/gateway/${p.gateway.sn}/settings/switch`, { name: 'ssid', value: 1 }),
    ).toMatchObject({
      code: ErrorCode.validation,
    });
    expect(await jobCount(p.gateway.sn)).toBe(1);
  });

  it('waits for an offline gateway: the job stays queued and is sent when it comes online', async () => {
    const p = await plant({ online: false });
    const res = await call(owner, 'POST', `/api/v1/gateway/${p.gateway.sn}/settings/switch`, { name: 'bufferOffline', value: 0 });
    expect(res).toMatchObject({ code: ErrorCode.ok, data: { state: 'queued' } });
    await online(p.gateway);
    await p.gateway.receivedCount(1);
    expect((await rig.commands.settle(res.data.jobId, 3000)).state).toBe('succeeded');
  });
});
