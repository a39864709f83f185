/**
 * External broker mode (MQTT_URL): the server is a client of Mosquitto/EMQX. It subscribes to
 * every gateway's `up/` tree through a shared subscription, so several ingest processes in one
 * group split the load (each message goes to one of them), and publishes commands.
 *
 * Gateway authentication and topic ACLs are the external broker's job here (see README.md and
 * mosquitto.ts); this side still refuses anything that is not a protocol topic, refuses payloads
 * over the limit, holds messages over a gateway's rate (per process: with N processes in the
 * group a gateway gets up to N times the rate) and keeps presence from `up/state` messages.
 *
 * A message is acknowledged to the broker (PUBACK) only once ingest has committed or refused
 * it; meanwhile the bridge goes on with the next messages (the broker's in-flight window bounds
 * how many wait). The session is persistent (clean: false), so what was not acknowledged when
 * this process stopped is delivered again when a process with the same client id connects.
 */
import { mqttLimits, parseTopic, topics } from '@sunfleet/contracts';
import mqtt, { type IClientOptions, type IPublishPacket, type MqttClient, type Packet } from 'mqtt';
import type { Logger } from 'pino';
import type { Db } from '../../db/index.ts';
import type { TelemetryHandler } from '../types.ts';
import { mayPublish } from './acl.ts';
import type { PublishOptions } from './embedded.ts';
import { Presence, type PresenceOptions, type PresenceStats } from './presence.ts';
import { defaultRateLimit, RateLimiter, type RateLimitOptions } from './rate-limit.ts';

export interface BrokerBridgeOptions {
  /** mqtt://user:password@host:port (or mqtts://). */
  url: string;
  db: Db;
  log: Logger;
  handler: TelemetryHandler;
  /** Shared subscription group; null subscribes plainly (one ingest process, or a broker without `$share`). */
  group?: string | null;
  /** Unique per process, e.g. `sunfleet.ingest.{host}.{pid}`. */
  clientId: string;
  /** Override the URL's credentials. */
  username?: string;
  password?: string;
  /** False for a process that only publishes commands (ROLES without ingest). */
  subscribe?: boolean;
  /**
   * On close, unsubscribe and let ingest settle what it was handed before disconnecting: for a
   * process removed for good. Off (the default), the subscription stays in the persistent
   * session and the broker keeps this member's share there until the same client id returns (a
   * restart); with it on, messages published while no member is subscribed are not kept.
   */
  leaveOnClose?: boolean;
  rateLimit?: RateLimitOptions | false;
  maxPayloadBytes?: number;
  /** How long start waits for the broker (refused credentials fail at once). */
  startTimeoutMs?: number;
  presence?: Omit<PresenceOptions, 'db' | 'log'>;
}

export interface BridgeStats {
  delivered: number;
  /** Messages acknowledged to the broker (stored or refused by ingest, or handled here). */
  acknowledged: number;
  /** Messages that arrived with MQTT's DUP flag: delivered again after a missing acknowledgement. */
  retransmitted: number;
  droppedOversize: number;
  /** Messages over the gateway's rate, held until their token was due (never dropped). */
  rateLimited: number;
  /** Messages on topics that are not the protocol's `up/` topics. */
  ignored: number;
  reconnects: number;
  /** Acknowledgements held back while ingest drained its backlog. */
  held: number;
  presence: PresenceStats;
}

export interface BrokerBridge {
  /** 5 when the broker speaks MQTT 5, else 4 (3.1.1). */
  protocolVersion: 4 | 5;
  publish(topic: string, payload: Buffer | string, opts: PublishOptions): Promise<void>;
  stats(): BridgeStats;
  flushPresence(): Promise<void>;
  close(): Promise<void>;
}

/** How long a closing bridge waits for ingest to settle what it was handed after leaving the group. */
const LEAVE_SETTLE_MS = 5000;

/** How long the broker keeps this client's session (and its unacknowledged messages) after a disconnect (MQTT 5). */
const SESSION_EXPIRY_S = 24 * 3600;

type SendPacket = (packet: Packet, cb?: (err?: Error) => void, ...rest: unknown[]) => void;

/**
 * mqtt.js sends a message's PUBACK as soon as `handleMessage` calls back, and handles the next
 * message only then. To go on with the next messages while a PUBACK waits for the store, the
 * PUBACK of a message given to `defer` is kept back in `_sendPacket` (private API of mqtt 5.x,
 * pinned; the bridge test fails if it moves) until the returned function is called. PUBACKs of a
 * connection that closed are never sent: the broker delivers those messages again.
 */
function deferPubacks(client: MqttClient, onAck: () => void) {
  const internals = client as unknown as { _sendPacket: SendPacket };
  const send = internals._sendPacket.bind(client);
  let waiting = new Map<number, { due: boolean; puback?: Packet }>();
  internals._sendPacket = (packet, cb, ...rest) => {
    const id = packet.cmd === 'puback' ? packet.messageId : undefined;
    const entry = id === undefined ? undefined : waiting.get(id);
    if (!entry || entry.due) {
      if (entry) waiting.delete(id!);
      return send(packet, cb, ...rest);
    }
    entry.puback = packet;
    cb?.();
  };
  client.on('close', () => {
    waiting = new Map();
  });
  return {
    /** Messages of this connection handed over and not yet acknowledged. */
    pending(): number {
      let n = 0;
      for (const e of waiting.values()) if (!e.due) n++;
      return n;
    },
    /** The function that lets the message's PUBACK go. */
    defer(packet: IPublishPacket): () => void {
      const id = packet.messageId;
      if (packet.qos === 0 || id === undefined) return () => onAck();
      const connection = waiting;
      const entry: { due: boolean; puback?: Packet } = { due: false };
      connection.set(id, entry);
      return () => {
        if (entry.due || connection !== waiting) return;
        entry.due = true;
        onAck();
        if (entry.puback) {
          waiting.delete(id);
          send(entry.puback);
        }
      };
    },
  };
}

/** CONNACK codes meaning "not this protocol version" (3.1.1: 1; MQTT 5: 0x84). */
const UNSUPPORTED_VERSION = new Set([1, 0x84]);

export async function startBrokerBridge(opts: BrokerBridgeOptions): Promise<BrokerBridge> {
  const { db, log, handler } = opts;
  const group = opts.group === undefined ? 'sunfleet-ingest' : opts.group;
  const maxPayload = opts.maxPayloadBytes ?? mqttLimits.maxPayloadBytes;
  const presence = new Presence({ db, log, ...opts.presence });
  const limiter = opts.rateLimit === false ? null : new RateLimiter(opts.rateLimit ?? defaultRateLimit);
  const stats: Omit<BridgeStats, 'presence'> = {
    delivered: 0,
    acknowledged: 0,
    retransmitted: 0,
    droppedOversize: 0,
    rateLimited: 0,
    ignored: 0,
    reconnects: 0,
    held: 0,
  };

  // The message handler and the held PUBACKs are put on the client before it connects: a broker
  // that keeps this client id's session delivers what waits there right after its CONNACK, and a
  // message handled before them would be acknowledged by mqtt.js's default handler, unstored.
  let pubacks: ReturnType<typeof deferPubacks>;
  let lastReceived = 0;
  const attach = (c: MqttClient) => {
    pubacks = deferPubacks(c, () => stats.acknowledged++);
    // Back-pressure: while ingest is over its high-water mark, the next message from the broker
    // waits (mqtt.js handles one message at a time, and goes on when this callback is called).
    c.handleMessage = (packet, callback) => {
      lastReceived = Date.now();
      receive(packet.topic, packet.payload as Buffer, packet.dup, pubacks.defer(packet));
      const wait = handler.ready?.();
      if (!wait) return callback();
      stats.held++;
      wait.then(() => callback());
    };
  };
  let client: MqttClient;
  let protocolVersion: 4 | 5 = 5;
  try {
    client = await connect(opts, 5, attach);
  } catch (e) {
    if (!UNSUPPORTED_VERSION.has((e as { code?: unknown }).code as number)) throw e;
    protocolVersion = 4;
    client = await connect(opts, 4, attach);
  }
  log.info({ protocolVersion, clientId: opts.clientId }, 'connected to the external MQTT broker');

  client.on('reconnect', () => stats.reconnects++);
  client.on('error', (err) => log.warn({ err: err.message }, 'MQTT broker connection error'));
  client.on('offline', () => log.warn('MQTT broker connection lost; reconnecting'));

  function receive(topic: string, payload: Buffer, dup: boolean, ack: () => void): void {
    const t = parseTopic(topic);
    if (t?.direction !== 'up') {
      stats.ignored++;
      ack();
      return;
    }
    if (dup) stats.retransmitted++;
    if (payload.length > maxPayload) {
      stats.droppedOversize++; // refused and counted: no resend can make it valid
      ack();
      return;
    }
    const deliver = () => {
      const now = Date.now();
      if (t.channel === 'state') {
        presence.state(t.sn, payload, now);
        ack();
        return;
      }
      presence.seen(t.sn, now);
      stats.delivered++;
      try {
        handler.message(t.sn, t.channel, payload, now, ack);
      } catch (err) {
        log.error({ err, sn: t.sn }, 'telemetry handler threw; the message stays unacknowledged');
      }
    };
    const holdMs = limiter ? limiter.reserve(t.sn, Date.now()) : 0;
    if (holdMs === 0) deliver();
    else {
      stats.rateLimited++;
      setTimeout(deliver, holdMs);
    }
  }

  const filter = topics.allUp('+', group ?? undefined);
  if (opts.subscribe !== false) {
    const codes = await subscribe(client, filter);
    if (codes.some((c) => c >= 0x80)) {
      await client.endAsync(true);
      throw new Error(
        `the MQTT broker refused the subscription ${filter} (SUBACK ${codes.join(',')}): check its ACL for this user`,
      );
    }
  }
  /**
   * Leaving for good: unsubscribe first, so that the broker hands this member no more of the
   * group's messages (Mosquitto keeps handing a disconnected member of a persistent session its
   * share, to wait there until the same client id returns: a process stopped for good would
   * strand them), then let ingest settle what it was handed. What is still unacknowledged after
   * that waits in the session for this client id, as after a crash.
   */
  async function leave(): Promise<void> {
    try {
      await client.unsubscribeAsync(filter);
    } catch (err) {
      log.warn({ err: (err as Error).message }, 'leaving the share group failed; this session keeps its share until it returns');
      return;
    }
    const until = Date.now() + LEAVE_SETTLE_MS;
    while (Date.now() < until && (pubacks.pending() > 0 || Date.now() - lastReceived < 100)) await sleep(20);
  }

  const housekeeping = setInterval(() => limiter?.prune(), 60_000).unref();

  return {
    protocolVersion,
    async publish(topic, payload, { qos, retain = false }) {
      const decision = mayPublish({ kind: 'server', username: opts.clientId }, topic, retain);
      if (!decision.ok) throw new Error(`cannot publish to ${topic}: ${decision.reason}`);
      await client.publishAsync(topic, payload, { qos, retain });
    },
    stats: () => ({ ...stats, presence: { ...presence.stats } }),
    flushPresence: () => presence.flush(),
    async close() {
      clearInterval(housekeeping);
      if (opts.leaveOnClose && opts.subscribe !== false && client.connected) await leave();
      await presence.close();
      await client.endAsync();
    },
  };
}

/**
 * First connection: waits through network errors until the deadline, fails at once on a CONNACK
 * refusal. `attach` is given the client before any packet is read.
 */
function connect(opts: BrokerBridgeOptions, protocolVersion: 4 | 5, attach: (client: MqttClient) => void): Promise<MqttClient> {
  const options: IClientOptions = {
    clientId: opts.clientId,
    protocolVersion,
    // Persistent session: messages not acknowledged when this process stopped are delivered again.
    clean: false,
    ...(protocolVersion === 5 ? { properties: { sessionExpiryInterval: SESSION_EXPIRY_S } } : {}),
    keepalive: 30,
    reconnectPeriod: 1000,
    connectTimeout: 10_000,
    resubscribe: true,
    ...(opts.username !== undefined ? { username: opts.username } : {}),
    ...(opts.password !== undefined ? { password: opts.password } : {}),
  };
  const client = mqtt.connect(opts.url, options);
  attach(client);
  return new Promise((resolve, reject) => {
    const fail = (err: Error) => {
      clearTimeout(deadline);
      client.removeListener('connect', ok);
      client.removeListener('error', onError);
      client.end(true);
      reject(err);
    };
    const deadline = setTimeout(
      () => fail(new Error(`no connection to the MQTT broker at ${redact(opts.url)} within ${opts.startTimeoutMs ?? 30_000} ms`)),
      opts.startTimeoutMs ?? 30_000,
    );
    const ok = () => {
      clearTimeout(deadline);
      client.removeListener('error', onError);
      resolve(client);
    };
    // CONNACK refusals carry a numeric code; network errors (ECONNREFUSED …) a string one and are retried.
    const onError = (err: Error & { code?: unknown }) => {
      if (typeof err.code === 'number')
        fail(Object.assign(new Error(`MQTT broker refused the connection: ${err.message}`), { code: err.code }));
    };
    client.once('connect', ok);
    client.on('error', onError);
  });
}

async function subscribe(client: MqttClient, filter: string): Promise<number[]> {
  try {
    return (await client.subscribeAsync(filter, { qos: 1 })).map((g) => g.qos);
  } catch (e) {
    const granted = (e as { packet?: { granted?: (number | { qos: number })[] } }).packet?.granted;
    if (!granted) throw e;
    return granted.map((g) => (typeof g === 'number' ? g : g.qos));
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const redact = (url: string) => url.replace(/\/\/[^@/]*@/, '//');
