/**
 * Operations write the maintenance log: an inverter power command, an inverter or gateway debug and a gateway restart each
 * leave an entry (who, which device, gateway and plant, the job) once the job is stored, settled
 * when operations sees the job end; a refused request leaves none. Over a real broker.
 */

import { ErrorCode } from '@sunfleet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CommandRig, commandRig, TestGateway } from '../../../test/commands.ts';
import { addDevice } from '../../../test/kits/events.ts';
import { type Account, account, company, storePlant, uniqueSn } from '../../../test/kits/plants.ts';
import { waitFor } from '../../../test/mqtt.ts';
import { HYBRID } from '../../../test/telemetry.ts';
import { provisionGateway } from '../../telemetry/gateways.ts';

let rig: CommandRig;
let staff: Account;
let owner: Account;
let stranger: Account;
let companyId: number;
const gateways: TestGateway[] = [];

beforeAll(async () => {
  rig = await commandRig({ timeoutMs: 1500 });
  companyId = await company(rig.s);
  staff = await account(rig.s, { kind: 'company_admin', companyId });
  owner = await account(rig.s);
  stranger = await account(rig.s);
});
afterAll(async () => {
  for (const g of gateways) await g.disconnect();
  await rig.close();
});

async function plant(opts: { online?: boolean } = {}) {
  const plantId = await storePlant(rig.s, { owner_user_id: owner.id, company_id: companyId });
  const gw = await provisionGateway(rig.s.db, { sn: uniqueSn('GW'), plantId });
  const inverter = await addDevice(rig.s, gw.id, plantId, 'inverter', HYBRID);
  const gateway = new TestGateway(gw.sn, gw.secret);
  gateways.push(gateway);
  if (opts.online !== false) {
    await gateway.connect(rig.broker.port);
    await waitFor(
      async () =>
        Number(
          (await rig.s.db.selectFrom('gateways').select('online').where('sn', '=', gw.sn).executeTakeFirstOrThrow()).online,
        ) === 1,
      5000,
      'gateway online',
    );
  }
  return { plantId, gateway, inverterSn: inverter.sn };
}

// biome-ignore lint/suspicious/noExplicitAny: the tests read fields of several reply shapes
type Reply = { code: number; msg: string; data: any };
const call = (who: Account, method: 'GET' | 'POST', url: string, payload?: unknown): Promise<Reply> =>
  rig.s.call(who.token, method, url, payload).then((r) => r.body as Reply);
const entries = (sn: string) =>
  rig.s.db.selectFrom('maintenance_log').selectAll().where('device_sn', '=', sn).orderBy('id').execute();

describe('operations write the maintenance log', () => {
  it('inverter debug: an entry when sent, settled with the text when the reply is read', async () => {
    const p = await plant();
    p.gateway.behaviour = 'acceptOnly';
    const sent = await call(staff, 'POST', `/api/v1/inverter/${p.inverterSn}/debug`, { code: 'AT+STATUS' });
    expect(sent.code).toBe(ErrorCode.ok);
    const [entry] = await entries(p.inverterSn);
    expect(entry).toMatchObject({
      kind: 'debug',
      gateway_sn: p.gateway.sn,
      plant_id: p.plantId,
      user_id: staff.id,
      job_id: sent.data.jobId,
      result: 'running',
      finished_at: null,
    });
    expect(JSON.parse(entry!.detail)).toEqual({ code: 'AT+STATUS' });
    const [command] = await p.gateway.receivedCount(1);
    await p.gateway.reply(command!.id, { status: 'ok', text: 'grid ok' });
    const reply = await call(staff, 'GET', `/api/v1/inverter/${p.inverterSn}/debug/reply?jobId=${sent.data.jobId}&waitMs=3000`);
    expect(reply.data.state).toBe('succeeded');
    const [settled] = await entries(p.inverterSn);
    expect(settled).toMatchObject({ result: 'succeeded', finished_at: expect.anything() });
    expect(JSON.parse(settled!.detail)).toEqual({ code: 'AT+STATUS', text: 'grid ok', error: null });
    // The log shows it to the staff with the code and the text.
    const sessions = await call(staff, 'GET', `/api/v1/logger/debug?sn=${p.inverterSn}`);
    expect(sessions.data.list).toEqual([expect.objectContaining({ code: 'AT+STATUS', text: 'grid ok', result: 'succeeded' })]);
  });

  it('gateway debug: an entry settled with the diagnostic text; a timed-out one failed', async () => {
    const p = await plant();
    p.gateway.respond = (c) => ({ status: 'ok', text: `ran ${c.text}` });
    expect((await call(staff, 'POST', `/api/v1/gateway/${p.gateway.sn}/debug`, { code: 'ping' })).code).toBe(ErrorCode.ok);
    const [entry] = await entries(p.gateway.sn);
    expect(entry).toMatchObject({ kind: 'debug', gateway_sn: p.gateway.sn, plant_id: p.plantId, result: 'succeeded' });
    expect(JSON.parse(entry!.detail)).toMatchObject({ code: 'ping', text: 'ran ping' });
    p.gateway.behaviour = 'silent';
    expect(await call(staff, 'POST', `/api/v1/gateway/${p.gateway.sn}/debug`, { code: 'slow' })).toMatchObject({
      code: ErrorCode.timeout,
    });
    const [, timedOut] = await entries(p.gateway.sn);
    expect(timedOut).toMatchObject({ result: 'failed' });
    expect(JSON.parse(timedOut!.detail)).toMatchObject({ code: 'slow', error: 'timed out' });
  });

  it('gateway restart: an entry per gateway; settled when its progress is read, or shown from the job', async () => {
    const a = await plant();
    const b = await plant({ online: false });
    const res = await call(owner, 'POST', '/api/v1/gateways/batch/restart', { sns: [a.gateway.sn, b.gateway.sn] });
    expect(res.code).toBe(ErrorCode.ok);
    const [ea] = await entries(a.gateway.sn);
    const [eb] = await entries(b.gateway.sn);
    expect(ea).toMatchObject({
      kind: 'restart',
      user_id: owner.id,
      plant_id: a.plantId,
      job_id: res.data.jobs[0].jobId,
      result: 'running',
    });
    expect(eb).toMatchObject({ kind: 'restart', plant_id: b.plantId, job_id: res.data.jobs[1].jobId, result: 'running' });
    expect(JSON.parse(ea!.detail)).toEqual({ batchId: res.data.batchId });
    await rig.commands.settle(res.data.jobs[0].jobId, 3000);
    // Nobody has read the progress: the log shows the job's end, the row still says running.
    const log = await call(staff, 'GET', `/api/v1/logger?sn=${a.gateway.sn}`);
    expect(log.data.list).toEqual([expect.objectContaining({ kind: 'restart', result: 'succeeded' })]);
    expect((await entries(a.gateway.sn))[0]).toMatchObject({ result: 'running' });
    await call(owner, 'GET', `/api/v1/gateways/restart/${res.data.batchId}`);
    expect((await entries(a.gateway.sn))[0]).toMatchObject({ result: 'succeeded' });
    expect((await entries(b.gateway.sn))[0]).toMatchObject({ result: 'running' });
  });

  it('inverter power off and on: an entry each, settled with the device’s answer; one it refuses failed', async () => {
    const p = await plant();
    const off = await call(owner, 'GET', `/api/v1/inverter/${p.inverterSn}/shutdown`);
    expect(off.data.state).toBe('succeeded');
    const on = await call(owner, 'GET', `/api/v1/inverter/${p.inverterSn}/boot`);
    expect(on.data.state).toBe('succeeded');
    p.gateway.respond = () => ({ status: 'error', error: 'device busy' });
    const refused = await call(owner, 'GET', `/api/v1/inverter/${p.inverterSn}/shutdown`);
    expect(refused.data.state).toBe('failed');
    const rows = await entries(p.inverterSn);
    expect(rows.map((r) => [r.kind, r.job_id, r.result, JSON.parse(r.detail).power])).toEqual([
      ['power', off.data.jobId, 'succeeded', 'off'],
      ['power', on.data.jobId, 'succeeded', 'on'],
      ['power', refused.data.jobId, 'failed', 'off'],
    ]);
    expect(rows[0]).toMatchObject({ gateway_sn: p.gateway.sn, plant_id: p.plantId, user_id: owner.id });
    expect(JSON.parse(rows[2]!.detail)).toMatchObject({ error: 'device busy' });
  });

  it('a refused request leaves no entry', async () => {
    const p = await plant({ online: false });
    expect((await call(staff, 'POST', `/api/v1/inverter/${p.inverterSn}/debug`, { code: 'x' })).code).toBe(
      ErrorCode.deviceOffline,
    );
    expect((await call(stranger, 'POST', `/api/v1/gateway/${p.gateway.sn}/restart`)).code).toBe(ErrorCode.gatewayMissing);
    expect(await entries(p.inverterSn)).toEqual([]);
    expect(await entries(p.gateway.sn)).toEqual([]);
  });
});
