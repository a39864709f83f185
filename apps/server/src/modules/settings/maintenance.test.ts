/**
 * Every remote-setting write and revert is in the maintenance log with how it ended: a write
 * (kind 'setting'), its revert (kind 'revert', naming the job it reverts), a write the device
 * refuses (failed, with the error), and each job of a batch. Read through the log's API,
 * on a command channel that runs the simulator's own command execution.
 */

import { ErrorCode } from '@sunfleet/contracts';
import { settingGroupFields, stepOf } from '@sunfleet/protocols';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness.ts';
import { type Account, account, company, gateway, storePlant, uniqueSn } from '../../../test/kits/plants.ts';
import { hybridPlant, SimulatedChannel } from '../../../test/sim-channel.ts';

const HYBRID = 'sunfleet-hybrid-1p';
const field = settingGroupFields(HYBRID, 'batt')!.find((f) => f.access === 'rw' && !f.enum)!;
const nth = (k: number) => Number((field.min! + k * stepOf(field)!).toFixed(6));

let s: TestServer;
const channel = new SimulatedChannel();
let O: Account;
const H1 = uniqueSn('HM');
const H2 = uniqueSn('HM');
const plant = hybridPlant([H1, H2]);
let gatewaySn: string;
let plantId: number;

type Entry = {
  kind: string;
  sn: string;
  gatewaySn: string | null;
  plantId: number | null;
  jobId: string | null;
  result: string;
  detail: Record<string, unknown>;
  finishedAt: string | null;
};

beforeAll(async () => {
  s = await startServer({}, undefined, { commands: channel });
  // A company administrator (who reads the log) whose company holds the plant.
  const companyId = await company(s);
  O = await account(s, { kind: 'company_admin', companyId });
  plantId = await storePlant(s, { owner_user_id: (await account(s)).id, company_id: companyId });
  const gw = await gateway(s, plantId);
  gatewaySn = gw.sn;
  await s.db.updateTable('gateways').set({ online: 1 }).where('sn', '=', gw.sn).execute();
  const t = Date.now();
  for (const sn of [H1, H2])
    await s.db
      .insertInto('devices')
      .values({
        sn,
        gateway_id: gw.id,
        plant_id: plantId,
        kind: 'inverter',
        protocol_id: HYBRID,
        status: 'normal',
        created_at: t,
        updated_at: t,
      })
      .execute();
  channel.attach(gw.sn, plant);
});
afterAll(() => s.close());

async function log(sn: string): Promise<Entry[]> {
  const res = await s.call(O.token, 'GET', `/api/v1/logger/getInverterLogger/${sn}?size=50`);
  expect(res.body.code).toBe(ErrorCode.ok);
  return (res.body.data as { list: Entry[] }).list;
}

const write = (sn: string, value: number) =>
  s.call(O.token, 'POST', `/api/v1/dy/store/${sn}/setting/batt`, { values: { [field.key]: value } });

describe('the maintenance log holds the remote settings', () => {
  it('a write and its revert, each with its outcome', async () => {
    const first = (await write(H1, nth(3))).body.data as { id: string; state: string };
    expect(first.state).toBe('succeeded');
    const revert = (await s.call(O.token, 'POST', `/api/v1/setting/job/${first.id}/revert`)).body.data as {
      id: string;
      state: string;
    };
    expect(revert.state).toBe('succeeded');
    const entries = await log(H1);
    expect(entries.map((e) => e.kind)).toEqual(['revert', 'setting']);
    expect(entries[1]).toMatchObject({
      sn: H1,
      gatewaySn,
      plantId,
      jobId: first.id,
      result: 'succeeded',
      detail: { family: 'dyStore', group: 'batt', requested: { [field.key]: nth(3) } },
    });
    expect(entries[1]!.finishedAt).not.toBeNull();
    expect(entries[0]).toMatchObject({ jobId: revert.id, result: 'succeeded', detail: { revertOf: first.id } });
    // The log's filter by kind finds them too.
    const reverts = await s.call(O.token, 'GET', `/api/v1/logger/plant?plantId=${plantId}&kind=revert`);
    expect((reverts.body.data as { list: Entry[] }).list.map((e) => e.jobId)).toEqual([revert.id]);
  });

  it('a write the device refuses: failed, with the error', async () => {
    const bank = plant.device(H2)!.bank;
    const own = bank.write.bind(bank);
    bank.write = () => 'illegal data value at 23';
    try {
      const job = (await write(H2, nth(4))).body.data as { id: string; state: string; error: string };
      expect(job.state).toBe('failed');
      const [entry] = await log(H2);
      expect(entry).toMatchObject({ kind: 'setting', jobId: job.id, result: 'failed', detail: { error: job.error } });
    } finally {
      bank.write = own;
    }
  });

  it('each job of a batch, settled when its job ends', async () => {
    const res = await s.call(O.token, 'POST', '/api/v1/setting/batch', {
      family: 'dyStore',
      group: 'batt',
      sns: [H1, H2],
      values: { [field.key]: nth(5) },
    });
    expect(res.body.code).toBe(ErrorCode.ok);
    const batchId = (res.body.data as { id: string }).id;
    for (let i = 0; i < 400; i++) {
      const b = (await s.call(O.token, 'GET', `/api/v1/setting/batch/${batchId}`)).body.data as { state: string };
      if (b.state !== 'running') break;
      await new Promise((r) => setTimeout(r, 10));
    }
    for (const sn of [H1, H2]) {
      const [entry] = await log(sn);
      expect(entry).toMatchObject({ kind: 'setting', result: 'succeeded', detail: { batchId } });
    }
  });
});
