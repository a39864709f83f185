/**
 * Changes every server process must hear of at once, where a cache's time to live would be too
 * late: ingest's cached gateways, devices and plant facts after an edit through the API, and a
 * deleted gateway's cached secret and live session in the embedded broker.
 *
 * A message is delivered to this process's handlers at once (in `publish`, as before there were
 * several processes), and on PostgreSQL to every other process through `NOTIFY` on one channel,
 * heard on a connection of its own (`LISTEN`). A message carries its schema (processes of another
 * deployment or test in the same database skip it) and its sender (who has handled it already).
 * A notification is at most 8000 bytes: `gateway.revoked` is sent in parts of 100 SNs.
 *
 * Lost connection: the listener connects again (after 1 s, doubling to 30 s); what was sent
 * meanwhile is lost, so each handler is then told to `resync` (ingest forgets every cached
 * entry and reloads from the store). SQLite: one process, local delivery only.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import type { Db } from '../db/index.ts';
import { type Logger, silentLogger } from '../log.ts';

export type ClusterMessage =
  /** Drop ingest's cached gateway (by SN), device (by SN), or everything (neither). */
  | { kind: 'ingest.forget'; gatewaySn?: string; deviceSn?: string }
  /** Gateways whose credentials no longer hold (deleted): drop their cached secret and end their session. */
  | { kind: 'gateway.revoked'; sns: string[] };

export interface ClusterHandler {
  message(m: ClusterMessage): void;
  /** Messages may have been missed (the listener connected again): reload what is cached. */
  resync(): void;
}

export interface ClusterBus {
  /** This process's handlers now, every other process's through the store; never throws. */
  publish(m: ClusterMessage): void;
  subscribe(handler: ClusterHandler): () => void;
  /** Resolves once messages from other processes are heard (tests; at once on SQLite). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

export const CLUSTER_CHANNEL = 'sunfleet_cluster';
const PART = 100;

export interface ClusterBusOptions {
  db: Db;
  /** PostgreSQL URL (with the schema's search_path when not the default); null: SQLite, this process only. */
  databaseUrl: string | null;
  log?: Logger;
  /** The listener connection's `application_name` (default `sunfleet-cluster`). */
  applicationName?: string;
}

interface Envelope {
  schema: string;
  from: string;
  m: ClusterMessage;
}

export function createClusterBus(opts: ClusterBusOptions): ClusterBus {
  const log = opts.log ?? silentLogger;
  const handlers = new Set<ClusterHandler>();
  const self = randomUUID();
  const each = (f: (h: ClusterHandler) => void) => {
    for (const h of handlers) {
      try {
        f(h);
      } catch (err) {
        log.error({ err }, 'cluster message handler failed');
      }
    }
  };
  const parts = (m: ClusterMessage): ClusterMessage[] => {
    if (m.kind !== 'gateway.revoked' || m.sns.length <= PART) return [m];
    const out: ClusterMessage[] = [];
    for (let i = 0; i < m.sns.length; i += PART) out.push({ kind: 'gateway.revoked', sns: m.sns.slice(i, i + PART) });
    return out;
  };
  const subscribe = (h: ClusterHandler) => {
    handlers.add(h);
    return () => void handlers.delete(h);
  };

  if (!opts.databaseUrl) {
    return {
      publish: (m) => each((h) => h.message(m)),
      subscribe,
      ready: async () => {},
      close: async () => {},
    };
  }

  const databaseUrl = opts.databaseUrl;
  let schema: Promise<string> | null = null;
  const currentSchema = () =>
    (schema ??= sql<{ s: string }>`select current_schema() as s`.execute(opts.db).then(
      (r) => r.rows[0]?.s ?? 'public',
      (err) => {
        schema = null;
        throw err;
      },
    ));

  let client: pg.Client | null = null;
  let closed = false;
  let retryMs = 1000;
  let retry: NodeJS.Timeout | null = null;
  let heard = false;
  let readyWaiters: (() => void)[] = [];

  const onNotification = async (n: pg.Notification) => {
    if (n.channel !== CLUSTER_CHANNEL || !n.payload) return;
    let e: Envelope;
    try {
      e = JSON.parse(n.payload) as Envelope;
    } catch {
      return;
    }
    if (e.from === self || e.schema !== (await currentSchema())) return;
    each((h) => h.message(e.m));
  };

  const listen = async () => {
    retry = null;
    if (closed) return;
    const c = new pg.Client({
      connectionString: databaseUrl,
      keepAlive: true,
      application_name: opts.applicationName ?? 'sunfleet-cluster',
    });
    const lost = (err?: unknown) => {
      if (client !== c) return;
      client = null;
      heard = false;
      c.end().catch(() => undefined);
      if (closed) return;
      log.warn({ err, retryMs }, 'cluster listener lost; connecting again');
      retry = setTimeout(() => void listen(), retryMs);
      retry.unref();
      retryMs = Math.min(retryMs * 2, 30_000);
    };
    c.on('error', lost);
    c.on('end', () => lost());
    c.on('notification', (n) => void onNotification(n).catch((err) => log.error({ err }, 'cluster message dropped')));
    client = c;
    try {
      await c.connect();
      await currentSchema();
      await c.query(`listen ${CLUSTER_CHANNEL}`);
    } catch (err) {
      lost(err);
      return;
    }
    if (client !== c) return;
    const again = retryMs > 1000;
    retryMs = 1000;
    heard = true;
    for (const w of readyWaiters) w();
    readyWaiters = [];
    // Whatever was sent while nobody listened is lost: every handler reloads.
    if (again) each((h) => h.resync());
  };
  void listen();

  return {
    publish(m) {
      each((h) => h.message(m));
      void (async () => {
        const s = await currentSchema();
        for (const part of parts(m)) {
          const payload = JSON.stringify({ schema: s, from: self, m: part } satisfies Envelope);
          await sql`select pg_notify(${CLUSTER_CHANNEL}, ${payload})`.execute(opts.db);
        }
      })().catch((err) =>
        log.error({ err, kind: m.kind }, 'cluster message not sent; other processes reload within their time to live'),
      );
    },
    subscribe,
    ready: () => (heard ? Promise.resolve() : new Promise<void>((resolve) => readyWaiters.push(resolve))),
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      const c = client;
      client = null;
      for (const w of readyWaiters) w();
      readyWaiters = [];
      await c?.end().catch(() => undefined);
    },
  };
}

/** What the API tells the other parts (`Deps.ingest`, `Deps.revokeGateways`): sent to every process. */
export function clusterEffects(bus: ClusterBus) {
  return {
    ingest: {
      forget: (o?: { gatewaySn?: string; deviceSn?: string }) =>
        bus.publish({
          kind: 'ingest.forget',
          ...(o?.gatewaySn ? { gatewaySn: o.gatewaySn } : {}),
          ...(o?.deviceSn ? { deviceSn: o.deviceSn } : {}),
        }),
    },
    revokeGateways: (sns: readonly string[]) => bus.publish({ kind: 'gateway.revoked', sns: [...sns] }),
  };
}

/** The ingest role's side: ingest forgets what changed, the broker ends a deleted gateway's session. */
export function telemetryHandler(t: {
  ingest: { forget(o?: { gatewaySn?: string; deviceSn?: string }): void };
  revoke(sn: string): void;
}): ClusterHandler {
  return {
    message(m) {
      if (m.kind === 'gateway.revoked') {
        for (const sn of m.sns) t.revoke(sn);
        return;
      }
      // Neither SN: everything, the rollups' plant facts included (as `forget()` in one process).
      if (!m.gatewaySn && !m.deviceSn) t.ingest.forget();
      else
        t.ingest.forget({ ...(m.gatewaySn ? { gatewaySn: m.gatewaySn } : {}), ...(m.deviceSn ? { deviceSn: m.deviceSn } : {}) });
    },
    resync: () => t.ingest.forget(),
  };
}
