/**
 * The embedded MQTT broker (Aedes, MQTT 3.1.1) that gateways connect to when no MQTT_URL is
 * set. It authenticates gateways (client id = username = SN, per-gateway secret), confines
 * each to its own topic tree, keeps presence, and hands every authorised `up/data|event|reply`
 * message straight to the telemetry handler from the `authorizePublish` hook: no internal
 * subscription, no second trip through the router. A gateway's QoS 1 message is acknowledged
 * only once ingest has committed it (or refused it): Aedes sends the PUBACK when the hook's
 * `done` is called. A connection with more than `MAX_UNACKED` messages waiting for their
 * acknowledgement, or whose gateway ingest is holding back, is not read until that clears.
 */
import { timingSafeEqual } from 'node:crypto';
import net from 'node:net';
import tls from 'node:tls';
import { isGatewaySn, mqttLimits, topics } from '@sunfleet/contracts';
import { Aedes, type AuthenticateError, type Client, type ConnectPacket, type PublishPacket } from 'aedes';
import type { Logger } from 'pino';
import type { Db } from '../../db/index.ts';
import type { TelemetryHandler } from '../types.ts';
import { type Identity, mayPublish, maySubscribe } from './acl.ts';
import { guardFrameSize } from './frame-guard.ts';
import { Presence, type PresenceOptions, type PresenceStats } from './presence.ts';
import { defaultRateLimit, RateLimiter, type RateLimitOptions } from './rate-limit.ts';
import { GatewaySecrets } from './secrets.ts';

export interface ServerCredentials {
  /** Must not be a valid gateway SN (e.g. `sunfleet.server`). */
  username: string;
  password: string;
}

export interface EmbeddedBrokerOptions {
  db: Db;
  log: Logger;
  handler: TelemetryHandler;
  /** 0 for a free port (tests); null: no plain (unencrypted) listener. */
  port: number | null;
  host?: string;
  /** A TLS listener as well (or instead): its port (0 for a free one), address and certificate. */
  tls?: { port: number; host?: string; key: string; cert: string } | null;
  /** The server's own client(s); their client ids must not be gateway SNs. */
  serverCredentials: ServerCredentials;
  /** Per-gateway message rate; false disables it (benchmarks). */
  rateLimit?: RateLimitOptions | false;
  maxPayloadBytes?: number;
  /** How long a gateway's secret hash is trusted from memory. */
  secretCacheMs?: number;
  presence?: Omit<PresenceOptions, 'db' | 'log'>;
}

export interface PublishOptions {
  qos: 0 | 1 | 2;
  retain?: boolean;
}

export interface BrokerStats {
  connectsRefused: number;
  publishesRefused: number;
  subscribesRefused: number;
  /** Messages handed to the telemetry handler. */
  delivered: number;
  /** Gateway messages acknowledged (stored or refused by ingest, or handled here). */
  acknowledged: number;
  /** Messages that arrived with MQTT's DUP flag: sent again after a missing acknowledgement. */
  retransmitted: number;
  droppedOversize: number;
  /** Messages over the gateway's rate, held until their token was due (never dropped). */
  rateLimited: number;
  framesTooLarge: number;
  /** Acknowledgements held back while ingest drained its backlog. */
  held: number;
  /** Gateway connections open now. */
  connections: number;
  presence: PresenceStats;
}

export interface EmbeddedBroker {
  /** The plain listener's port (the TLS listener's when it is the only one). */
  port: number;
  /** The TLS listener's port; null when there is none. */
  tlsPort: number | null;
  /** Publish as the server (commands to `sf/gw/{sn}/down/cmd`); a retained command is refused. */
  publish(topic: string, payload: Buffer | string, opts: PublishOptions): Promise<void>;
  /** Whether the gateway has a live session on this broker. */
  isConnected(sn: string): boolean;
  /** Secret rotated or gateway deleted: forget its cached secret and end its live session. */
  revoke(sn: string): void;
  stats(): BrokerStats;
  /** Write pending presence changes now (tests, shutdown). */
  flushPresence(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Aedes's Client flow control (public in Aedes 1.2, missing from its typings). `_parsingBatch`
 * counts the parsed packets not yet handled; a packet handled while paused is not subtracted,
 * so a resume resets it or the connection is never read again (private: aedes 1.2.0 is
 * pinned, and the broker test's unacknowledged-window case fails if this moves).
 */
interface PausableClient {
  pause(): void;
  resume(): void;
  _parsingBatch: number;
}

/** Unacknowledged messages one gateway connection may have before the broker stops reading it. */
export const MAX_UNACKED = 128;

/** Aedes's connect refusal codes (MQTT 3.1.1 CONNACK return codes). */
const REFUSED = { identifier: 2, unavailable: 3, credentials: 4, notAuthorized: 5 } as const;

/** Aedes's publish with the client argument its own handlers pass (not in its typings). */
type RoutePublish = (
  packet: PublishPacket,
  client: Client | null | ((err?: Error) => void),
  done?: (err?: Error) => void,
) => void;

export async function startEmbeddedBroker(opts: EmbeddedBrokerOptions): Promise<EmbeddedBroker> {
  const { db, log, handler, serverCredentials } = opts;
  if (isGatewaySn(serverCredentials.username)) throw new Error('the server MQTT username must not look like a gateway SN');
  const maxPayload = opts.maxPayloadBytes ?? mqttLimits.maxPayloadBytes;
  // Frames a little over the payload limit are refused, counted and acknowledged (the gateway moves on);
  // far over it, the connection is cut before the frame is buffered.
  const maxFrame = maxPayload + 64 * 1024;
  const secrets = new GatewaySecrets(db, { ttlMs: opts.secretCacheMs ?? 60_000 });
  const presence = new Presence({ db, log, ...opts.presence });
  const limiter = opts.rateLimit === false ? null : new RateLimiter(opts.rateLimit ?? defaultRateLimit);
  const stats: Omit<BrokerStats, 'presence' | 'connections'> = {
    connectsRefused: 0,
    publishesRefused: 0,
    subscribesRefused: 0,
    delivered: 0,
    acknowledged: 0,
    retransmitted: 0,
    droppedOversize: 0,
    rateLimited: 0,
    framesTooLarge: 0,
    held: 0,
  };
  const acks = new WeakMap<Client, ConnectionAcks>();
  const identities = new WeakMap<Client, Identity>();
  const wills = new WeakMap<Client, ConnectPacket['will'] | undefined>();
  const live = new Map<string, Client>();
  /** Acknowledged but not routed (oversized, over the rate). */
  const dropped = new WeakSet<PublishPacket>();
  const serverPassword = Buffer.from(serverCredentials.password, 'utf8');
  const drops = new DropReport(log);

  const aedes = new Aedes({
    // Aedes 1.2 overflowed its stack under sustained QoS 1 load at the default 100
    // ("Maximum call stack size exceeded"); 1000 was stable.
    concurrency: 1000,
    connectTimeout: 10_000,
    maxTopicLevels: 16,
    preConnect(client, packet, done) {
      wills.set(client, packet.will);
      done(null, true);
    },
    authenticate(client, username, password, done) {
      const id = client.id;
      const refuse = (code: number, reason: string) => {
        stats.connectsRefused++;
        log.info({ clientId: id, username, reason }, 'MQTT connection refused');
        done(Object.assign(new Error(reason), { returnCode: code }) as AuthenticateError, null);
      };
      if (!username || !password) return refuse(REFUSED.notAuthorized, 'anonymous');
      if (username === serverCredentials.username) {
        if (isGatewaySn(id)) return refuse(REFUSED.identifier, 'server client id looks like a gateway SN');
        if (!(password.length === serverPassword.length && timingSafeEqual(password, serverPassword)))
          return refuse(REFUSED.credentials, 'bad server credentials');
        identities.set(client, { kind: 'server', username });
        return done(null, true);
      }
      if (!isGatewaySn(id)) return refuse(REFUSED.identifier, 'client id is not a gateway SN');
      if (username !== id) return refuse(REFUSED.identifier, 'client id is not the username');
      const will = wills.get(client);
      if (will && will.topic !== topics.up(id, 'state')) return refuse(REFUSED.notAuthorized, 'last will outside up/state');
      secrets.verify(id, password.toString('utf8')).then(
        (ok) => {
          if (!ok) return refuse(REFUSED.credentials, 'unknown gateway or wrong secret');
          // Only the same gateway may take over a live session (client id = username = SN makes
          // this hold already; kept so that a future identity kind cannot break it quietly).
          const holder = live.get(id);
          const who = holder && identities.get(holder);
          if (who && !(who.kind === 'gateway' && who.sn === id))
            return refuse(REFUSED.identifier, 'session held by another identity');
          identities.set(client, { kind: 'gateway', sn: id });
          done(null, true);
        },
        (err: unknown) => {
          log.error({ err, clientId: id }, 'gateway credentials could not be read');
          refuse(REFUSED.unavailable, 'store unavailable');
        },
      );
    },
    authorizePublish(client, packet, done) {
      const who = client && identities.get(client);
      if (!who) return done(new Error('not authenticated'));
      const decision = mayPublish(who, packet.topic, packet.retain);
      if (!decision.ok) {
        stats.publishesRefused++;
        log.warn({ clientId: client.id, topic: packet.topic, reason: decision.reason }, 'MQTT publish refused; disconnecting');
        return done(new Error(decision.reason));
      }
      if (who.kind === 'server' || !decision.channel) return done(null);
      const sn = who.sn;
      const payload = typeof packet.payload === 'string' ? Buffer.from(packet.payload) : packet.payload;
      const now = Date.now();
      let connection = acks.get(client);
      if (!connection) {
        connection = new ConnectionAcks(client as unknown as PausableClient);
        acks.set(client, connection);
      }
      const acknowledge = connection.next(() => {
        stats.acknowledged++;
        done(null);
      });
      if (packet.dup) stats.retransmitted++;
      if (payload.length > maxPayload) {
        // Refused and counted: no resend can make it valid.
        stats.droppedOversize++;
        dropped.add(packet);
        drops.add('oversized', sn);
        return acknowledge();
      }
      const channel = decision.channel;
      const deliver = () => {
        const at = Date.now();
        if (channel === 'state') {
          presence.state(sn, payload, at);
          return acknowledge();
        }
        presence.seen(sn, at);
        stats.delivered++;
        try {
          handler.message(sn, channel, payload, at, acknowledge);
          // Ingest behind: read no more from this gateway until its backlog has drained.
          const wait = handler.ready?.();
          if (wait) {
            stats.held++;
            connection.hold(wait);
          }
        } catch (err) {
          log.error({ err, sn }, 'telemetry handler threw; disconnecting the gateway (it resends)');
          done(err as Error);
        }
      };
      // Over the rate: held (so is everything after it on this connection), then delivered.
      const holdMs = limiter ? limiter.reserve(sn, now) : 0;
      if (holdMs === 0) return deliver();
      stats.rateLimited++;
      drops.add('rate limited (held)', sn);
      setTimeout(deliver, holdMs);
    },
    authorizeSubscribe(client, sub, done) {
      const who = identities.get(client);
      if (who && maySubscribe(who, sub.topic)) return done(null, sub);
      stats.subscribesRefused++;
      log.warn({ clientId: client.id, topic: sub.topic }, 'MQTT subscription refused');
      done(null, null); // SUBACK 0x80 for this filter
    },
  });

  // Dropped messages were acknowledged (so the gateway does not resend them) but go nowhere.
  const route = aedes.publish.bind(aedes) as RoutePublish;
  (aedes as unknown as { publish: RoutePublish }).publish = (packet, client, done) => {
    if (typeof client !== 'function' && dropped.has(packet)) return done?.();
    route(packet, client, done);
  };

  aedes.on('client', (client) => {
    if (identities.get(client)?.kind === 'gateway') live.set(client.id, client);
  });
  aedes.on('clientReady', (client) => {
    if (identities.get(client)?.kind === 'gateway') presence.connected(client.id);
  });
  aedes.on('clientDisconnect', (client) => {
    if (identities.get(client)?.kind !== 'gateway' || live.get(client.id) !== client) return;
    live.delete(client.id);
    presence.disconnected(client.id);
  });
  aedes.on('clientError', (client, err) => log.debug({ clientId: client.id, err: err.message }, 'MQTT client error'));
  aedes.on('connectionError', (_client, err) => log.debug({ err: err.message }, 'MQTT connection error'));

  await aedes.listen();
  let guardMissing = false;
  const serve = (socket: net.Socket) => {
    socket.setKeepAlive(true, 60_000);
    const client = aedes.handle(socket);
    const guarded = guardFrameSize(client, maxFrame, (length) => {
      stats.framesTooLarge++;
      log.warn({ clientId: client.id, length, remote: socket.remoteAddress }, 'MQTT frame over the limit; disconnecting');
    });
    if (!guarded && !guardMissing) {
      guardMissing = true;
      log.error('MQTT frame size guard could not be installed (aedes internals changed)');
    }
  };
  const listen = async (server: net.Server, port: number, host: string, what: string) => {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    server.on('error', (err) => log.error({ err }, `${what} listener error`));
    return (server.address() as net.AddressInfo).port;
  };
  const servers: net.Server[] = [];
  let port: number | null = null;
  let tlsPort: number | null = null;
  if (opts.port !== null) {
    const server = net.createServer({ noDelay: true }, serve);
    servers.push(server);
    port = await listen(server, opts.port, opts.host ?? '0.0.0.0', 'MQTT');
  }
  if (opts.tls) {
    const server = tls.createServer({ key: opts.tls.key, cert: opts.tls.cert, minVersion: 'TLSv1.2', noDelay: true }, serve);
    // A handshake that fails (a client that does not trust the certificate, a plain client on the TLS port) ends that connection only.
    server.on('tlsClientError', (err, socket) => {
      log.debug({ err: err.message, remote: socket.remoteAddress }, 'MQTT TLS handshake failed');
      socket.destroy();
    });
    servers.push(server);
    tlsPort = await listen(server, opts.tls.port, opts.tls.host ?? opts.host ?? '0.0.0.0', 'MQTT TLS');
  }
  const housekeeping = setInterval(() => {
    limiter?.prune();
    drops.report();
  }, 60_000).unref();
  log.info({ port, tlsPort }, 'embedded MQTT broker listening');

  return {
    port: (port ?? tlsPort)!,
    tlsPort,
    publish(topic, payload, { qos, retain = false }) {
      const decision = mayPublish({ kind: 'server', username: serverCredentials.username }, topic, retain);
      if (!decision.ok || topic.includes('+') || topic.includes('#'))
        return Promise.reject(new Error(`cannot publish to ${topic}: ${decision.ok ? 'wildcard' : decision.reason}`));
      const packet: PublishPacket = {
        cmd: 'publish',
        topic,
        payload: typeof payload === 'string' ? Buffer.from(payload) : payload,
        qos,
        retain,
        dup: false,
      };
      return new Promise((resolve, reject) => aedes.publish(packet, (err) => (err ? reject(err) : resolve())));
    },
    isConnected: (sn) => live.has(sn),
    revoke(sn) {
      secrets.invalidate(sn);
      live.get(sn)?.close();
    },
    stats: () => ({ ...stats, connections: live.size, presence: { ...presence.stats } }),
    flushPresence: () => presence.flush(),
    async close() {
      clearInterval(housekeeping);
      drops.report();
      const stopped = Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
      // Disconnects caused by our own shutdown are not presence news: gateways reconnect to the
      // next process, and the offline job catches those that do not.
      await presence.close();
      await new Promise<void>((resolve) => aedes.close(() => resolve()));
      await stopped;
    },
  };
}

/**
 * The acknowledgements of one connection: released in the order the messages came (MQTT sends
 * PUBACKs in PUBLISH order), each as soon as it and every earlier one are due; and the
 * connection's reading, paused while too many are waiting or while ingest holds it back.
 */
class ConnectionAcks {
  #queue: { due: boolean; send: () => void }[] = [];
  #head = 0;
  #holds = 0;
  #paused = false;
  readonly #client: PausableClient;

  constructor(client: PausableClient) {
    this.#client = client;
  }

  /** A slot for the next message; call the returned function when its acknowledgement is due. */
  next(send: () => void): () => void {
    const slot = { due: false, send };
    this.#queue.push(slot);
    this.#flow();
    return () => {
      if (slot.due) return;
      slot.due = true;
      while (this.#head < this.#queue.length && this.#queue[this.#head]!.due) this.#queue[this.#head++]!.send();
      if (this.#head === this.#queue.length) {
        this.#queue = [];
        this.#head = 0;
      }
      this.#flow();
    };
  }

  /** Read nothing more until `wait` resolves. */
  hold(wait: Promise<void>): void {
    this.#holds++;
    this.#flow();
    void wait.then(() => {
      this.#holds--;
      this.#flow();
    });
  }

  #flow(): void {
    const waiting = this.#queue.length - this.#head;
    const pause = this.#holds > 0 || waiting > MAX_UNACKED || (this.#paused && waiting > MAX_UNACKED / 2);
    if (pause === this.#paused) return;
    this.#paused = pause;
    if (pause) this.#client.pause();
    else {
      this.#client._parsingBatch = 1;
      this.#client.resume();
    }
  }
}

/** Dropped and held messages are logged as a summary per minute, not one line each. */
class DropReport {
  readonly #counts = new Map<string, { n: number; sns: Set<string> }>();
  readonly #log: Logger;
  constructor(log: Logger) {
    this.#log = log;
  }
  add(reason: string, sn: string): void {
    let c = this.#counts.get(reason);
    if (!c) {
      c = { n: 0, sns: new Set() };
      this.#counts.set(reason, c);
      this.#log.warn({ sn, reason }, 'gateway message dropped (further drops are summarised each minute)');
    }
    c.n++;
    if (c.sns.size < 10) c.sns.add(sn);
  }
  report(): void {
    for (const [reason, c] of this.#counts)
      this.#log.warn({ reason, messages: c.n, gateways: [...c.sns] }, 'gateway messages dropped');
    this.#counts.clear();
  }
}
