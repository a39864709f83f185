/**
 * One kind name and one state for an inverter: a single-phase string inverter (type register 2)
 * is named by the contracts' type name on its detail (type key and the type register's info
 * field alike), and after a remote power-off its state is 'off' — by the command's effect at
 * once, by its own reading after that — in the detail and in the list; after a boot it is
 * 'normal' again. Commands run on the simulator's own command execution.
 */
import { ErrorCode, inverterTypeName, isFirmwareVersion } from '@sunfleet/contracts';
import { protocolPlan } from '@sunfleet/protocols';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness.ts';
import { type Account, account, createPlant, device, gateway, uniqueSn } from '../../../test/kits/plants.ts';
import { SimulatedChannel, simPlant } from '../../../test/sim-channel.ts';

const PROTOCOL = 'sunfleet-string-1p';
let s: TestServer;
const channel = new SimulatedChannel();
let O: Account;
const SN = uniqueSn('ST');
const plant = simPlant([{ kind: 'string', sn: SN, unit: 1, phases: 1, ratedW: 5000, pvKwp: 6 }]);
const noon = Date.parse('2025-06-20T12:00:00Z');
let clock = noon;
let deviceId: number;
let plantId: number;
let gatewayId: number;
let neighbourSn: string;
let commandJobs = 0;

type Detail = { state: string; status: string; typeKey: string; info: { key: string; text: string | null }[] };

/** What ingest stores of the simulated inverter's reading now: its decoded values as the latest. */
async function report() {
  clock += 60_000;
  const env = plant.advance(clock);
  const values = protocolPlan(PROTOCOL)!.decode(plant.device(SN)!.read(env)).values;
  const ts = Date.now();
  await s.db.deleteFrom('device_latest').where('device_id', '=', deviceId).execute();
  await s.db
    .insertInto('device_latest')
    .values({ device_id: deviceId, ts, values: JSON.stringify(values), updated_at: ts })
    .execute();
  return values;
}

/**
 * A power command through the API, then its job as the command channel's store keeps it (the
 * simulated channel keeps jobs in memory; the detail reads the store).
 */
async function power(kind: 'boot' | 'shutdown') {
  const res = await s.call(O.token, 'GET', `/api/v1/inverter/${SN}/${kind}`);
  expect(res.body).toMatchObject({ code: ErrorCode.ok, data: { state: 'succeeded' } });
  const job = res.body.data as { jobId: string; gatewaySn: string; finishedAt: string };
  const at = Date.parse(job.finishedAt);
  commandJobs++;
  await s.db
    .insertInto('command_jobs')
    .values({
      id: job.jobId,
      gateway_sn: job.gatewaySn,
      device_sn: SN,
      batch_id: null,
      type: kind,
      state: 'succeeded',
      body: JSON.stringify({ type: kind, device: SN }),
      reply: null,
      error: null,
      requested_by: O.id,
      timeout_ms: 30_000,
      expires_at: at + 60_000,
      created_at: at - 1 + commandJobs,
      sent_at: at,
      last_sent_at: at,
      acknowledged_at: at,
      finished_at: at,
      progress: null,
      stage: null,
    })
    .execute();
}

const detail = async (lan = 'en') => (await s.call(O.token, 'GET', `/api/v1/inverter/${SN}?lan=${lan}`)).body.data as Detail;
const listed = async () =>
  ((await s.call(O.token, 'GET', `/api/v1/inverters?sn=${SN}`)).body.data as { list: { sn: string; state: string }[] }).list.find(
    (r) => r.sn === SN,
  )!;

beforeAll(async () => {
  s = await startServer({}, undefined, { commands: channel });
  O = await account(s);
  plantId = await createPlant(s, O);
  const gw = await gateway(s, plantId);
  gatewayId = gw.id;
  await s.db.updateTable('gateways').set({ online: 1 }).where('sn', '=', gw.sn).execute();
  const t = Date.now();
  deviceId = (
    await s.db
      .insertInto('devices')
      .values({
        sn: SN,
        gateway_id: gw.id,
        plant_id: plantId,
        kind: 'inverter',
        protocol_id: PROTOCOL,
        device_type: 2,
        status: 'normal',
        created_at: t,
        updated_at: t,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  channel.attach(gw.sn, plant);
  await report();
  // A running neighbour on the same gateway: the counts must tell the two apart.
  const neighbour = await device(s, gw.id, plantId, { latest: { activePower: 1000 } });
  neighbourSn = (await s.db.selectFrom('devices').select('sn').where('id', '=', neighbour).executeTakeFirstOrThrow()).sn;
});
afterAll(() => s.close());

describe('an inverter’s kind name', () => {
  it('is the contracts’ type name in the type key and the type register’s field, in each language', async () => {
    for (const lan of ['en', 'es'] as const) {
      const d = await detail(lan);
      expect(d.typeKey).toBe('singlePhase');
      expect(d.info.find((f) => f.key === 'deviceType')?.text).toBe(inverterTypeName(d.typeKey, lan));
    }
    expect(inverterTypeName(2, 'en')).toBe('Single-phase');
    // A single-phase type register says nothing of string or hybrid.
    expect(inverterTypeName(2, 'en')).not.toMatch(/hybrid/i);
  });

  it('its firmware register is shown as its version in the version style, as the upgrade pages say it', async () => {
    const d = (await s.call(O.token, 'GET', `/api/v1/inverter/${SN}`)).body.data as {
      info: { key: string; value: unknown; text: string | null }[];
    };
    const firmware = d.info.find((f) => f.key === 'firmware')!;
    expect(firmware.value).toMatch(/^(0x)?03 (0x)?02 (0x)?00 (0x)?05$/);
    expect(firmware.text).toBe('3_2_0_5');
    expect(isFirmwareVersion(firmware.text!)).toBe(true);
    const upgrade = (await s.call(O.token, 'GET', `/api/v1/inverter/${SN}/firmware`)).body.data as { version: string | null };
    expect(upgrade.version).toBe(firmware.text);
  });
});

describe('an inverter’s state after a remote power-off', () => {
  it('is off at once by the command, stays off by its reading, and is normal after a boot', async () => {
    expect((await detail()).state).toBe('normal');
    await power('shutdown');
    // Before the device reports again: the command's effect.
    expect(await detail()).toMatchObject({ state: 'off', status: 'normal' });
    const values = await report();
    expect(protocolPlan(PROTOCOL)!.field('runningState')!.enum![Number(values.runningState)]!.en).toBe('Off');
    expect((await detail()).state).toBe('off');
    expect((await listed()).state).toBe('off');
    await power('boot');
    expect((await detail()).state).toBe('normal');
    await report();
    expect((await detail()).state).toBe('normal');
    expect((await listed()).state).toBe('normal');
  });

  it('a reading of Off without any command is off too (switched off at the device)', async () => {
    await s.db.deleteFrom('command_jobs').where('device_sn', '=', SN).execute();
    const off = protocolPlan(PROTOCOL)!.field('runningState')!.enum!;
    const code = Number(Object.keys(off).find((k) => off[Number(k)]!.en === 'Off'));
    const ts = Date.now();
    await s.db
      .updateTable('device_latest')
      .set({ values: JSON.stringify({ runningState: code, deviceType: 2 }), ts })
      .where('device_id', '=', deviceId)
      .execute();
    expect((await detail()).state).toBe('off');
    expect((await listed()).state).toBe('off');
  });
});

type Counts = Record<string, number>;
const get = async <T>(path: string) => (await s.call(O.token, 'GET', path)).body.data as T;
const sns = (page: { list: { sn: string }[] }) => page.list.map((r) => r.sn).sort();

describe('lists filter and count by the state their badges show', () => {
  /** Every view of the two inverters. */
  async function views(countFilter: string) {
    return {
      off: sns(await get(`/api/v1/inverters?status=off`)),
      normal: sns(await get(`/api/v1/inverters?status=normal`)),
      counts: await get<Counts>(`/api/v1/inverters/count?${countFilter}`),
      badges: (await get<{ list: { sn: string; state: string }[] }>('/api/v1/inverters?size=100')).list,
      statusSorted: (await get<{ list: { sn: string }[] }>('/api/v1/inverters?sort=status&order=2')).list.map((r) => r.sn),
      plantCounts: await get<Counts>(`/api/v1/plant/${plantId}/inverterCount`),
      plantList: (await get<{ list: { sn: string; state: string }[] }>(`/api/v1/plant/${plantId}/inverters`)).list,
      gatewayDevices: (await get<{ deviceList: { sn: string; state: string }[] }>(`/api/v1/gateway/${gatewayId}`)).deviceList,
    };
  }
  const stateBySn = (rows: { sn: string; state: string }[]) => Object.fromEntries(rows.map((r) => [r.sn, r.state]));

  it('a powered-off inverter is found by "off", counted as off, and shown off on the plant and gateway pages', async () => {
    await s.db.deleteFrom('command_jobs').where('device_sn', '=', SN).execute();
    await report();
    // Counted before: a power command that succeeded drops the lists' cached counts.
    expect(await get<Counts>(`/api/v1/inverters/count?plantId=${plantId}`)).toMatchObject({ normal: 2, off: 0 });
    await power('shutdown');
    // The command's effect, before the inverter reports again: every view says off at once.
    const v = await views(`plantId=${plantId}`);
    expect(v.off).toEqual([SN]);
    expect(v.normal).toEqual([neighbourSn]);
    expect(v.counts).toMatchObject({ total: 2, normal: 1, off: 1 });
    expect(stateBySn(v.badges)).toEqual({ [SN]: 'off', [neighbourSn]: 'normal' });
    // The counts add up with the badges.
    for (const state of ['normal', 'off', 'fault', 'warning', 'offline', 'upgrading'])
      expect(v.counts[state]).toBe(v.badges.filter((r) => r.state === state).length);
    expect(v.statusSorted).toEqual([SN, neighbourSn]);
    expect(v.plantCounts).toMatchObject({ total: 2, normal: 1, off: 1 });
    expect(stateBySn(v.plantList)).toEqual({ [SN]: 'off', [neighbourSn]: 'normal' });
    expect(stateBySn(v.gatewayDevices)).toEqual({ [SN]: 'off', [neighbourSn]: 'normal' });
  });

  it('after a boot it is normal again in every view', async () => {
    await power('boot');
    const v = await views(`plantId=${plantId}`);
    expect(v.off).toEqual([]);
    expect(v.normal).toEqual([SN, neighbourSn].sort());
    expect(v.counts).toMatchObject({ total: 2, normal: 2, off: 0 });
    expect(v.plantCounts).toMatchObject({ total: 2, normal: 2, off: 0 });
    expect(stateBySn(v.gatewayDevices)).toEqual({ [SN]: 'normal', [neighbourSn]: 'normal' });
  });
});
