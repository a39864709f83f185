/**
 * Remote settings end to end: HTTP → module → a command channel running the simulator's own
 * command execution on virtual hybrid inverters (so reads and writes go through the real
 * encoders and register banks).
 *
 * The world: owner O with plant A, gateway GA (online) and single-phase hybrids H1, H2 and
 * batch devices; gateway G3 (online) with a three-phase hybrid H3 (another family); gateway GM
 * (online) with micro-inverters MU (uneet) and MG (dyGrid), families read whole; gateway GO
 * (offline) with HO; a visitor V of plant A; owner P (another tenant) with HB on gateway GB.
 *
 * Fields, ranges, steps, options and registers come from the protocol definitions, so the tests
 * follow them: the hybrid's `batt` group gives the number fields `num`, `num2`, `num3` and the
 * enumeration `en` written here.
 */
import { ErrorCode, settingFamily } from '@sunfleet/contracts';
import { type FieldDefinition, settingGroupFields, settingGroupReads, stepOf, supportedSettings } from '@sunfleet/protocols';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness.ts';
import { type Account, account, createPlant, gateway, uniqueSn } from '../../../test/kits/plants.ts';
import { hybridPlant, SimulatedChannel, simPlant } from '../../../test/sim-channel.ts';

const HYBRID = 'sunfleet-hybrid-1p';
const battFields = settingGroupFields(HYBRID, 'batt')!;
const numbers = battFields.filter((f) => f.access === 'rw' && !f.enum);
const [num, num2, num3] = numbers as [FieldDefinition, FieldDefinition, FieldDefinition];
const en = battFields.find((f) => f.access === 'rw' && f.enum)!;
const options = Object.keys(en.enum!).map(Number);
const stepOfField = (f: FieldDefinition) => stepOf(f)!;
/** The field's value k steps above its minimum. */
const nth = (f: FieldDefinition, k: number) => Number((f.min! + k * stepOfField(f)).toFixed(6));
/** A value of the field other than `current`. */
const other = (f: FieldDefinition, current: unknown) => (current === nth(f, 1) ? nth(f, 2) : nth(f, 1));
/** A field of another group of the hybrid. */
const foreign = settingGroupFields(HYBRID, 'workMode')!.find((f) => !battFields.some((b) => b.key === f.key))!;
const wire = (protocolId: string, groups: string | string[]) =>
  settingGroupReads(protocolId, groups)!.map((r) => ({ fc: r.functionCode, addr: r.address, count: r.count }));

let s: TestServer;
const channel = new SimulatedChannel();
let O: Account;
let V: Account;
/** A read-only account managing plant A. */
let R: Account;
let P: Account;
const sn = {
  H1: uniqueSn('HA'),
  H2: uniqueSn('HB'),
  H3: uniqueSn('HC'),
  HO: uniqueSn('HD'),
  HB: uniqueSn('HE'),
  MU: uniqueSn('MU'),
  MG: uniqueSn('MG'),
};
const batchSns = Array.from({ length: 12 }, () => uniqueSn('BT'));
const plants = {
  A: hybridPlant([sn.H1, sn.H2, ...batchSns]),
  three: hybridPlant([sn.H3], 3),
  B: hybridPlant([sn.HB]),
  micro: simPlant([
    { kind: 'micro', sn: sn.MU, unit: 1, panels: 2, ratedW: 800, panelWp: 430 },
    { kind: 'micro', sn: sn.MG, unit: 2, ratedW: 1600, panelWp: 430 },
  ]),
};

const bankOf = (plant: ReturnType<typeof hybridPlant>, deviceSn: string) => plant.device(deviceSn)!.bank;
const batt = (deviceSn = sn.H1) => `/api/v1/dy/store/${deviceSn}/setting/batt`;
type Job = {
  id: string;
  state: string;
  kind: string;
  revertOf: string | null;
  requested: Record<string, unknown>;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  changes: { key: string; from: unknown; to: unknown }[];
  mismatches: { key: string; from: unknown; to: unknown }[];
  error: string | null;
  errorCode: number | null;
  requestedBy: { id: number; account: string };
};
type Batch = { id: string; state: string; total: number; done: number; succeeded: number; cancelled: number; jobs: Job[] };

async function devices(plantId: number, gatewayOnline: boolean, list: Array<[string, string]>) {
  const gw = await gateway(s, plantId);
  const row = await s.db.selectFrom('gateways').select('id').where('sn', '=', gw.sn).executeTakeFirstOrThrow();
  await s.db
    .updateTable('gateways')
    .set({ online: gatewayOnline ? 1 : 0 })
    .where('id', '=', row.id)
    .execute();
  const t = Date.now();
  for (const [deviceSn, protocol] of list) {
    await s.db
      .insertInto('devices')
      .values({
        sn: deviceSn,
        gateway_id: row.id,
        plant_id: plantId,
        kind: 'inverter',
        protocol_id: protocol,
        status: 'normal',
        created_at: t,
        updated_at: t,
      })
      .execute();
  }
  return gw.sn;
}

beforeAll(async () => {
  s = await startServer({}, undefined, { commands: channel });
  O = await account(s);
  V = await account(s);
  R = await account(s, { readOnly: true });
  P = await account(s);
  const a = await createPlant(s, O);
  const b = await createPlant(s, P);
  channel.attach(
    await devices(a, true, [
      [sn.H1, 'sunfleet-hybrid-1p'],
      [sn.H2, 'sunfleet-hybrid-1p'],
      ...batchSns.map((x) => [x, 'sunfleet-hybrid-1p'] as [string, string]),
    ]),
    plants.A,
  );
  channel.attach(await devices(a, true, [[sn.H3, 'sunfleet-hybrid-3p']]), plants.three);
  channel.attach(
    await devices(a, true, [
      [sn.MU, 'sunfleet-micro-2'],
      [sn.MG, 'sunfleet-micro'],
    ]),
    plants.micro,
  );
  await devices(a, false, [[sn.HO, 'sunfleet-hybrid-1p']]);
  channel.attach(await devices(b, true, [[sn.HB, 'sunfleet-hybrid-1p']]), plants.B);
  await s.db.insertInto('plant_shares').values({ plant_id: a, user_id: V.id, role: 'visitor', created_at: Date.now() }).execute();
  await s.db.insertInto('plant_shares').values({ plant_id: a, user_id: R.id, role: 'manager', created_at: Date.now() }).execute();
});
afterAll(() => s.close());

/** Nothing was sent or recorded by `action`. */
async function nothingSent(action: () => Promise<unknown>) {
  const sentBefore = channel.sent.length;
  const jobsBefore = await s.db
    .selectFrom('setting_changes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  await action();
  expect(channel.sent.length).toBe(sentBefore);
  const jobsAfter = await s.db
    .selectFrom('setting_changes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  expect(Number(jobsAfter.n)).toBe(Number(jobsBefore.n));
}

/** No command went to `deviceSn` during `action`. */
async function nothingSentFor(deviceSn: string, action: () => Promise<unknown>) {
  const before = channel.sentTo(deviceSn).length;
  await action();
  expect(channel.sentTo(deviceSn).length).toBe(before);
}

async function untilDone(who: Account, batchId: string): Promise<Batch> {
  for (let i = 0; i < 400; i++) {
    const res = await s.call(who.token, 'GET', `/api/v1/setting/batch/${batchId}`);
    const batch = res.body.data as Batch;
    if (batch.state !== 'running' && batch.done === batch.total) return batch;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('batch did not finish');
}

describe('support and reads', () => {
  it("names the device's family and the groups its protocol has", async () => {
    const res = await s.call(O.token, 'GET', `/api/v1/inverter/setting/${sn.H1}/support`);
    expect(res.body.code).toBe(ErrorCode.ok);
    expect(res.body.data).toMatchObject({ family: 'dyStore', path: `/api/v1/dy/store/${sn.H1}/setting`, wholeRead: false });
    // Every group the protocol has, in the family's order.
    const groups = (res.body.data as { groups: string[] }).groups;
    expect([...groups].sort()).toEqual([...supportedSettings(HYBRID)!.groups].sort());
    const order = settingFamily('dyStore')!.groups;
    expect(groups.map((g) => order.indexOf(g))).toEqual(groups.map((g) => order.indexOf(g)).sort((x, y) => x - y));
    const three = await s.call(O.token, 'GET', `/api/v1/inverter/setting/${sn.H3}/support`);
    expect(three.body.data).toMatchObject({ family: 'dyStore3p' });
  });

  it("gives each group's field definitions without reading the device (also for an offline one)", async () => {
    const sent = channel.sent.length;
    const res = await s.call(V.token, 'GET', `/api/v1/inverter/setting/${sn.HO}/support`);
    expect(channel.sent.length).toBe(sent);
    const data = res.body.data as {
      groups: string[];
      definitions: { group: string; fields: Record<string, unknown>[] }[];
    };
    expect(data.definitions.map((d) => d.group)).toEqual(data.groups);
    const battDefs = data.definitions.find((d) => d.group === 'batt')!;
    expect(battDefs.fields.map((f) => f.key)).toEqual(battFields.map((f) => f.key));
    expect(battDefs.fields.find((f) => f.key === num.key)).toEqual({
      key: num.key,
      name: { en: num.name.en, es: num.name.es },
      unit: num.unit ?? null,
      type: 'number',
      min: num.min,
      max: num.max,
      step: stepOfField(num),
      enumeration: null,
      writable: true,
    });
    expect(battDefs.fields.find((f) => f.key === en.key)).toMatchObject({ type: 'enum', enumeration: expect.any(Array) });
    // The same definitions a read answers, without the values.
    const read = (await s.call(O.token, 'GET', `${batt()}/read`)).body.data as {
      groups: { fields: Record<string, unknown>[] }[];
    };
    expect(read.groups[0]!.fields.map(({ value: _, ...f }) => f)).toEqual(battDefs.fields);
  });

  it("reads a group from the device: each field's metadata with the value the device holds", async () => {
    const res = await s.call(O.token, 'GET', `${batt()}/read`);
    expect(res.body.code).toBe(ErrorCode.ok);
    const data = res.body.data as { family: string; groups: { group: string; fields: Record<string, unknown>[] }[] };
    expect(data.family).toBe('dyStore');
    const fields = data.groups[0]!.fields;
    expect(fields.map((f) => f.key)).toEqual(battFields.map((f) => f.key));
    const held = bankOf(plants.A, sn.H1).settings();
    for (const f of fields) expect(f.value, f.key as string).toEqual(held[f.key as string]);
    expect(fields.find((f) => f.key === num.key)).toMatchObject({
      type: 'number',
      min: num.min,
      max: num.max,
      step: stepOfField(num),
      unit: num.unit ?? null,
      writable: true,
      name: { en: num.name.en, es: num.name.es },
    });
    expect(fields.find((f) => f.key === en.key)).toMatchObject({
      type: 'enum',
      step: null,
      enumeration: options.map((value) => ({ value, en: en.enum![value]!.en, es: en.enum![value]!.es })),
    });
    expect(channel.sentTo(sn.H1, 'read').at(-1)?.reads).toEqual(wire(HYBRID, 'batt'));
  });

  it('refuses a group of another family (601) and reads a visitor may make', async () => {
    expect((await s.call(O.token, 'GET', `/api/v1/asw/${sn.H1}/setting/basic/read`)).body.code).toBe(
      ErrorCode.inverterUnsupported,
    );
    expect((await s.call(O.token, 'GET', `/api/v1/dy/store/${sn.H3}/setting/batt/read`)).body.code).toBe(
      ErrorCode.inverterUnsupported,
    );
    expect((await s.call(O.token, 'GET', `/api/v1/dy/store/threePhase/${sn.H3}/setting/batt/read`)).body.code).toBe(ErrorCode.ok);
    expect((await s.call(V.token, 'GET', `${batt()}/read`)).body.code).toBe(ErrorCode.ok);
  });

  it('answers 1001 for a device behind an offline gateway, sending nothing', async () => {
    await nothingSent(async () => {
      expect((await s.call(O.token, 'GET', `${batt(sn.HO)}/read`)).body.code).toBe(ErrorCode.deviceOffline);
      expect((await s.call(O.token, 'POST', batt(sn.HO), { values: { [num.key]: nth(num, 1) } })).body.code).toBe(
        ErrorCode.deviceOffline,
      );
    });
  });

  it("answers 1008 with the device's reason when it refuses the read, 1 when it does not answer", async () => {
    const device = plants.A.device(sn.H1)!;
    const read = device.bank.read.bind(device.bank);
    device.bank.read = () => null;
    try {
      const refused = await s.call(O.token, 'GET', `${batt()}/read`);
      expect(refused.body).toMatchObject({ code: ErrorCode.deviceRefused, data: null });
      const [first] = wire(HYBRID, 'batt');
      expect(refused.body.msg).toBe(`The device refused the command: illegal data address 3:${first!.addr}+${first!.count}`);
    } finally {
      device.bank.read = read;
    }
    channel.unanswered = (m) => m.device === sn.H1;
    const writes = channel.sentTo(sn.H1, 'write').length;
    try {
      expect((await s.call(O.token, 'GET', `${batt()}/read`)).body).toMatchObject({ code: ErrorCode.timeout, data: null });
      const write = await s.call(O.token, 'POST', batt(), { values: { [num.key]: nth(num, 1) } });
      expect(write.body.data).toMatchObject({
        state: 'failed',
        errorCode: 1,
        error: 'read before: no answer in time',
        before: null,
      });
      expect(channel.sentTo(sn.H1, 'write').length).toBe(writes);
    } finally {
      channel.unanswered = undefined;
    }
  });

  it("answers 600 for another tenant's inverter on every call", async () => {
    await nothingSent(async () => {
      for (const [method, url, body] of [
        ['GET', `/api/v1/inverter/setting/${sn.HB}/support`],
        ['GET', `${batt(sn.HB)}/read`],
        ['POST', batt(sn.HB), { values: { [num.key]: nth(num, 1) } }],
        ['GET', `/api/v1/inverter/setting/${sn.HB}/jobs`],
      ] as const) {
        const res = await s.call(O.token, method, url, body);
        expect(res.body, url).toMatchObject({ code: ErrorCode.inverterMissing, data: null });
      }
    });
  });
});

describe('families read whole', () => {
  const whole = [
    ['uneet', sn.MU, 'sunfleet-micro-2', `/api/v1/setting/uneet/${sn.MU}/read`],
    ['dyGrid', sn.MG, 'sunfleet-micro', `/api/v1/dy/grid/${sn.MG}/read`],
  ] as const;

  it.each(whole)(
    'reads every %s group in one command: each field with the value the device holds',
    async (family, deviceSn, protocolId, url) => {
      const support = (await s.call(V.token, 'GET', `/api/v1/inverter/setting/${deviceSn}/support`)).body.data;
      expect(support).toMatchObject({ family, wholeRead: true });
      const groups = (support as { groups: string[] }).groups;
      expect([...groups].sort()).toEqual([...supportedSettings(protocolId)!.groups].sort());
      const res = await s.call(V.token, 'GET', url);
      expect(res.body.code).toBe(ErrorCode.ok);
      const data = res.body.data as { family: string; groups: { group: string; fields: { key: string; value: unknown }[] }[] };
      expect(data.family).toBe(family);
      expect(data.groups.map((g) => g.group)).toEqual(groups);
      const held = plants.micro.device(deviceSn)!.bank.settings();
      for (const { group, fields } of data.groups) {
        expect(fields.map((f) => f.key)).toEqual(settingGroupFields(protocolId, group)!.map((f) => f.key));
        for (const f of fields) {
          expect(f.value, f.key).not.toBeNull();
          expect(f.value, f.key).toEqual(held[f.key]);
        }
      }
      const reads = channel.sentTo(deviceSn, 'read');
      expect(reads.at(-1)?.reads).toEqual(wire(protocolId, groups));
    },
  );

  it("refuses the other family's whole read (601), sending nothing", async () => {
    await nothingSent(async () => {
      expect((await s.call(O.token, 'GET', `/api/v1/dy/grid/${sn.MU}/read`)).body.code).toBe(ErrorCode.inverterUnsupported);
      expect((await s.call(O.token, 'GET', `/api/v1/setting/uneet/${sn.MG}/read`)).body.code).toBe(ErrorCode.inverterUnsupported);
    });
  });

  it('writes one group of a family read whole, reading only that group before and after', async () => {
    const group = supportedSettings('sunfleet-micro')!.groups[0]!;
    const field = settingGroupFields('sunfleet-micro', group)!.find((f) => f.access === 'rw' && !f.enum)!;
    const bank = plants.micro.device(sn.MG)!.bank;
    const value = other(field, bank.settings()[field.key]);
    const res = await s.call(O.token, 'POST', `/api/v1/dy/grid/${sn.MG}/setting/${group}`, { values: { [field.key]: value } });
    const job = res.body.data as Job;
    expect(job).toMatchObject({ state: 'succeeded', requested: { [field.key]: value } });
    expect(Object.keys(job.before!)).toEqual(settingGroupFields('sunfleet-micro', group)!.map((f) => f.key));
    expect(bank.settings()[field.key]).toBe(value);
    const commands = channel.sentTo(sn.MG).slice(-3);
    expect(commands.map((m) => m.type)).toEqual(['read', 'write', 'read']);
    expect(commands[0]!.reads).toEqual(wire('sunfleet-micro', group));
  });
});

describe('writes', () => {
  it('refuses a visitor and a read-only account (2), who may read: nothing sent', async () => {
    for (const who of [V, R]) {
      expect((await s.call(who.token, 'GET', `${batt()}/read`)).body.code).toBe(ErrorCode.ok);
      await nothingSent(async () => {
        const res = await s.call(who.token, 'POST', batt(), { values: { [num.key]: nth(num, 1) } });
        expect(res.body.code).toBe(ErrorCode.noPermission);
      });
    }
  });

  const range = (f: FieldDefinition) => `${f.min}..${f.max}`;
  const [option] = options;
  it.each([
    [{ [num.key]: num.max! + stepOfField(num) }, num.key, range(num)],
    [{ [num.key]: num.min! - stepOfField(num) }, num.key, range(num)],
    [{ [num.key]: num.min! + stepOfField(num) / 2 }, num.key, `in steps of ${stepOfField(num)}`],
    [{ [num.key]: 'high' }, num.key, 'must be a number'],
    [{ [en.key]: Math.max(...options) + 1 }, en.key, `${option} (${en.enum![option!]!.en})`],
    [{ [en.key]: option, [num2.key]: num2.max! + stepOfField(num2) }, num2.key, range(num2)],
    [{ [foreign.key]: 1 }, foreign.key, 'not a field of the batt group'],
    [{}, 'batt', 'no value given'],
  ])('refuses %j with code 4 naming the field and what it allows: nothing sent', async (values, field, allowed) => {
    await nothingSent(async () => {
      const res = await s.call(O.token, 'POST', batt(), { values });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(ErrorCode.validation);
      expect(res.body.msg).toContain(field);
      expect(res.body.msg).toContain(allowed);
    });
  });

  it('reads before, writes, reads back, and records who, before, requested and after', async () => {
    const bank = bankOf(plants.A, sn.H1);
    const before = bank.settings();
    const values = {
      [num.key]: num.max!,
      [num2.key]: other(num2, before[num2.key]),
      [en.key]: options.find((o) => o !== before[en.key])!,
    };
    const res = await s.call(O.token, 'POST', batt(), { values });
    expect(res.body.code).toBe(ErrorCode.ok);
    const job = res.body.data as Job;
    expect(job).toMatchObject({ state: 'succeeded', kind: 'write', requested: values, error: null, mismatches: [] });
    expect(job.requestedBy).toEqual({ id: O.id, account: O.account });
    expect(Object.keys(job.before!).sort()).toEqual(battFields.map((f) => f.key).sort());
    for (const key of Object.keys(job.before!)) expect(job.before![key], key).toEqual(before[key]);
    expect(job.after).toMatchObject(values);
    expect(bank.settings()).toMatchObject(values);
    expect(job.changes.map((c) => c.key).sort()).toEqual(
      Object.keys(values)
        .filter((k) => before[k] !== values[k])
        .sort(),
    );
    const commands = channel
      .sentTo(sn.H1)
      .slice(-3)
      .map((m) => m.type);
    expect(commands).toEqual(['read', 'write', 'read']);
    const stored = await s.db.selectFrom('setting_changes').selectAll().where('id', '=', job.id).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ device_sn: sn.H1, requested_by: O.id, family: 'dyStore', group_name: 'batt' });
  });

  it('fails a write whose read-back differs, naming the field', async () => {
    const bank = bankOf(plants.A, sn.H2);
    const [asked, held] = [nth(num2, 1), nth(num2, 2)];
    const kept = other(num3, bank.settings()[num3.key]);
    channel.tamper = (_plant, message) => {
      if (message.type === 'write' && message.device === sn.H2) bank.storeSettings({ [num2.key]: held });
    };
    try {
      const res = await s.call(O.token, 'POST', batt(sn.H2), { values: { [num2.key]: asked, [num3.key]: kept } });
      const job = res.body.data as Job;
      expect(job.state).toBe('failed');
      expect(job.error).toBe(`read back differs: ${num2.key}`);
      expect(job.mismatches).toEqual([expect.objectContaining({ key: num2.key, from: asked, to: held })]);
      expect(job.after).toMatchObject({ [num2.key]: held, [num3.key]: kept });
    } finally {
      channel.tamper = undefined;
    }
  });

  it("records the device's refusal with its reason", async () => {
    channel.tamper = undefined;
    const device = plants.A.device(sn.H2)!;
    const write = device.bank.write.bind(device.bank);
    device.bank.write = () => 'illegal data value at 23';
    try {
      const res = await s.call(O.token, 'POST', batt(sn.H2), { values: { [num2.key]: nth(num2, 3) } });
      expect(res.body.data).toMatchObject({ state: 'failed', errorCode: 1008, error: 'write: illegal data value at 23' });
      expect((res.body.data as Job).after).not.toBeNull();
    } finally {
      device.bank.write = write;
    }
  });

  it('reverts a job: its before-values written as a new job', async () => {
    const bank = bankOf(plants.A, sn.H1);
    const start = bank.settings();
    const first = (await s.call(O.token, 'POST', batt(), { values: { [num3.key]: other(num3, start[num3.key]) } })).body
      .data as Job;
    expect(first.state).toBe('succeeded');
    expect(bank.settings()[num3.key]).not.toBe(start[num3.key]);
    expect((await s.call(V.token, 'POST', `/api/v1/setting/job/${first.id}/revert`)).body.code).toBe(ErrorCode.noPermission);
    expect((await s.call(P.token, 'POST', `/api/v1/setting/job/${first.id}/revert`)).body.code).toBe(ErrorCode.notFound);
    const res = await s.call(O.token, 'POST', `/api/v1/setting/job/${first.id}/revert`);
    expect(res.body.code).toBe(ErrorCode.ok);
    const revert = res.body.data as Job;
    expect(revert).toMatchObject({
      kind: 'revert',
      revertOf: first.id,
      state: 'succeeded',
      requested: { [num3.key]: start[num3.key] },
    });
    expect(bank.settings()[num3.key]).toBe(start[num3.key]);
  });

  it('refuses a second change of a device while one runs (1009): nothing sent for it', async () => {
    channel.hold();
    let first: Promise<{ body: { code: number; data: unknown } }>;
    const sentBefore = channel.sent.length;
    try {
      first = s.call(O.token, 'POST', batt(sn.H2), { values: { [num.key]: nth(num, 4) } });
      for (let i = 0; i < 200 && channel.sent.length === sentBefore; i++) await new Promise((r) => setTimeout(r, 5));
      await nothingSentFor(sn.H2, async () => {
        const second = await s.call(O.token, 'POST', batt(sn.H2), { values: { [num.key]: nth(num, 5) } });
        expect(second.body).toMatchObject({ code: ErrorCode.settingBusy, data: null });
      });
    } finally {
      channel.release();
    }
    expect((await first).body.data).toMatchObject({ state: 'succeeded', requested: { [num.key]: nth(num, 4) } });
    // Once it has finished, the device takes the next one.
    const third = await s.call(O.token, 'POST', batt(sn.H2), { values: { [num.key]: nth(num, 5) } });
    expect(third.body.data).toMatchObject({ state: 'succeeded' });
  });

  it('shows one job to whoever sees the device, to nobody else', async () => {
    const list = (await s.call(O.token, 'GET', `/api/v1/inverter/setting/${sn.H1}/jobs?page=1&size=1`)).body.data as {
      list: Job[];
    };
    const id = list.list[0]!.id;
    expect((await s.call(V.token, 'GET', `/api/v1/setting/job/${id}`)).body.code).toBe(ErrorCode.ok);
    expect((await s.call(P.token, 'GET', `/api/v1/setting/job/${id}`)).body).toMatchObject({
      code: ErrorCode.notFound,
      data: null,
    });
  });
});

describe('history', () => {
  it('lists a device’s jobs newest first, paged, with their differences', async () => {
    const all = (await s.call(V.token, 'GET', `/api/v1/inverter/setting/${sn.H1}/jobs?size=100`)).body.data as {
      total: number;
      list: Job[];
    };
    expect(all.total).toBeGreaterThanOrEqual(3);
    expect(all.list[0]!.kind).toBe('revert');
    expect(all.list[0]!.changes.length).toBe(1);
    // Each difference names its field with its label and unit (and an enumeration's options).
    const change = all.list[0]!.changes[0]! as Job['changes'][number] & Record<string, unknown>;
    const field = battFields.find((f) => f.key === change.key)!;
    expect(change).toMatchObject({ name: { en: field.name.en, es: field.name.es }, unit: field.unit ?? null, enumeration: null });
    expect(field.unit).toBeTruthy();
    const page2 = (await s.call(O.token, 'GET', `/api/v1/inverter/setting/${sn.H1}/jobs?page=2&size=1`)).body.data as {
      total: number;
      list: Job[];
    };
    expect(page2.total).toBe(all.total);
    expect(page2.list.map((j) => j.id)).toEqual([all.list[1]!.id]);
  });

  it('exports them to .xlsx: one row per requested field with before, requested and after', async () => {
    const res = await s.app.inject({
      method: 'GET',
      url: `/api/v1/inverter/setting/${sn.H1}/jobs/download?lan=es`,
      headers: { authorization: `Bearer ${O.token}` },
    });
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    expect(sheet.name).toBe('Cambios de ajustes');
    const rows = sheet.getSheetValues().filter(Boolean) as unknown[][];
    expect(rows[0]).toContain('Antes');
    const revert = rows.find((r) => r.includes('Reversión'))!;
    expect(revert).toContain(num3.name.es);
    expect(revert).toContain('Correcto');
    const jobs = (await s.call(O.token, 'GET', `/api/v1/inverter/setting/${sn.H1}/jobs?size=100`)).body.data as { list: Job[] };
    const fieldRows = jobs.list.reduce((n, j) => n + Object.keys(j.requested).length, 0);
    expect(rows.length - 1).toBe(fieldRows);
  });
});

describe('batches', () => {
  it('refuses a batch naming a foreign device, or one without the group, whole: nothing sent', async () => {
    await nothingSent(async () => {
      const body = { family: 'dyStore', group: 'batt', values: { [num.key]: nth(num, 1) } };
      const foreign = await s.call(O.token, 'POST', '/api/v1/setting/batch', { ...body, sns: [sn.H1, sn.H2, sn.HB] });
      expect(foreign.body).toMatchObject({ code: ErrorCode.inverterMissing, data: null });
      const unsupported = await s.call(O.token, 'POST', '/api/v1/setting/batch', { ...body, sns: [sn.H1, sn.MU] });
      expect(unsupported.body).toMatchObject({ code: ErrorCode.inverterUnsupported, data: null });
      // Each device's values against its own family's fields: the single-phase hybrid allows
      // less charge current than the three-phase one.
      const charge = settingGroupFields(HYBRID, 'batt')!.find((f) => f.key === 'maxChargeCurrent')!;
      const beyondOne = await s.call(O.token, 'POST', '/api/v1/setting/batch', {
        ...body,
        sns: [sn.H3, sn.H1],
        values: { maxChargeCurrent: charge.max! + 10 },
      });
      expect(beyondOne.body.code).toBe(ErrorCode.validation);
      expect(beyondOne.body.msg).toContain(String(charge.max));
      const visitor = await s.call(V.token, 'POST', '/api/v1/setting/batch', { ...body, sns: [sn.H1] });
      expect(visitor.body.code).toBe(ErrorCode.noPermission);
      const bad = await s.call(O.token, 'POST', '/api/v1/setting/batch', {
        ...body,
        sns: [sn.H1],
        values: { [num.key]: num.max! + stepOfField(num) },
      });
      expect(bad.body.code).toBe(ErrorCode.validation);
      const tooMany = await s.call(O.token, 'POST', '/api/v1/setting/batch', {
        ...body,
        sns: Array.from({ length: 201 }, (_, i) => `X${i}`),
      });
      expect(tooMany.body.code).toBe(ErrorCode.validation);
    });
    expect(await s.db.selectFrom('setting_batches').selectAll().execute()).toEqual([]);
  });

  it('writes every device with a result per device; an offline one fails and the others go on', async () => {
    const res = await s.call(O.token, 'POST', '/api/v1/setting/batch', {
      family: 'dyStore',
      group: 'batt',
      sns: [sn.H1, sn.HO, batchSns[0]],
      values: { [num.key]: nth(num, 6) },
    });
    expect(res.body.code).toBe(ErrorCode.ok);
    const batch = await untilDone(O, (res.body.data as Batch).id);
    expect(batch).toMatchObject({ state: 'finished', total: 3, done: 3, succeeded: 2, failed: 1 });
    expect(batch.jobs.map((j) => [j.state, j.errorCode])).toEqual([
      ['succeeded', null],
      ['failed', 1001],
      ['succeeded', null],
    ]);
    expect(bankOf(plants.A, batchSns[0]!).settings()[num.key]).toBe(nth(num, 6));
    expect((await s.call(P.token, 'GET', `/api/v1/setting/batch/${batch.id}`)).body.code).toBe(ErrorCode.notFound);
  });

  it('takes devices of every family with the group, each job under its own family', async () => {
    const capacity = settingGroupFields(HYBRID, 'batt')!.find((f) => f.key === 'batteryCapacity')!;
    const value = capacity.min! + 7;
    const res = await s.call(O.token, 'POST', '/api/v1/setting/batch', {
      family: 'dyStore',
      group: 'batt',
      sns: [sn.H3, sn.H2],
      values: { batteryCapacity: value },
    });
    expect(res.body.code).toBe(ErrorCode.ok);
    const batch = await untilDone(O, (res.body.data as Batch).id);
    expect(batch).toMatchObject({ state: 'finished', total: 2, succeeded: 2 });
    expect(batch.jobs.map((j) => [(j as Job & { family: string }).family, j.state])).toEqual([
      ['dyStore3p', 'succeeded'],
      ['dyStore', 'succeeded'],
    ]);
    expect(bankOf(plants.three, sn.H3).settings().batteryCapacity).toBe(value);
    expect(bankOf(plants.A, sn.H2).settings().batteryCapacity).toBe(value);
    // The three-phase device's own read and write were sent with its protocol's registers.
    expect(channel.sentTo(sn.H3, 'read').at(-1)?.reads).toEqual(wire('sunfleet-hybrid-3p', 'batt'));
  });

  it('cancels what has not been sent; what was sent finishes', async () => {
    const held = (x: string) => bankOf(plants.A, x).settings()[num.key];
    const before = batchSns.map(held);
    const sentBefore = channel.sent.length;
    channel.hold();
    let batch: Batch;
    try {
      const res = await s.call(O.token, 'POST', '/api/v1/setting/batch', {
        family: 'dyStore',
        group: 'batt',
        sns: batchSns,
        values: { [num.key]: num.max! },
      });
      batch = res.body.data as Batch;
      // Wait until the first jobs' reads are out, the rest queued behind them.
      for (let i = 0; i < 200 && channel.sent.length - sentBefore < 8; i++) await new Promise((r) => setTimeout(r, 5));
      const cancel = await s.call(O.token, 'POST', `/api/v1/setting/batch/${batch.id}/cancel`);
      expect(cancel.body.code).toBe(ErrorCode.ok);
      expect((cancel.body.data as Batch).state).toBe('cancelled');
    } finally {
      channel.release();
    }
    const done = await untilDone(O, batch.id);
    expect(done).toMatchObject({ state: 'cancelled', total: 12, succeeded: 8, cancelled: 4 });
    done.jobs.forEach((job, i) => {
      const x = batchSns[i]!;
      if (job.state === 'cancelled') {
        expect(held(x)).toBe(before[i]);
        expect(channel.sent.slice(sentBefore).filter((m) => m.device === x)).toEqual([]);
      } else expect(held(x)).toBe(num.max);
    });
  });
});
