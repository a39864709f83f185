import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type CommandMessage, compareVersions, isFirmwareVersion, type ReplyMessage, topics } from '@sunfleet/contracts';
import { connectAsync, type MqttClient } from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createClock } from './clock.ts';
import { DEFAULT_GATEWAY_SW, type GatewaySpec, VirtualGateway } from './gateway.ts';
import { startBroker, type TestBroker } from './testing/broker.ts';
import { decodeDevice } from './testing/messages.ts';
import { dcPlant } from './testing/plants.ts';
import { type UpgradeOptions, Upgrader } from './upgrade.ts';

// The server's key pair, as provisioning gives the public part to gateways.
const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const firmwareKey = Buffer.from((publicKey.export({ format: 'jwk' }) as { x: string }).x, 'base64url').toString('base64');
const otherKey = generateKeyPairSync('ed25519').privateKey;
const image = randomBytes(64 * 1024);
const sha256 = createHash('sha256').update(image).digest('hex');
const signWith = (key = privateKey) => sign(null, Buffer.from(sha256, 'hex'), key).toString('base64');

let server: http.Server;
let base: string;
const ranges: (string | undefined)[] = [];

beforeAll(async () => {
  // The image with byte ranges, as the portal serves it; /forbidden as an expired link.
  server = http.createServer((req, res) => {
    if (req.url !== '/fw') {
      res.writeHead(403).end('Forbidden');
      return;
    }
    ranges.push(req.headers.range);
    const m = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    const start = m ? Number(m[1]) : 0;
    res.writeHead(m ? 206 : 200, {
      'content-length': image.length - start,
      ...(m ? { 'content-range': `bytes ${start}-${image.length - 1}/${image.length}` } : {}),
    });
    res.end(image.subarray(start));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const command = (id: string, over: Partial<NonNullable<CommandMessage['firmware']>> = {}, device?: string): CommandMessage => ({
  v: 1,
  id,
  ts: Date.now(),
  type: 'upgrade',
  ...(device ? { device } : {}),
  firmware: { url: `${base}/fw`, size: image.length, sha256, signature: signWith(), version: 'SFG-2_5_0', ...over },
});

/** An upgrader with recorded replies; resolves with them once a final one came. */
function upgrader(options: UpgradeOptions = {}) {
  const replies: Omit<ReplyMessage, 'ts'>[] = [];
  const reboots: string[] = [];
  const u = new Upgrader(
    { firmwareKey, flashMs: 10, ...options },
    {
      reply: async (r) => {
        replies.push(r);
      },
      rebootInto: (v) => reboots.push(v),
      inverterFlashed: () => {},
      inverterBack: () => {},
      hasDevice: () => true,
      random: () => 0.5,
    },
  );
  const final = async (id: string) => {
    const until = Date.now() + 5000;
    for (;;) {
      const r = replies.find((x) => x.id === id && (x.status === 'ok' || x.status === 'error'));
      if (r) return r;
      if (Date.now() > until) throw new Error(`no final reply for ${id}`);
      await new Promise((res) => setTimeout(res, 5));
    }
  };
  return { u, replies, reboots, final };
}

describe('a gateway’s firmware upgrade', () => {
  it('downloads, checks, flashes and reboots into the version, reporting each stage', async () => {
    const { u, replies, reboots, final } = upgrader();
    expect(u.start(command('up-000000001'))).toMatchObject({ status: 'accepted' });
    expect(await final('up-000000001')).toMatchObject({ status: 'ok' });
    const stages = replies.filter((r) => r.status === 'progress').map((r) => `${r.stage}:${r.progress}`);
    expect(stages[0]).toBe('download:0');
    expect(stages).toContain('download:100');
    expect(stages).toContain('verify:100');
    expect(stages).toContain('flash:0');
    expect(reboots).toEqual(['SFG-2_5_0']);
  });

  it('refuses an image whose signature, hash or size is wrong, or without a provisioned key: failed with the reason, nothing flashed', async () => {
    const cases: [Partial<NonNullable<CommandMessage['firmware']>>, string, UpgradeOptions?][] = [
      [{ signature: signWith(otherKey) }, 'bad signature'],
      [{ sha256: 'a'.repeat(64) }, 'sha256 mismatch'],
      [{ size: image.length + 1 }, `size mismatch: ${image.length} bytes, ${image.length + 1} expected`],
      [{}, 'no firmware key provisioned', { firmwareKey: '' }],
    ];
    for (const [i, [over, reason, options]] of cases.entries()) {
      const { u, reboots, replies, final } = upgrader(options);
      u.start(command(`bad-0000000${i}`, over));
      expect(await final(`bad-0000000${i}`)).toMatchObject({ status: 'error', stage: 'verify', error: reason });
      expect(replies.some((r) => r.stage === 'flash')).toBe(false);
      expect(reboots).toEqual([]);
    }
  });

  it('upgrades different inverters side by side, one device at a time', async () => {
    const { u, final } = upgrader();
    expect(u.start(command('twoa-0000001', {}, 'INV000001'))).toMatchObject({ status: 'accepted' });
    expect(u.start(command('twob-0000001', {}, 'INV000002'))).toMatchObject({ status: 'accepted' });
    expect(u.start(command('twoc-0000001', {}, 'INV000001'))).toMatchObject({ status: 'error', error: 'an upgrade is running' });
    expect(u.start(command('twod-0000001'))).toMatchObject({ status: 'error', error: 'an upgrade is running' });
    expect(await final('twoa-0000001')).toMatchObject({ status: 'ok' });
    expect(await final('twob-0000001')).toMatchObject({ status: 'ok' });
  });

  it('a link refused is a download failure', async () => {
    const { u, final } = upgrader();
    u.start(command('gone-0000001', { url: `${base}/expired` }));
    expect(await final('gone-0000001')).toMatchObject({ status: 'error', stage: 'download', error: 'HTTP 403' });
  });

  it('resumes a download that broke off with a Range request from where it stopped', async () => {
    ranges.length = 0;
    const { u, final } = upgrader({ interruptAfterBytes: 20_000 });
    u.start(command('resume-00001'));
    expect(await final('resume-00001')).toMatchObject({ status: 'ok' });
    expect(ranges[0]).toBeUndefined();
    expect(ranges[1]).toMatch(/^bytes=\d+-$/);
    expect(Number(ranges[1]!.slice(6, -1))).toBeGreaterThanOrEqual(20_000);
    expect(u.counts.resumed).toBe(1);
  });

  it('an abort stops a download (cancelled); a flash under way is not stopped; a share of flashes fail', async () => {
    const slow = upgrader({ bytesPerSecond: 20_000 });
    slow.u.start(command('slow-0000001'));
    await new Promise((r) => setTimeout(r, 100));
    expect(slow.u.abort({ v: 1, id: 'abort-000001', ts: Date.now(), type: 'abort', target: 'slow-0000001' })).toMatchObject({
      status: 'ok',
    });
    expect(await slow.final('slow-0000001')).toMatchObject({ status: 'error', stage: 'download', error: 'cancelled' });

    const flashing = upgrader({ flashMs: 300 });
    flashing.u.start(command('flash-000001'));
    const until = Date.now() + 3000;
    while (!flashing.replies.some((r) => r.stage === 'flash') && Date.now() < until) await new Promise((r) => setTimeout(r, 5));
    expect(flashing.u.abort({ v: 1, id: 'abort-000002', ts: Date.now(), type: 'abort', target: 'flash-000001' })).toMatchObject({
      status: 'error',
      error: 'already flashing',
    });
    expect(await flashing.final('flash-000001')).toMatchObject({ status: 'ok' });

    const failing = upgrader({ failureRate: 1 });
    failing.u.start(command('fail-0000001'));
    expect(await failing.final('fail-0000001')).toMatchObject({ status: 'error', stage: 'flash', error: 'flash write error' });
    expect(failing.reboots).toEqual([]);
  });
});

describe('upgrades of a virtual gateway over MQTT', () => {
  const SN = 'GWUPG00001';
  const [plant, devices] = dcPlant();
  const spec: GatewaySpec = { sn: SN, secret: 'device-secret-2', plant, devices, firmwareKey };
  let broker: TestBroker;
  let gateway: VirtualGateway | undefined;
  let commander: MqttClient | undefined;
  beforeAll(async () => {
    broker = await startBroker({ secrets: { [SN]: spec.secret } });
  });
  afterEach(async () => {
    await gateway?.stop();
    await commander?.endAsync(true);
    gateway = undefined;
    commander = undefined;
  });
  afterAll(() => broker.close());
  const send = async (c: CommandMessage) => {
    commander ??= await connectAsync(broker.url, { clientId: 'test-server' });
    await commander.publishAsync(topics.down(SN), JSON.stringify(c), { qos: 1 });
  };
  const finalReply = (id: string) =>
    broker.waitFor((m) => {
      const b = m.body as { id?: string; status?: string };
      return m.topic === topics.up(SN, 'reply') && b.id === id && (b.status === 'ok' || b.status === 'error');
    });
  const start = () => {
    gateway = new VirtualGateway(spec, {
      url: broker.url,
      clock: createClock({ speed: 1, start: Date.parse('2025-06-20T12:00:30+02:00') }),
      interval: 60,
      reconnectPeriodMs: 100,
      upgrades: { flashMs: 10, rebootMs: 300 },
    });
    gateway.start();
    return gateway;
  };

  it('the gateway reports a version the firmware library accepts, before and after an upgrade', async () => {
    const g = start();
    expect(isFirmwareVersion(g.softwareVersion)).toBe(true);
    expect(g.softwareVersion).toBe(DEFAULT_GATEWAY_SW);
    // The image it is upgraded to is higher in the one version order.
    expect(compareVersions('SFG-2_5_0', g.softwareVersion)).toBe(1);
  });

  it('the gateway reboots (offline, then online) and says its new version', async () => {
    const g = start();
    expect(isFirmwareVersion('SFG-2_5_0')).toBe(true);
    await g.whenOnline();
    await send(command('gwup-0000001'));
    expect((await finalReply('gwup-0000001')).body).toMatchObject({ status: 'ok' });
    await broker.waitFor((m) => m.topic === topics.up(SN, 'state') && (m.body as { online: boolean }).online === false);
    const back = await broker.waitFor(
      (m) => m.topic === topics.up(SN, 'state') && (m.body as { sw?: string }).sw === 'SFG-2_5_0',
    );
    expect(back.body).toMatchObject({ online: true });
    expect(g.softwareVersion).toBe('SFG-2_5_0');
  });

  it('an inverter’s new version is in its registers in a reading sent at once', async () => {
    const g = start();
    await g.whenOnline();
    const inverter = devices[0]!.sn;
    // An inverter image as the library names it (letters, digits, hyphen, underscore).
    expect(isFirmwareVersion('V1_5_0_3')).toBe(true);
    await send(command('invup-000001', { version: 'V1_5_0_3' }, inverter));
    expect((await finalReply('invup-000001')).body).toMatchObject({ status: 'ok' });
    const frame = await broker.waitFor((m) => {
      if (m.topic !== topics.up(SN, 'data')) return false;
      const d = decodeDevice(m.body as never, inverter);
      return d?.values.controlFirmware === '0x01 0x05 0x00 0x03' || d?.values.firmware === '0x01 0x05 0x00 0x03';
    });
    expect(frame).toBeDefined();
    // Its registers hold the numbers; read as the portal reads them, the version style.
    expect(g.plant.device(inverter)!.firmwareVersion).toBe('1_5_0_3');
    expect(isFirmwareVersion(g.plant.device(inverter)!.firmwareVersion!)).toBe(true);
  });
});
