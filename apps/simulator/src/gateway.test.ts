import { type CommandMessage, type DataMessage, hexToRegisters, topics } from '@sunfleet/contracts';
import { powerSwitchValues, protocolPlan } from '@sunfleet/protocols';
import { connectAsync, type MqttClient } from 'mqtt';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createClock } from './clock.ts';
import { type GatewayOptions, type GatewaySpec, VirtualGateway } from './gateway.ts';
import { type Captured, startBroker, type TestBroker } from './testing/broker.ts';
import { decodeDevice, messageProblems } from './testing/messages.ts';
import { dcPlant } from './testing/plants.ts';

const SN = 'GWTEST0001';
const [plant, devices] = dcPlant();
const spec: GatewaySpec = { sn: SN, secret: 'device-secret-1', plant, devices, comm: 'wifi' };
// Midday in Madrid, so the PV is producing.
const midday = Date.parse('2025-06-20T12:00:30+02:00');

const isData = (m: Captured) => m.topic === topics.up(SN, 'data');
const isState = (m: Captured) => m.topic === topics.up(SN, 'state');
const data = (m: Captured) => m.body as DataMessage;

let broker: TestBroker;
let gateway: VirtualGateway | undefined;
let commander: MqttClient | undefined;

beforeEach(async () => {
  broker = await startBroker({ secrets: { [SN]: spec.secret } });
});

afterEach(async () => {
  await gateway?.stop();
  await commander?.endAsync(true);
  gateway = undefined;
  commander = undefined;
  // Every message the gateway published is valid and decodes with its protocol.
  const problems = broker.messages.filter((m) => m.clientId === SN).flatMap(messageProblems);
  await broker.close();
  expect(problems).toEqual([]);
});

function startGateway(options: Partial<GatewayOptions> = {}, speed = 600): VirtualGateway {
  gateway = new VirtualGateway(spec, {
    url: broker.url,
    clock: createClock({ speed, start: midday }),
    interval: 60,
    reconnectPeriodMs: 100,
    ...options,
  });
  gateway.start();
  return gateway;
}

async function waitUntil(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function command(body: Omit<CommandMessage, 'v' | 'ts'>) {
  commander ??= await connectAsync(broker.url, { clientId: 'test-server' });
  await commander.publishAsync(topics.down(SN), JSON.stringify({ v: 1, ts: Date.now(), ...body }), { qos: 1 });
  const reply = await broker.waitFor((m) => m.topic === topics.up(SN, 'reply') && (m.body as { id: string }).id === body.id);
  return reply.body as { status: string; error?: string; blocks?: { fc: number; addr: number; regs: string }[] };
}

describe('a virtual gateway', () => {
  it('connects with its SN and secret, says online (retained) and uploads at the interval', async () => {
    startGateway();
    const state = await broker.waitFor(isState);
    expect(broker.logins[0]).toEqual({ clientId: SN, username: SN, password: spec.secret });
    expect(state.retain).toBe(true);
    expect(state.body).toMatchObject({ v: 1, online: true, interval: 60, comm: 'wifi' });
    const frames = (await broker.waitForCount(isData, 4)).map(data);
    expect(frames.map((f) => f.seq).slice(0, 4)).toEqual([0, 1, 2, 3]);
    for (let i = 1; i < 4; i++) expect(frames[i]!.ts - frames[i - 1]!.ts).toBe(60_000);
    // Readings taken before the first connection are buffered (how many depends on how fast the
    // broker answers: 100 ms of real time is an interval here), every one after them is live.
    await broker.waitFor((m) => isData(m) && data(m).buffered === undefined);
    const sent = broker.messages.filter(isData).map(data);
    const firstLive = sent.findIndex((f) => f.buffered === undefined);
    expect(sent.slice(0, firstLive).every((f) => f.buffered === true)).toBe(true);
    expect(sent.slice(firstLive).every((f) => f.buffered === undefined)).toBe(true);
    expect(frames[0]!.devices.map((d) => d.sn)).toEqual(devices.map((d) => d.sn));
    expect(decodeDevice(frames[1], 'HY00000001')!.values.pv1Power).toBeGreaterThan(0);
    // A clean stop says offline (retained) before disconnecting.
    await gateway!.stop();
    const last = broker.messages.filter(isState).at(-1)!;
    expect(last.body).toMatchObject({ v: 1, online: false });
    expect(last.retain).toBe(true);
  });

  it('on a broker slow to accept it: the readings before the connection are buffered, the rest live', async () => {
    // Five intervals of the gateway's clock before its sign-in is answered.
    broker.answerLoginsAfter(500);
    startGateway();
    await broker.waitFor((m) => isData(m) && data(m).buffered === undefined);
    const sent = broker.messages.filter(isData).map(data);
    const firstLive = sent.findIndex((f) => f.buffered === undefined);
    expect(firstLive).toBeGreaterThanOrEqual(3);
    expect(sent.map((f) => f.seq)).toEqual(sent.map((_, i) => i));
    expect(sent.slice(0, firstLive).every((f) => f.buffered === true)).toBe(true);
    expect(sent.slice(firstLive).every((f) => f.buffered === undefined)).toBe(true);
  });

  it('is refused with a wrong secret and does not publish', async () => {
    gateway = new VirtualGateway(
      { ...spec, secret: 'wrong' },
      { url: broker.url, clock: createClock({ speed: 600, start: midday }), reconnectPeriodMs: 100 },
    );
    gateway.start();
    expect(await gateway.whenOnline(500)).toBe(false);
    expect(broker.messages.filter((m) => m.clientId === SN)).toEqual([]);
    expect(gateway.stats().lastError).toBeDefined();
  });

  it('leaves its last will, offline and retained, when the connection drops abruptly', async () => {
    startGateway();
    await broker.waitFor(isData);
    gateway!.goOffline(3_600_000);
    const will = await broker.waitFor((m) => isState(m) && (m.body as { online: boolean }).online === false);
    expect(will.body).toEqual({ v: 1, online: false });
    expect(will.retain).toBe(true);
  });

  it('keeps readings while offline and sends them later, buffered, with their original timestamps', async () => {
    startGateway();
    await broker.waitForCount(isData, 2);
    gateway!.goOffline(5 * 60_000);
    const buffered = (await broker.waitForCount((m) => isData(m) && data(m).buffered === true, 4, 15_000)).map(data);
    await broker.waitForCount(isState, 3); // online, will, online again
    await broker.waitForCount((m) => isData(m) && !data(m).buffered && data(m).ts > buffered.at(-1)!.ts, 1);
    const all = broker.messages.filter(isData).map(data);
    // Nothing lost: one reading per minute, every minute. (QoS 1 is at least once: a reading
    // whose acknowledgement was lost with the connection is sent again, with the same time.)
    const times = [...new Set(all.map((f) => f.ts))].sort((a, b) => a - b);
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBe(60_000);
    for (const f of buffered) expect((f.ts - midday + 30_000) % 60_000).toBe(0);
    // A reading keeps its sequence number and time however late it is sent.
    const bySeq = new Map(all.map((f) => [f.seq, f.ts]));
    for (const f of all) expect(f.ts).toBe(bySeq.get(f.seq));
  });

  it('keeps what the server did not acknowledge and sends it again after a reconnect (persistent session)', async () => {
    startGateway();
    await broker.waitForCount(isData, 2);
    broker.hold(true); // the server takes messages but dies before acknowledging them
    await waitUntil(() => broker.held.filter(isData).length >= 3);
    broker.dropConnections();
    broker.hold(false);
    const unacked = broker.held.filter(isData).map((m) => data(m).seq);
    for (const seq of unacked) await broker.waitFor((m) => isData(m) && data(m).seq === seq);
    expect(broker.logins.filter((l) => l.clientId === SN).length).toBeGreaterThanOrEqual(2);
    expect(gateway!.stats().dropped).toBe(0);
  });

  it('answers read and write commands on a device’s registers, and refuses what it cannot do', async () => {
    startGateway();
    await broker.waitFor(isData);
    const plan = protocolPlan('sunfleet-hybrid-1p')!;
    const workMode = plan.field('workMode')!.address;
    const read = await command({
      id: 'read-0000001',
      type: 'read',
      device: 'HY00000001',
      reads: [{ fc: 3, addr: workMode, count: 4 }],
    });
    expect(read.status).toBe('ok');
    expect(hexToRegisters(read.blocks![0]!.regs)[0]).toBe(0);

    const writes = plan.encodeWrites({ workMode: 1, maxSellPower: 0 }).map((w) => ({
      fc: w.functionCode,
      addr: w.address,
      regs: w.registers.map((r) => r.toString(16).padStart(4, '0')).join(''),
    }));
    expect((await command({ id: 'write-000001', type: 'write', device: 'HY00000001', writes })).status).toBe('ok');
    expect(gateway!.plant.hybrids[0]!.workMode).toEqual({ mode: 1, exportLimitW: 0 });
    const again = await command({ id: 'read-0000002', type: 'read', unit: 1, reads: [{ fc: 3, addr: workMode, count: 1 }] });
    expect(hexToRegisters(again.blocks![0]!.regs)).toEqual([1]);

    const live = await command({
      id: 'read-0000003',
      type: 'read',
      device: 'MT00000001',
      reads: [{ fc: 4, addr: 100, count: 4 }],
    });
    expect(live.status).toBe('ok');
    expect(
      await command({ id: 'read-0000004', type: 'read', device: 'HY00000001', reads: [{ fc: 4, addr: 9000, count: 2 }] }),
    ).toMatchObject({
      status: 'error',
      error: expect.stringMatching(/illegal data address/),
    });
    expect(
      await command({ id: 'write-000002', type: 'write', device: 'HY00000001', writes: [{ fc: 6, addr: 100, regs: '0001' }] }),
    ).toMatchObject({
      status: 'error',
    });
    expect(
      await command({ id: 'read-0000005', type: 'read', device: 'NOPE0001', reads: [{ fc: 3, addr: 0, count: 1 }] }),
    ).toMatchObject({
      status: 'error',
      error: 'unknown device',
    });
    expect(await command({ id: 'upgrade-00001', type: 'upgrade' })).toMatchObject({
      status: 'error',
      error: 'no firmware in the command',
    });
    expect(await command({ id: 'unknown-0001', type: 'frobnicate' as CommandMessage['type'] })).toMatchObject({
      status: 'error',
      error: expect.stringMatching(/unsupported/),
    });
  });

  it('restarts on command: drops off, comes back, and counts its sequence from 0 again', async () => {
    startGateway({ restartDelayS: 120 });
    await broker.waitForCount(isData, 3);
    expect((await command({ id: 'restart-00001', type: 'restart' })).status).toBe('ok');
    await broker.waitFor((m) => isState(m) && (m.body as { online: boolean }).online === false);
    await broker.waitForCount((m) => isState(m) && (m.body as { online: boolean }).online === true, 2);
    const after = await broker.waitFor((m) => isData(m) && data(m).seq === 0 && data(m).ts > midday + 3 * 60_000);
    expect(after).toBeDefined();
  });

  it('backfills history: one buffered message per interval, original timestamps, then live', async () => {
    const aligned = Math.floor(midday / 300_000) * 300_000;
    startGateway({ interval: 300, backfillDays: 0.25 }, 1);
    const history = (await broker.waitForCount((m) => isData(m) && data(m).buffered === true, 72)).map(data);
    const live = await broker.waitFor((m) => isData(m) && !data(m).buffered);
    expect(history).toHaveLength(72);
    expect(history[0]!.ts).toBe(aligned - 6 * 3_600_000);
    expect(history.at(-1)!.ts).toBe(aligned - 300_000);
    expect(data(live).ts).toBe(aligned);
    expect(broker.messages.filter((m) => isData(m) && data(m).buffered)).toHaveLength(72);
  });

  it('reports devices that stop answering on the bus and leaves them out of the frames', async () => {
    startGateway({ offlineRate: 60 });
    const event = await broker.waitFor(
      (m) => m.topic === topics.up(SN, 'event') && (m.body as { active: boolean }).active,
      20_000,
    );
    const device = (event.body as { device: string }).device;
    const ts = (event.body as { ts: number }).ts;
    const frame = await broker.waitFor((m) => isData(m) && data(m).ts === ts);
    expect(data(frame).devices.map((d) => d.sn)).not.toContain(device);
  });
});

describe('commands: power, debug, settings, memory of ids, and misbehaviour for tests', () => {
  const isReply = (id: string) => (m: Captured) => m.topic === topics.up(SN, 'reply') && (m.body as { id: string }).id === id;
  const powerSwitch = () => gateway!.plant.hybrids[0]!.bank.settings().powerSwitch;
  /** The hybrid's own off value (Deye: 2). */
  const offValue = () => powerSwitchValues(gateway!.plant.hybrids[0]!.plan.definition.id)!.off;

  it('shuts a device down and boots it through its power switch register: later readings show no power, then power', async () => {
    startGateway();
    await broker.waitFor(isData);
    const done = (await command({ id: 'shutdown-0001', type: 'shutdown', device: 'HY00000001' })) as {
      status: string;
      ts: number;
    };
    expect(done.status).toBe('ok');
    expect(powerSwitch()).toBe(offValue());
    // A reading taken after the shutdown (one taken before may still be on its way).
    const off = await broker.waitFor((m) => isData(m) && data(m).ts > done.ts);
    expect(decodeDevice(data(off), 'HY00000001')!.values.activePower).toBe(0);
    expect(await command({ id: 'boot-00000001', type: 'boot', device: 'HY00000001' })).toMatchObject({ status: 'ok' });
    expect(powerSwitch()).toBe(1);
    // A device without a power switch register refuses.
    expect(await command({ id: 'shutdown-0002', type: 'shutdown', device: 'MT00000001' })).toMatchObject({
      status: 'error',
      error: 'device has no power switch',
    });
  });

  it('answers a repeated id from memory: the command is not run twice', async () => {
    startGateway();
    await broker.waitFor(isData);
    expect(await command({ id: 'power-0000001', type: 'shutdown', device: 'HY00000001' })).toMatchObject({ status: 'ok' });
    // The same id again, whatever it says now, gets the first answer and runs nothing.
    await command({ id: 'power-0000001', type: 'boot', device: 'HY00000001' });
    const replies = await broker.waitForCount(isReply('power-0000001'), 2);
    expect(replies[1]!.body).toMatchObject({ status: 'ok' });
    expect(powerSwitch()).toBe(offValue());
    expect(gateway!.stats()).toMatchObject({ commands: 1, repeatedCommands: 1 });
  });

  it('answers a debug code with a diagnostic text, for a device and for itself', async () => {
    startGateway();
    await broker.waitFor(isData);
    const device = (await command({ id: 'debug-0000001', type: 'debug', device: 'HY00000001', text: 'status' })) as {
      status: string;
      text?: string;
    };
    expect(device.status).toBe('ok');
    expect(device.text).toMatch(/debug status\ndevice HY00000001 \(sunfleet-hybrid-1p, unit 1\)\npower switch: on/);
    const own = (await command({ id: 'debug-0000002', type: 'debug', text: 'net' })) as { text?: string };
    expect(own.text).toMatch(new RegExp(`gateway ${SN}: online`));
    expect(await command({ id: 'debug-0000003', type: 'debug', device: 'HY00000001' })).toMatchObject({
      status: 'error',
      error: 'no debug code',
    });
  });

  it('switches its upload interval and says it in a new state; refuses a value out of range', async () => {
    startGateway();
    await broker.waitFor(isData);
    expect(
      await command({ id: 'setting-00001', type: 'settings', setting: { name: 'uploadInterval', value: 300 } }),
    ).toMatchObject({
      status: 'ok',
    });
    await broker.waitFor((m) => isState(m) && (m.body as { interval?: number }).interval === 300);
    expect(await command({ id: 'setting-00002', type: 'settings', setting: { name: 'uploadInterval', value: 5 } })).toMatchObject(
      {
        status: 'error',
        error: 'value out of range 10..3600',
      },
    );
  });

  it('misbehaves as told: answers late, or never', async () => {
    startGateway({ commandQuirks: { replyDelayMs: 600 } });
    await broker.waitFor(isData);
    const sent = Date.now();
    expect(await command({ id: 'late-00000001', type: 'boot', device: 'HY00000001' })).toMatchObject({ status: 'ok' });
    expect(Date.now() - sent).toBeGreaterThanOrEqual(550);
    await gateway!.stop();

    startGateway({ commandQuirks: { silent: true } });
    await gateway!.whenOnline();
    commander ??= await connectAsync(broker.url, { clientId: 'test-server' });
    await commander.publishAsync(
      topics.down(SN),
      JSON.stringify({ v: 1, ts: Date.now(), id: 'silent-000001', type: 'restart' }),
      {
        qos: 1,
      },
    );
    await waitUntil(() => gateway!.stats().ignoredCommands === 1);
    await new Promise((r) => setTimeout(r, 200));
    expect(broker.messages.filter(isReply('silent-000001'))).toEqual([]);
  });

  it('drops off the network when its first command arrives, and runs it when the command comes again', async () => {
    startGateway({ commandQuirks: { offlineOnCommandMs: 60_000 } });
    await broker.waitFor(isData);
    commander ??= await connectAsync(broker.url, { clientId: 'test-server' });
    const body = JSON.stringify({ v: 1, ts: Date.now(), id: 'drop-00000001', type: 'shutdown', device: 'HY00000001' });
    await commander.publishAsync(topics.down(SN), body, { qos: 1 });
    await broker.waitFor((m) => isState(m) && (m.body as { online: boolean }).online === false);
    expect(powerSwitch()).toBe(1);
    await broker.waitForCount((m) => isState(m) && (m.body as { online: boolean }).online === true, 2);
    await commander.publishAsync(topics.down(SN), body, { qos: 1 });
    expect((await broker.waitFor(isReply('drop-00000001'))).body).toMatchObject({ status: 'ok' });
    expect(powerSwitch()).toBe(offValue());
  });
});
