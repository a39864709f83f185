/**
 * External broker mode against a private Mosquitto (Debian's `mosquitto`, CI installs it), and
 * against the embedded broker (MQTT 3.1.1 fallback, no shared subscription).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { topics } from '@sunfleet/contracts';
import type { MqttClient } from 'mqtt';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  closed,
  connectGateway,
  connectOrThrow,
  MOSQUITTO_BIN,
  type Mosquitto,
  sleep,
  startMosquitto,
  subackCodes,
  tryConnect,
  waitFor,
} from '../../../test/mqtt.ts';
import { openTestStore, type TestStore } from '../../../test/store.ts';
import { provisionGateway } from '../gateways.ts';
import type { TelemetryHandler } from '../types.ts';
import { type BrokerBridge, startBrokerBridge } from './bridge.ts';
import { startEmbeddedBroker } from './embedded.ts';
import { mosquittoPasswordHash } from './mosquitto.ts';

const log = pino({ level: 'silent' });
if (!MOSQUITTO_BIN) console.warn('SKIPPED: Mosquitto tests — no mosquitto binary (apt-get install mosquitto)');

interface Received {
  sn: string;
  channel: string;
  payload: string;
}
/** Records what it is handed and acknowledges at once, or keeps the acknowledgements while `hold` is set. */
function recordingHandler(): TelemetryHandler & { got: Received[]; hold: boolean; acks: (() => void)[] } {
  const h = {
    got: [] as Received[],
    hold: false,
    acks: [] as (() => void)[],
    message(sn: string, channel: string, payload: Buffer, _at: number, ack?: () => void) {
      h.got.push({ sn, channel, payload: payload.toString() });
      if (!ack) return;
      if (h.hold) h.acks.push(ack);
      else ack();
    },
  };
  return h;
}

let store: TestStore;
const gw = { a: { sn: 'MQA-0001', secret: '' }, b: { sn: 'MQB-0002', secret: '' } };
const clients: MqttClient[] = [];
const track = (c: MqttClient) => {
  clients.push(c);
  return c;
};

beforeAll(async () => {
  store = await openTestStore();
  gw.a.secret = (await provisionGateway(store.db, { sn: gw.a.sn })).secret;
  gw.b.secret = (await provisionGateway(store.db, { sn: gw.b.sn })).secret;
});
afterAll(async () => {
  for (const c of clients) c.end(true);
  await store?.close();
});

describe.skipIf(!MOSQUITTO_BIN)('with Mosquitto', () => {
  const ingest = { username: 'sunfleet.ingest', password: 'ingest-secret-for-tests' };
  let mosquitto: Mosquitto;
  let gatewayPort: number;
  const h1 = recordingHandler();
  const h2 = recordingHandler();
  let bridge1: BrokerBridge;
  let bridge2: BrokerBridge;
  const all = () => [...h1.got, ...h2.got];
  const row = async (sn: string) => {
    await Promise.all([bridge1.flushPresence(), bridge2.flushPresence()]);
    return store.db.selectFrom('gateways').selectAll().where('sn', '=', sn).executeTakeFirstOrThrow();
  };

  beforeAll(async () => {
    mosquitto = await startMosquitto({
      users: [
        { username: gw.a.sn, password: gw.a.secret },
        { username: gw.b.sn, password: gw.b.secret },
      ],
      serverUsers: [ingest],
    });
    gatewayPort = mosquitto.gatewayPort;
    const common = { db: store.db, log, group: 'sunfleet-ingest', presence: { flushMs: 20 } };
    bridge1 = await startBrokerBridge({
      ...common,
      url: mosquitto.serverUrl(ingest),
      handler: h1,
      clientId: 'sunfleet.ingest.1',
    });
    bridge2 = await startBrokerBridge({
      ...common,
      url: mosquitto.serverUrl(ingest),
      handler: h2,
      clientId: 'sunfleet.ingest.2',
    });
  }, 20_000);

  afterAll(async () => {
    await bridge1?.close();
    await bridge2?.close();
    await mosquitto?.stop();
  });

  it('speaks MQTT 5 to Mosquitto', () => {
    expect(bridge1.protocolVersion).toBe(5);
  });

  it('delivers a gateway’s data once across two bridges of one share group, split between them', async () => {
    const c = track(await connectGateway(gatewayPort, gw.a.sn, gw.a.secret));
    const n = 60;
    for (let i = 0; i < n; i++) await c.publishAsync(topics.up(gw.a.sn, 'data'), `d${i}`, { qos: 1 });
    await waitFor(() => all().filter((m) => m.payload.startsWith('d')).length >= n, 5000, 'all messages');
    await sleep(100);
    const payloads = all()
      .filter((m) => m.payload.startsWith('d'))
      .map((m) => m.payload);
    expect(payloads).toHaveLength(n);
    expect(new Set(payloads).size).toBe(n);
    expect(h1.got.length).toBeGreaterThan(0);
    expect(h2.got.length).toBeGreaterThan(0);
    expect(all().every((m) => m.sn === gw.a.sn && m.channel === 'data')).toBe(true);
    c.end(true);
  });

  it('refuses unknown gateways, wrong secrets and anonymous clients', async () => {
    for (const opts of [
      { clientId: 'MQX-9999', username: 'MQX-9999', password: 'x' },
      { clientId: gw.a.sn, username: gw.a.sn, password: gw.b.secret },
      { clientId: gw.a.sn },
    ]) {
      const r = await tryConnect(gatewayPort, opts);
      expect(r.ok, JSON.stringify(opts)).toBe(false);
    }
  });

  it('does not let a gateway publish for another gateway, or take its session', async () => {
    const b = track(await connectGateway(gatewayPort, gw.b.sn, gw.b.secret));
    // A's credentials with B's client id: the broker replaces the id with the username.
    const a = track(await connectOrThrow(gatewayPort, { clientId: gw.b.sn, username: gw.a.sn, password: gw.a.secret }));
    await sleep(100);
    expect(b.connected).toBe(true);
    await a.publishAsync(topics.up(gw.b.sn, 'data'), 'forged', { qos: 1 });
    await a.publishAsync(topics.down(gw.b.sn), 'forged-cmd', { qos: 1 });
    await b.publishAsync(topics.up(gw.b.sn, 'data'), 'b-barrier', { qos: 1 });
    await waitFor(() => all().some((m) => m.payload === 'b-barrier'));
    await sleep(100);
    expect(all().some((m) => m.payload.startsWith('forged'))).toBe(false);
    a.end(true);
    b.end(true);
  });

  it('delivers to a gateway nothing outside its own down/cmd, whatever it subscribes to', async () => {
    // Mosquitto's acl_file grants every SUBACK and filters each message on delivery instead.
    const a = track(await connectGateway(gatewayPort, gw.a.sn, gw.a.secret));
    const b = track(await connectGateway(gatewayPort, gw.b.sn, gw.b.secret));
    for (const filter of ['#', '$SYS/#', topics.down(gw.b.sn), topics.up(gw.b.sn, 'data'), topics.down(gw.a.sn)]) {
      await subackCodes(a, filter);
    }
    const got: string[] = [];
    a.on('message', (t, p) => got.push(`${t} ${p}`));
    await b.publishAsync(topics.up(gw.b.sn, 'data'), 'b-data', { qos: 1 });
    await bridge1.publish(topics.down(gw.b.sn), 'cmd-for-b', { qos: 1 });
    await bridge1.publish(topics.down(gw.a.sn), 'cmd-for-a', { qos: 1 });
    await waitFor(() => got.length > 0);
    await sleep(200);
    expect(got).toEqual([`${topics.down(gw.a.sn)} cmd-for-a`]);
    await expect(bridge1.publish(topics.down(gw.a.sn), 'cmd-2', { qos: 1, retain: true })).rejects.toThrow(/retained/);
    a.end(true);
    b.end(true);
  });

  it('keeps presence from state messages and the last will', async () => {
    const c = track(
      await connectGateway(gatewayPort, gw.b.sn, gw.b.secret, {
        will: { topic: topics.up(gw.b.sn, 'state'), payload: Buffer.from('{"v":1,"online":false}'), qos: 1, retain: false },
      }),
    );
    const state = { v: 1, online: true, rssi: -71, sw: 'V3.0.1', hw: 'H2', comm: 'wifi', interval: 120 };
    await c.publishAsync(topics.up(gw.b.sn, 'state'), JSON.stringify(state), { qos: 1 });
    const r = await waitFor(async () => {
      const x = await row(gw.b.sn);
      return x.rssi === -71 && x;
    });
    expect(r).toMatchObject({ online: 1, sw_version: 'V3.0.1', hw_version: 'H2', comm_type: 'wifi', upload_interval_s: 120 });
    expect(r.last_online_at).toBeGreaterThan(0);
    c.stream.destroy();
    await waitFor(async () => (await row(gw.b.sn)).online === 0, 5000, 'offline from the will');
    expect(await closed(c)).toBe(true);
  });

  it('hands ingest every message its session kept while it was down, also those the broker sends with its CONNACK', async () => {
    // A member of group `early` that dies (no DISCONNECT) leaves its session on the broker.
    const clientId = 'sunfleet.ingest.early';
    const dead = track(
      await connectOrThrow(mosquitto.serverPort, {
        clientId,
        ...ingest,
        clean: false,
        protocolVersion: 5,
        properties: { sessionExpiryInterval: 600 },
      }),
    );
    await dead.subscribeAsync(topics.allUp('+', 'early'), { qos: 1 });
    dead.stream.destroy();
    await closed(dead);
    const c = track(await connectGateway(gatewayPort, gw.a.sn, gw.a.secret));
    const n = 50;
    for (let i = 0; i < n; i++) await c.publishAsync(topics.up(gw.a.sn, 'data'), `early-${i}`, { qos: 1 });
    // The process starts again under the same id: Mosquitto delivers the session's messages at once.
    const h = recordingHandler();
    const bridge = await startBrokerBridge({
      db: store.db,
      log,
      url: mosquitto.serverUrl(ingest),
      handler: h,
      group: 'early',
      clientId,
    });
    try {
      await waitFor(() => bridge.stats().acknowledged >= n, 5000, 'the kept messages acknowledged');
      expect(h.got.map((m) => m.payload).sort()).toEqual(Array.from({ length: n }, (_, i) => `early-${i}`).sort());
      expect(bridge.stats().acknowledged).toBe(n);
    } finally {
      await bridge.close();
      c.end(true);
    }
  });

  it('leaves the share group when it closes with leaveOnClose: what gateways publish then goes to the members still there', async () => {
    const common = { db: store.db, log, url: mosquitto.serverUrl(ingest), group: 'leave' };
    const staying = recordingHandler();
    const leaving = recordingHandler();
    const a = await startBrokerBridge({ ...common, handler: staying, clientId: 'sunfleet.ingest.stay' });
    const b = await startBrokerBridge({ ...common, handler: leaving, clientId: 'sunfleet.ingest.leave', leaveOnClose: true });
    const c = track(await connectGateway(gatewayPort, gw.b.sn, gw.b.secret));
    try {
      await c.publishAsync(topics.up(gw.b.sn, 'data'), 'leave-before-1', { qos: 1 });
      await c.publishAsync(topics.up(gw.b.sn, 'data'), 'leave-before-2', { qos: 1 });
      await waitFor(() => staying.got.length + leaving.got.length >= 2, 5000, 'both delivered');
      expect(leaving.got).toHaveLength(1);
      await b.close(); // a process stopped for good (scaled down), its session kept by the broker
      const n = 20;
      for (let i = 0; i < n; i++) await c.publishAsync(topics.up(gw.b.sn, 'data'), `leave-after-${i}`, { qos: 1 });
      await waitFor(
        () => staying.got.filter((m) => m.payload.startsWith('leave-after')).length >= n,
        5000,
        'all to the member left',
      );
      expect(leaving.got).toHaveLength(1);
    } finally {
      await a.close();
      c.end(true);
    }
  });
});

describe('against the embedded broker', () => {
  const server = { username: 'sunfleet.server', password: 'server-secret-for-tests' };
  /** The embedded broker as the external one; what it hands its own handler is not looked at. */
  const startEmbedded = () =>
    startEmbeddedBroker({
      db: store.db,
      log,
      handler: recordingHandler(),
      port: 0,
      host: '127.0.0.1',
      serverCredentials: server,
    });

  /** A bridge to the embedded broker subscribing plainly (no share group), as `clientId`. */
  const plainBridgeOptions = (embedded: { port: number }, clientId: string) => ({
    url: `mqtt://127.0.0.1:${embedded.port}`,
    ...server,
    db: store.db,
    log,
    group: null,
    clientId,
  });

  it('falls back to MQTT 3.1.1, receives data without a share group and publishes commands', async () => {
    const embedded = await startEmbedded();
    const h = recordingHandler();
    try {
      await expect(
        startBrokerBridge({ ...plainBridgeOptions(embedded, 'sunfleet.ingest.x'), group: undefined, handler: h }),
      ).rejects.toThrow(/refused the subscription/);
      const bridge = await startBrokerBridge({ ...plainBridgeOptions(embedded, 'sunfleet.ingest.y'), handler: h });
      expect(bridge.protocolVersion).toBe(4);
      const c = track(await connectGateway(embedded.port, gw.a.sn, gw.a.secret));
      await c.subscribeAsync(topics.down(gw.a.sn), { qos: 1 });
      await c.publishAsync(topics.up(gw.a.sn, 'data'), 'via-embedded', { qos: 1 });
      await waitFor(() => h.got.some((m) => m.payload === 'via-embedded' && m.sn === gw.a.sn));
      const got = new Promise<string>((resolve) => c.once('message', (_t, p) => resolve(p.toString())));
      await bridge.publish(topics.down(gw.a.sn), 'cmd-via-bridge', { qos: 1 });
      expect(await got).toBe('cmd-via-bridge');
      c.end(true);
      await bridge.close();
    } finally {
      await embedded.close();
    }
  });

  it('holds the next message while ingest is behind (back-pressure), and goes on once it drained', async () => {
    const embedded = await startEmbedded();
    const h = recordingHandler();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    h.ready = () => gate;
    try {
      const bridge = await startBrokerBridge({ ...plainBridgeOptions(embedded, 'sunfleet.ingest.bp'), handler: h });
      const c = track(await connectGateway(embedded.port, gw.b.sn, gw.b.secret));
      await c.publishAsync(topics.up(gw.b.sn, 'data'), 'bp-1', { qos: 1 });
      await c.publishAsync(topics.up(gw.b.sn, 'data'), 'bp-2', { qos: 1 });
      await waitFor(() => h.got.some((m) => m.payload === 'bp-1'));
      await sleep(300);
      expect(h.got.some((m) => m.payload === 'bp-2')).toBe(false);
      release();
      await waitFor(() => h.got.some((m) => m.payload === 'bp-2'), 5000, 'the held message after the drain');
      expect(bridge.stats().held).toBeGreaterThanOrEqual(1);
      c.end(true);
      await bridge.close();
    } finally {
      await embedded.close();
    }
  });

  it('acknowledges a message to the broker only once ingest has; one not acknowledged is delivered again after a restart', async () => {
    const embedded = await startEmbedded();
    const bridgeOpts = plainBridgeOptions(embedded, 'sunfleet.ingest.restart');
    try {
      const first = recordingHandler();
      let bridge = await startBrokerBridge({ ...bridgeOpts, handler: first });
      const c = track(await connectGateway(embedded.port, gw.a.sn, gw.a.secret));
      await c.publishAsync(topics.up(gw.a.sn, 'data'), 'stored', { qos: 1 });
      await waitFor(() => first.got.some((m) => m.payload === 'stored'));
      first.hold = true;
      await c.publishAsync(topics.up(gw.a.sn, 'data'), 'in-flight-1', { qos: 1 });
      await c.publishAsync(topics.up(gw.a.sn, 'data'), 'in-flight-2', { qos: 1 });
      // Both handed over at once: a PUBACK that waits does not stop the next message.
      await waitFor(() => first.acks.length === 2, 5000, 'both in-flight messages handed over');
      expect(bridge.stats().acknowledged).toBe(1);
      await bridge.close(); // the process stops before ingest committed them
      for (const ack of first.acks.splice(0)) ack(); // too late: that connection is gone

      const second = recordingHandler();
      bridge = await startBrokerBridge({ ...bridgeOpts, handler: second });
      await waitFor(() => second.got.length >= 2, 5000, 'the unacknowledged messages delivered again');
      expect(second.got.map((m) => m.payload).sort()).toEqual(['in-flight-1', 'in-flight-2']);
      await sleep(200);
      expect(second.got.some((m) => m.payload === 'stored')).toBe(false);
      await bridge.close();
      c.end(true);
    } finally {
      await embedded.close();
    }
  });

  it('fails to start with a clear error when the broker refuses the credentials', async () => {
    const embedded = await startEmbeddedBroker({
      db: store.db,
      log,
      handler: recordingHandler(),
      port: 0,
      host: '127.0.0.1',
      serverCredentials: { username: 'sunfleet.server', password: 'right' },
    });
    try {
      await expect(
        startBrokerBridge({
          url: `mqtt://sunfleet.server:wrong@127.0.0.1:${embedded.port}`,
          db: store.db,
          log,
          handler: recordingHandler(),
          group: null,
          clientId: 'sunfleet.ingest.z',
        }),
      ).rejects.toThrow(/refused the connection/);
    } finally {
      await embedded.close();
    }
  });
});

describe.skipIf(!fs.existsSync('/usr/bin/mosquitto_passwd'))('mosquitto password file', () => {
  it('hashes exactly as mosquitto_passwd does', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sunfleet-pw-'));
    try {
      const file = path.join(dir, 'pw');
      fs.writeFileSync(file, '');
      execFileSync('mosquitto_passwd', ['-b', file, 'GW-0001', 'pässword']);
      const [, hash] = fs.readFileSync(file, 'utf8').trim().split(':') as [string, string];
      const [, , iterations, salt] = hash.split('$') as [string, string, string, string];
      expect(mosquittoPasswordHash('pässword', Buffer.from(salt, 'base64'), Number(iterations))).toBe(hash);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
