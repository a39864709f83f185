/** The embedded broker through real MQTT connections on a free port. */
import net from 'node:net';
import { mqttLimits, topics } from '@sunfleet/contracts';
import type { MqttClient } from 'mqtt';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closed, connectGateway, connectOrThrow, sleep, subackCodes, tryConnect, waitFor } from '../../../test/mqtt.ts';
import { openTestStore, type TestStore } from '../../../test/store.ts';
import { provisionGateway, secretHash } from '../gateways.ts';
import type { TelemetryHandler } from '../types.ts';
import { type EmbeddedBroker, MAX_UNACKED, startEmbeddedBroker } from './embedded.ts';

const log = pino({ level: 'silent' });
const server = { username: 'sunfleet.server', password: 'server-secret-for-tests' };

interface Received {
  sn: string;
  channel: string;
  payload: string;
  receivedAt: number;
}
/** Records what it is handed and acknowledges at once, or keeps the acknowledgements while `hold` is set. */
function recordingHandler(): TelemetryHandler & { got: Received[]; hold: boolean; acks: (() => void)[] } {
  const h = {
    got: [] as Received[],
    hold: false,
    acks: [] as (() => void)[],
    message(sn: string, channel: Received['channel'], payload: Buffer, receivedAt: number, ack?: () => void) {
      h.got.push({ sn, channel, payload: payload.toString(), receivedAt });
      if (!ack) return;
      if (h.hold) h.acks.push(ack);
      else ack();
    },
  };
  return h;
}

let store: TestStore;
let broker: EmbeddedBroker;
const handler = recordingHandler();
const gw: Record<'a' | 'b' | 'c', { sn: string; secret: string }> = {
  a: { sn: 'GWA-0001', secret: '' },
  b: { sn: 'GWB-0002', secret: '' },
  c: { sn: 'GWC-0003', secret: '' },
};
const clients: MqttClient[] = [];
const track = (c: MqttClient) => {
  clients.push(c);
  return c;
};
const connect = async (k: keyof typeof gw, opts = {}) => track(await connectGateway(broker.port, gw[k].sn, gw[k].secret, opts));
const row = async (sn: string) => {
  await broker.flushPresence();
  return store.db.selectFrom('gateways').selectAll().where('sn', '=', sn).executeTakeFirstOrThrow();
};
/** Publish from a known-good gateway and wait for it: everything sent before has been decided. */
async function barrier(): Promise<void> {
  const c = await connect('c');
  const marker = `barrier-${Math.random()}`;
  await c.publishAsync(topics.up(gw.c.sn, 'event'), marker, { qos: 1 });
  await waitFor(() => handler.got.some((m) => m.payload === marker), 5000, 'barrier message');
  c.end(true);
}

beforeAll(async () => {
  store = await openTestStore();
  for (const k of Object.keys(gw) as (keyof typeof gw)[])
    gw[k].secret = (await provisionGateway(store.db, { sn: gw[k].sn })).secret;
  broker = await startEmbeddedBroker({
    db: store.db,
    log,
    handler,
    port: 0,
    host: '127.0.0.1',
    serverCredentials: server,
    rateLimit: false, // its own test below
    presence: { flushMs: 20 },
  });
});

afterAll(async () => {
  for (const c of clients) c.end(true);
  await broker?.close();
  await store?.close();
});

describe('gateway connections', () => {
  it('a provisioned gateway connects and its data, events and replies reach the handler as its own', async () => {
    const c = await connect('a');
    const before = Date.now();
    await c.publishAsync(topics.up(gw.a.sn, 'data'), '{"v":1,"n":1}', { qos: 1 });
    await c.publishAsync(topics.up(gw.a.sn, 'event'), '{"v":1,"n":2}', { qos: 0 });
    await c.publishAsync(topics.up(gw.a.sn, 'reply'), '{"v":1,"n":3}', { qos: 1 });
    const mine = await waitFor(() => {
      const m = handler.got.filter((x) => x.sn === gw.a.sn);
      return m.length >= 3 && m;
    });
    expect(mine.map((m) => [m.channel, m.payload])).toEqual([
      ['data', '{"v":1,"n":1}'],
      ['event', '{"v":1,"n":2}'],
      ['reply', '{"v":1,"n":3}'],
    ]);
    expect(mine[0]!.receivedAt).toBeGreaterThanOrEqual(before);
    expect(broker.isConnected(gw.a.sn)).toBe(true);
    c.end(true);
  });

  it.each([
    ['an unknown SN', { clientId: 'GWX-9999', username: 'GWX-9999', password: 'whatever' }, 4],
    ['a wrong secret', { clientId: 'GWA-0001', username: 'GWA-0001', password: 'not-the-secret' }, 4],
    ['no credentials (anonymous)', { clientId: 'GWA-0001' }, 5],
    ['a username without password', { clientId: 'GWA-0001', username: 'GWA-0001' }, 5],
    ['a client id other than the username', { clientId: 'GWB-0002', username: 'GWA-0001', password: 'x' }, 2],
    ['a client id with +', { clientId: 'GWA+0001', username: 'GWA+0001', password: 'x' }, 2],
    ['a client id with #', { clientId: 'GWA#0001', username: 'GWA#0001', password: 'x' }, 2],
    ['a client id with /', { clientId: 'sf/gw/GWA-0001', username: 'sf/gw/GWA-0001', password: 'x' }, 2],
    ['the server username with a wrong password', { clientId: 'sunfleet.test', username: server.username, password: 'no' }, 4],
  ])('refuses %s', async (_what, opts, code) => {
    const r = await tryConnect(broker.port, opts);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.code).toBe(code);
  });

  it('refuses the right secret with the other gateway as client id', async () => {
    const r = await tryConnect(broker.port, { clientId: gw.b.sn, username: gw.b.sn, password: gw.a.secret });
    expect(r).toMatchObject({ ok: false, code: 4 });
  });

  it('refuses a last will outside the gateway’s own up/state', async () => {
    const r = await tryConnect(broker.port, {
      clientId: gw.a.sn,
      username: gw.a.sn,
      password: gw.a.secret,
      will: { topic: topics.up(gw.b.sn, 'state'), payload: Buffer.from('{"v":1,"online":false}'), qos: 1, retain: false },
    });
    expect(r).toMatchObject({ ok: false, code: 5 });
  });

  it('does not let other credentials take over a live session, but lets the gateway itself reconnect', async () => {
    const live = await connect('a');
    for (const attempt of [
      { clientId: gw.a.sn, username: gw.a.sn, password: gw.b.secret },
      { clientId: gw.a.sn, username: gw.b.sn, password: gw.b.secret },
      { clientId: gw.a.sn, username: server.username, password: server.password },
    ]) {
      const r = await tryConnect(broker.port, attempt);
      expect(r.ok, JSON.stringify(attempt.username)).toBe(false);
    }
    await sleep(100);
    expect(live.connected).toBe(true);
    await live.publishAsync(topics.up(gw.a.sn, 'data'), 'still-here', { qos: 1 });
    await waitFor(() => handler.got.some((m) => m.payload === 'still-here'));

    const again = await connect('a');
    expect(await closed(live)).toBe(true);
    expect(again.connected).toBe(true);
    expect(broker.isConnected(gw.a.sn)).toBe(true);
    again.end(true);
  });
});

describe('publish and subscribe rules', () => {
  it.each([
    ["another gateway's up/data", (sn: string) => ({ topic: topics.up(gw.b.sn, 'data'), retain: false, sn })],
    ["another gateway's up/state", () => ({ topic: topics.up(gw.b.sn, 'state'), retain: false })],
    ['its own down/cmd', () => ({ topic: topics.down(gw.a.sn), retain: false })],
    ["another gateway's down/cmd", () => ({ topic: topics.down(gw.b.sn), retain: false })],
    ['a retained up/data', () => ({ topic: topics.up(gw.a.sn, 'data'), retain: true })],
    ['an unknown channel', () => ({ topic: `sf/gw/${gw.a.sn}/up/other`, retain: false })],
    ['a topic outside the tree', () => ({ topic: 'plants/1/power', retain: false })],
    ['$SYS', () => ({ topic: '$SYS/broker/x', retain: false })],
  ])('drops a publish to %s and disconnects the gateway', async (_what, target) => {
    const { topic, retain } = target(gw.a.sn);
    const refusedBefore = broker.stats().publishesRefused;
    const c = await connect('a');
    const marker = `refused-${Math.random()}`;
    c.publish(topic, marker, { qos: 1, retain });
    expect(await closed(c)).toBe(true);
    await barrier();
    expect(handler.got.some((m) => m.payload === marker)).toBe(false);
    expect(broker.stats().publishesRefused).toBe(refusedBefore + 1);
  });

  it.each([
    ['#', '#'],
    ['$SYS/#', '$SYS/#'],
    ["another gateway's down/cmd", topics.down('GWB-0002')],
    ['a wildcard in its own tree', 'sf/gw/GWA-0001/down/+'],
    ['its own up/ tree', 'sf/gw/GWA-0001/up/#'],
  ])('refuses a subscription to %s (SUBACK 128)', async (_what, filter) => {
    const c = await connect('a');
    expect(await subackCodes(c, filter)).toEqual([128]);
    expect(c.connected).toBe(true);
    c.end(true);
  });

  it('delivers a command the server publishes to the gateway’s own down/cmd, and refuses a retained one', async () => {
    const c = await connect('a');
    const granted = await c.subscribeAsync(topics.down(gw.a.sn), { qos: 1 });
    expect(granted.map((g) => g.qos)).toEqual([1]);
    const got = new Promise<[string, string]>((resolve) => c.once('message', (t, p) => resolve([t, p.toString()])));
    await broker.publish(topics.down(gw.a.sn), '{"v":1,"id":"cmd-00000001"}', { qos: 1 });
    expect(await got).toEqual([topics.down(gw.a.sn), '{"v":1,"id":"cmd-00000001"}']);
    await expect(broker.publish(topics.down(gw.a.sn), 'x', { qos: 1, retain: true })).rejects.toThrow(/retained/);
    c.end(true);
  });

  it('lets the server’s own client subscribe to every gateway’s up/ tree and publish commands', async () => {
    const s = track(await connectOrThrow(broker.port, { clientId: 'sunfleet.test.1', ...server }));
    const granted = await s.subscribeAsync('sf/gw/+/up/+', { qos: 1 });
    expect(granted.map((g) => g.qos)).toEqual([1]);
    const seen = new Promise<string>((resolve) => s.once('message', (t) => resolve(t)));
    const c = await connect('b');
    await c.publishAsync(topics.up(gw.b.sn, 'data'), 'for-server', { qos: 1 });
    expect(await seen).toBe(topics.up(gw.b.sn, 'data'));
    await c.subscribeAsync(topics.down(gw.b.sn), { qos: 1 });
    const cmd = new Promise<string>((resolve) => c.once('message', (_t, p) => resolve(p.toString())));
    await s.publishAsync(topics.down(gw.b.sn), 'from-server-client', { qos: 1 });
    expect(await cmd).toBe('from-server-client');
    // …but not a retained command either.
    s.publish(topics.down(gw.b.sn), 'retained', { qos: 1, retain: true });
    expect(await closed(s)).toBe(true);
    c.end(true);
  });

  it('acknowledges and drops a payload over the limit; cuts a frame far over it', async () => {
    const c = await connect('a');
    const before = broker.stats();
    const big = Buffer.alloc(mqttLimits.maxPayloadBytes + 1, 0x41);
    await c.publishAsync(topics.up(gw.a.sn, 'data'), big, { qos: 1 });
    await barrier();
    expect(handler.got.some((m) => m.payload.length > mqttLimits.maxPayloadBytes)).toBe(false);
    expect(broker.stats().droppedOversize).toBe(before.droppedOversize + 1);
    expect(c.connected).toBe(true);

    c.publish(topics.up(gw.a.sn, 'data'), Buffer.alloc(mqttLimits.maxPayloadBytes * 2, 0x42), { qos: 1 });
    expect(await closed(c)).toBe(true);
    expect(broker.stats().framesTooLarge).toBe(before.framesTooLarge + 1);
  });
});

describe('presence', () => {
  it('marks a gateway online on connect, records its state, and offline on disconnect', async () => {
    const t0 = Date.now();
    const c = await connect('b');
    const online = await waitFor(async () => {
      const r = await row(gw.b.sn);
      return r.online === 1 && (r.last_online_at ?? 0) >= t0 && r;
    });
    expect(online.last_seen_at).toBeGreaterThanOrEqual(t0);

    const state = { v: 1, online: true, rssi: -67, sw: 'V2.1.0', hw: 'H1', comm: '4g', interval: 60 };
    await c.publishAsync(topics.up(gw.b.sn, 'state'), JSON.stringify(state), { qos: 1, retain: true });
    const r = await waitFor(async () => {
      const x = await row(gw.b.sn);
      return x.rssi === -67 && x;
    });
    expect(r).toMatchObject({
      online: 1,
      rssi: -67,
      sw_version: 'V2.1.0',
      hw_version: 'H1',
      comm_type: '4g',
      upload_interval_s: 60,
    });
    expect(handler.got.some((m) => m.sn === gw.b.sn && m.channel === ('state' as string))).toBe(false);

    const bad = broker.stats().presence.badState;
    await c.publishAsync(topics.up(gw.b.sn, 'state'), JSON.stringify({ v: 1, online: true, rssi: 20 }), { qos: 1 });
    await c.publishAsync(topics.up(gw.b.sn, 'state'), 'not json', { qos: 1 });
    await waitFor(() => broker.stats().presence.badState === bad + 2);
    expect((await row(gw.b.sn)).rssi).toBe(-67);

    await c.endAsync();
    await waitFor(async () => (await row(gw.b.sn)).online === 0, 5000, 'offline after disconnect');
  });

  it('marks a gateway offline from its last will when the connection drops', async () => {
    const c = await connect('b', {
      will: { topic: topics.up(gw.b.sn, 'state'), payload: Buffer.from('{"v":1,"online":false}'), qos: 1, retain: true },
    });
    await waitFor(async () => (await row(gw.b.sn)).online === 1);
    c.stream.destroy(); // no DISCONNECT packet: the broker publishes the will
    await waitFor(async () => (await row(gw.b.sn)).online === 0, 5000, 'offline after will');
  });

  it('takes a state message with online:false as offline, and a later message as online again', async () => {
    const c = await connect('b');
    await waitFor(async () => (await row(gw.b.sn)).online === 1);
    await c.publishAsync(topics.up(gw.b.sn, 'state'), '{"v":1,"online":false}', { qos: 1 });
    await waitFor(async () => (await row(gw.b.sn)).online === 0);
    await c.publishAsync(topics.up(gw.b.sn, 'state'), '{"v":1,"online":true,"rssi":-50}', { qos: 1 });
    await waitFor(async () => {
      const r = await row(gw.b.sn);
      return r.online === 1 && r.rssi === -50;
    });
    c.end(true);
  });
});

describe('rate limit', () => {
  it('holds messages over a gateway’s rate until their token is due: none dropped, order kept, still connected', async () => {
    const h = recordingHandler();
    const limited = await startEmbeddedBroker({
      db: store.db,
      log,
      handler: h,
      port: 0,
      host: '127.0.0.1',
      serverCredentials: server,
      rateLimit: { perSecond: 20, burst: 5 },
    });
    try {
      const c = track(await connectGateway(limited.port, gw.c.sn, gw.c.secret));
      const started = Date.now();
      const sent = Array.from({ length: 12 }, (_, i) => `m${i}`);
      await Promise.all(sent.map((m) => c.publishAsync(topics.up(gw.c.sn, 'data'), m, { qos: 1 })));
      // 5 at once, then 7 at 20/s: at least 7 × 50 ms.
      expect(Date.now() - started).toBeGreaterThanOrEqual(300);
      expect(h.got.map((m) => m.payload)).toEqual(sent);
      expect(limited.stats().rateLimited).toBe(7);
      expect(limited.stats().acknowledged).toBe(12);
      expect(c.connected).toBe(true);
      // Another gateway has its own bucket.
      const d = track(await connectGateway(limited.port, gw.a.sn, gw.a.secret));
      const t = Date.now();
      await d.publishAsync(topics.up(gw.a.sn, 'data'), 'other', { qos: 1 });
      expect(Date.now() - t).toBeLessThan(200);
      expect(h.got.at(-1)).toMatchObject({ sn: gw.a.sn, payload: 'other' });
      c.end(true);
      d.end(true);
    } finally {
      await limited.close();
    }
  });
});

describe('acknowledgement after the store', () => {
  it('sends the PUBACK only when the handler acknowledges, in the order the messages came', async () => {
    handler.hold = true;
    try {
      const c = await connect('b');
      const acked: string[] = [];
      const payloads = ['one', 'two', 'three'].map((p) => `${p}-${Math.random()}`);
      const pubs = payloads.map((p) =>
        c.publishAsync(topics.up(gw.b.sn, 'data'), p, { qos: 1 }).then(() => {
          acked.push(p);
        }),
      );
      await waitFor(() => payloads.every((p) => handler.got.some((m) => m.payload === p)), 5000, 'messages handed over');
      const [a1, a2, a3] = handler.acks.splice(0);
      await sleep(200);
      expect(acked).toEqual([]);
      // Due out of order: the third waits for the second, which waits for the first.
      a3!();
      a2!();
      await sleep(100);
      expect(acked).toEqual([]);
      a1!();
      await Promise.all(pubs);
      expect(acked).toEqual(payloads);
    } finally {
      handler.hold = false;
      for (const ack of handler.acks.splice(0)) ack();
    }
  });

  it('stops reading a connection with too many messages unacknowledged, and reads on as they are', async () => {
    handler.hold = true;
    try {
      const c = await connect('b');
      const tag = `window-${Math.random()}`;
      const count = MAX_UNACKED * 3;
      // 300 bytes each, over 100 KiB in all: they cannot all come in one socket read (at most 64 KiB),
      // and a read already taken is parsed whole whatever the window says.
      const pad = 'x'.repeat(300);
      const pubs = Array.from({ length: count }, (_, i) =>
        c.publishAsync(topics.up(gw.b.sn, 'data'), `${tag}-${i}-${pad}`, { qos: 1 }),
      );
      const mine = () => handler.got.filter((m) => m.payload.startsWith(tag)).length;
      await waitFor(() => mine() > MAX_UNACKED, 5000, 'the first window handed over');
      await sleep(300);
      expect(mine()).toBeLessThan(count);
      handler.hold = false;
      for (const ack of handler.acks.splice(0)) ack();
      await waitFor(() => mine() === count, 5000, 'the rest after the acknowledgements');
      await Promise.all(pubs);
    } finally {
      handler.hold = false;
      for (const ack of handler.acks.splice(0)) ack();
    }
  });

  it('counts a message sent again with the DUP flag', async () => {
    const before = broker.stats().retransmitted;
    const c = await connect('a');
    await c.publishAsync(topics.up(gw.a.sn, 'data'), 'again', { qos: 1, dup: true });
    expect(broker.stats().retransmitted).toBe(before + 1);
    c.end(true);
  });
});

describe('robustness', () => {
  it('closes a connection that sends a malformed frame and keeps serving others', async () => {
    const sock = net.connect(broker.port, '127.0.0.1');
    await new Promise((r) => sock.once('connect', r));
    const ended = new Promise((r) => sock.once('close', r));
    sock.write(Buffer.from([0x10, 0x05, 0xde, 0xad, 0xbe, 0xef, 0x00])); // CONNECT with a broken body
    await ended;
    const c = await connect('c');
    await c.publishAsync(topics.up(gw.c.sn, 'data'), 'after-garbage', { qos: 1 });
    await waitFor(() => handler.got.some((m) => m.payload === 'after-garbage'));
    c.end(true);
  });

  it('revoke ends the live session and forgets the cached secret', async () => {
    const c = await connect('c');
    const old = gw.c.secret;
    await store.db
      .updateTable('gateways')
      .set({ secret_hash: secretHash('rotated-secret') })
      .where('sn', '=', gw.c.sn)
      .execute();
    broker.revoke(gw.c.sn);
    expect(await closed(c)).toBe(true);
    expect(await tryConnect(broker.port, { clientId: gw.c.sn, username: gw.c.sn, password: old })).toMatchObject({
      ok: false,
      code: 4,
    });
    gw.c.secret = 'rotated-secret';
    (await connect('c')).end(true);
  });
});

describe('back-pressure', () => {
  it('reads no more from that gateway while ingest is behind', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    handler.ready = () => gate;
    try {
      const c = await connect('a');
      const first = `held-1-${Math.random()}`;
      const second = `held-2-${Math.random()}`;
      const pub = c.publishAsync(topics.up(gw.a.sn, 'data'), first, { qos: 1 });
      await waitFor(() => handler.got.some((m) => m.payload === first), 5000, 'first message handed over');
      const pub2 = c.publishAsync(topics.up(gw.a.sn, 'data'), second, { qos: 1 });
      await sleep(300);
      expect(handler.got.some((m) => m.payload === second)).toBe(false);
      release();
      await pub;
      await waitFor(() => handler.got.some((m) => m.payload === second), 5000, 'second message after the backlog drained');
      await pub2;
      expect(broker.stats().held).toBeGreaterThanOrEqual(1);
    } finally {
      delete handler.ready;
    }
  });
});
