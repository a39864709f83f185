/**
 * The counters an operator reads: one prom-client registry per process. Ingest, broker and store
 * keep their own counters (`stats()`); a scrape takes one snapshot of them and every family reads
 * that snapshot in its `collect()`, so the families of one scrape agree with each other. Only the
 * batch commit histogram and the HTTP durations are observed as they happen (`onCommit`,
 * `observeHttp`). `status()` gives the same figures as JSON for the operators' system page.
 */
import fs from 'node:fs';
import type { DataOf, systemApi } from '@sunfleet/contracts';
import type pg from 'pg';
import { Counter, collectDefaultMetrics, Gauge, Histogram, type Metric, Registry } from 'prom-client';
import type { CommandStats } from '../commands/service.ts';
import type { Dialect } from '../db/index.ts';
import { venStats } from '../demand-response/stats.ts';
import type { PresenceStats } from '../telemetry/broker/presence.ts';
import type { IngestStats } from '../telemetry/ingest/index.ts';

export type SystemStatus = DataOf<typeof systemApi.status>;

/** What the ingest role of this process reports at scrape time. */
export interface TelemetrySnapshot {
  ingest: IngestStats;
  broker: {
    kind: 'embedded' | 'bridge';
    delivered: number;
    droppedOversize: number;
    rateLimited: number;
    acknowledged: number;
    retransmitted: number;
    held: number;
    presence: PresenceStats;
    /** Embedded broker only. */
    connectsRefused?: number;
    publishesRefused?: number;
    subscribesRefused?: number;
    framesTooLarge?: number;
    /** Bridge only. */
    reconnects?: number;
  };
  /** The command channel of this process (its replies come through this MQTT side). */
  commands?: CommandStats;
}

export interface MetricSources {
  dialect: Dialect;
  /** PostgreSQL: the pool under the store. */
  pool?: pg.Pool | null;
  /** SQLite: the store's file (its `-wal` beside it). */
  sqliteFile?: string | null;
  /** This process's ingest and MQTT side; absent, or returning null, where ingest runs elsewhere. */
  telemetry?: () => TelemetrySnapshot | null;
  /** Node's own figures (CPU, memory, event-loop delay, GC); on in the server process. */
  processMetrics?: boolean;
}

/** Ingest calls this after each committed batch: how long the transaction took and its frames. */
export type CommitHook = (ms: number, frames: number) => void;

export interface Metrics {
  /** Prometheus text of every family present in this process. */
  text(): Promise<string>;
  readonly contentType: string;
  status(): Promise<SystemStatus>;
  onCommit: CommitHook;
  /** One HTTP request: `route` is the route pattern (never the raw URL). */
  observeHttp(method: string, route: string, statusCode: number, ms: number): void;
}

interface Snapshot {
  telemetry: TelemetrySnapshot | null;
  pool: { max: number; total: number; idle: number; waiting: number } | null;
  sqlite: { fileBytes: number; walBytes: number } | null;
}

/** A family and whether a snapshot has its figures (absent families are not exported). */
interface Family {
  name: string;
  metric: Metric;
  present(s: Snapshot): boolean;
}

const SECONDS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const BATCH_FRAMES = [1, 10, 50, 100, 250, 500, 1000, 2000, 5000];
/** Routes listed on the status page, busiest first. */
const STATUS_ROUTES = 20;

const fileBytes = (file: string) =>
  fs.promises.stat(file).then(
    (s) => s.size,
    () => 0,
  );

export function createMetrics(sources: MetricSources): Metrics {
  const registry = new Registry();
  const started = Date.now();
  let current: Snapshot = { telemetry: null, pool: null, sqlite: null };
  const families: Family[] = [];
  const always = () => true;
  const hasTelemetry = (s: Snapshot) => s.telemetry !== null;

  /** A counter whose value is read from the snapshot (a running total kept elsewhere). */
  function total(name: string, help: string, read: (t: TelemetrySnapshot) => number | undefined): void {
    const metric = new Counter({
      name,
      help,
      registers: [],
      collect() {
        this.reset();
        const v = current.telemetry && read(current.telemetry);
        if (v) this.inc(v);
      },
    });
    families.push({ name, metric, present: (s) => s.telemetry !== null && read(s.telemetry) !== undefined });
  }
  /** A counter with one label whose values are read from the snapshot. */
  function totals(
    name: string,
    help: string,
    label: string,
    read: (t: TelemetrySnapshot) => Array<[string, number | undefined]>,
  ): void {
    const metric = new Counter({
      name,
      help,
      labelNames: [label],
      registers: [],
      collect() {
        this.reset();
        if (!current.telemetry) return;
        for (const [value, n] of read(current.telemetry)) if (n !== undefined) this.inc({ [label]: value }, n);
      },
    });
    families.push({ name, metric, present: hasTelemetry });
  }
  function gauge(name: string, help: string, read: (s: Snapshot) => number | null | undefined): void {
    const metric = new Gauge({
      name,
      help,
      registers: [],
      collect() {
        this.set(read(current) ?? 0);
      },
    });
    families.push({ name, metric, present: (s) => read(s) != null });
  }

  // Ingest.
  total('sunfleet_ingest_messages_received_total', 'Messages gateways published to ingest', (t) => t.ingest.messages);
  total('sunfleet_ingest_device_frames_total', 'Device frames that passed the edge checks', (t) => t.ingest.deviceFrames);
  total('sunfleet_ingest_frames_stored_total', 'Device frames stored as new samples', (t) => t.ingest.stored);
  total(
    'sunfleet_ingest_frames_duplicate_total',
    'Device frames already stored (same device and time), dropped',
    (t) => t.ingest.duplicates,
  );
  totals('sunfleet_ingest_frames_refused_total', 'Frames ingest refused, by reason', 'reason', (t) =>
    Object.entries(t.ingest.badFrames),
  );
  total(
    'sunfleet_ingest_messages_acknowledged_total',
    'Messages acknowledged to their gateway: every frame in them committed, or refused',
    (t) => t.ingest.acknowledged,
  );
  total('sunfleet_ingest_batches_total', 'Batches committed', (t) => t.ingest.batches);
  total('sunfleet_ingest_batches_failed_total', 'Batch transactions the store refused (retried)', (t) => t.ingest.failedBatches);
  total(
    'sunfleet_ingest_backpressure_spells_total',
    'Times the backlog went over the high-water mark and publishers were held',
    (t) => t.ingest.heldSpells,
  );
  // Commands.
  total('sunfleet_command_sent_total', 'Commands published to gateways (resends included)', (t) => t.commands?.sent);
  total('sunfleet_command_resent_total', 'Commands sent again with the same id (no answer yet)', (t) => t.commands?.resent);
  total('sunfleet_command_replies_total', 'Command replies that settled or moved a job', (t) => t.commands?.replies);
  totals(
    'sunfleet_command_replies_refused_total',
    'Command replies refused (malformed, unknown job, from another gateway than the job went to, job not open), by reason',
    'reason',
    (t) => Object.entries(t.commands?.repliesRefused ?? {}),
  );
  gauge('sunfleet_ingest_queue_frames', 'Device frames waiting to be written', (s) => s.telemetry?.ingest.queueLength);
  const commitSeconds = new Histogram({
    name: 'sunfleet_ingest_batch_commit_seconds',
    help: 'Time to write and commit one ingest batch',
    buckets: SECONDS,
    registers: [],
  });
  const batchFrames = new Histogram({
    name: 'sunfleet_ingest_batch_frames',
    help: 'Frames (device frames and events) in one committed batch',
    buckets: BATCH_FRAMES,
    registers: [],
  });
  families.push(
    { name: 'sunfleet_ingest_batch_commit_seconds', metric: commitSeconds, present: hasTelemetry },
    { name: 'sunfleet_ingest_batch_frames', metric: batchFrames, present: hasTelemetry },
  );

  // MQTT side.
  gauge(
    'sunfleet_mqtt_connections',
    'Gateways with a live MQTT session as this process sees them',
    (s) => s.telemetry?.broker.presence.online,
  );
  total('sunfleet_mqtt_messages_delivered_total', 'Messages handed to ingest', (t) => t.broker.delivered);
  total(
    'sunfleet_mqtt_messages_oversized_total',
    'Messages refused for their size (counted, acknowledged)',
    (t) => t.broker.droppedOversize,
  );
  total(
    'sunfleet_mqtt_messages_rate_limited_total',
    "Messages over their gateway's rate, held until within it (never dropped)",
    (t) => t.broker.rateLimited,
  );
  total(
    'sunfleet_mqtt_messages_acknowledged_total',
    'Messages acknowledged to the publisher once stored or refused',
    (t) => t.broker.acknowledged,
  );
  total(
    'sunfleet_mqtt_messages_retransmitted_total',
    'Messages that arrived again with the MQTT DUP flag',
    (t) => t.broker.retransmitted,
  );
  totals('sunfleet_mqtt_refused_total', 'Refused MQTT operations, by kind', 'kind', (t) => [
    ['connect', t.broker.connectsRefused],
    ['publish', t.broker.publishesRefused],
    ['subscribe', t.broker.subscribesRefused],
    ['frame_too_large', t.broker.framesTooLarge],
    ['state_payload', t.broker.presence.badState],
  ]);
  total('sunfleet_mqtt_acks_held_total', 'Acknowledgements held back while ingest drained its backlog', (t) => t.broker.held);
  total('sunfleet_mqtt_reconnects_total', 'Reconnects of the bridge to the external broker', (t) => t.broker.reconnects);
  total('sunfleet_presence_flushes_failed_total', 'Presence writes the store refused', (t) => t.broker.presence.failedFlushes);

  // Store.
  gauge('sunfleet_db_pool_max', 'Largest size of the PostgreSQL pool', (s) => s.pool?.max);
  gauge('sunfleet_db_pool_connections', 'Connections the PostgreSQL pool holds (idle and in use)', (s) => s.pool?.total);
  gauge('sunfleet_db_pool_idle', 'Idle connections in the PostgreSQL pool', (s) => s.pool?.idle);
  gauge('sunfleet_db_pool_waiting', 'Queries waiting for a PostgreSQL connection', (s) => s.pool?.waiting);
  gauge('sunfleet_db_sqlite_file_bytes', 'Size of the SQLite file', (s) => s.sqlite?.fileBytes);
  gauge('sunfleet_db_sqlite_wal_bytes', 'Size of the SQLite write-ahead log (shrinks at checkpoints)', (s) => s.sqlite?.walBytes);

  // HTTP.
  const httpSeconds = new Histogram({
    name: 'sunfleet_http_request_duration_seconds',
    help: 'HTTP request duration by route pattern, method and status class',
    labelNames: ['method', 'route', 'status'],
    buckets: SECONDS,
    registers: [],
  });
  families.push({ name: 'sunfleet_http_request_duration_seconds', metric: httpSeconds, present: always });
  const rateLimited = new Counter({
    name: 'sunfleet_http_rate_limited_total',
    help: 'Requests refused by a rate limit (HTTP 429), by route pattern and method',
    labelNames: ['method', 'route'],
    registers: [],
  });
  families.push({ name: 'sunfleet_http_rate_limited_total', metric: rateLimited, present: always });
  // The demand-response VEN of this process (per-process running totals, `demand-response/stats.ts`).
  for (const [name, help, label, read] of [
    [
      'sunfleet_oadr_webhook_refused_total',
      'VTN webhook calls refused: no valid bearer token, throttled, not a notification',
      'reason',
      () => venStats.webhookRefused,
    ],
    [
      'sunfleet_oadr_events_ignored_total',
      'VTN events the VEN did not act on: not its programme, not its targets',
      'reason',
      () => venStats.eventsIgnored,
    ],
    [
      'sunfleet_oadr_reports_total',
      'Reports to the VTN by outcome: sent, retried later, given up',
      'outcome',
      () => venStats.reports,
    ],
  ] as const) {
    const metric = new Counter({
      name,
      help,
      labelNames: [label],
      registers: [],
      collect() {
        this.reset();
        for (const [value, n] of Object.entries(read() as Record<string, number>)) this.inc({ [label]: value }, n);
      },
    });
    families.push({ name, metric, present: always });
  }
  const routes = new Map<string, { method: string; route: string; count: number; serverErrors: number; totalMs: number }>();
  let requests = 0;

  for (const f of families) if (f.present(current)) registry.registerMetric(f.metric);
  if (sources.processMetrics) collectDefaultMetrics({ register: registry, prefix: 'sunfleet_' });

  async function take(): Promise<Snapshot> {
    const pool = sources.pool;
    const file = sources.sqliteFile;
    return {
      telemetry: sources.telemetry?.() ?? null,
      pool: pool
        ? { max: pool.options.max ?? 10, total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }
        : null,
      sqlite: file ? { fileBytes: await fileBytes(file), walBytes: await fileBytes(`${file}-wal`) } : null,
    };
  }

  /** Take a snapshot and export exactly the families it has figures for. */
  async function refresh(): Promise<Snapshot> {
    current = await take();
    for (const f of families) {
      const registered = registry.getSingleMetric(f.name) !== undefined;
      if (f.present(current) && !registered) registry.registerMetric(f.metric);
      else if (!f.present(current) && registered) registry.removeSingleMetric(f.name);
    }
    return current;
  }

  return {
    contentType: registry.contentType,
    async text() {
      await refresh();
      return registry.metrics();
    },
    async status() {
      const s = await refresh();
      const t = s.telemetry;
      return {
        at: new Date().toISOString(),
        uptimeSec: Math.round((Date.now() - started) / 1000),
        store: { dialect: sources.dialect, pool: s.pool, sqlite: s.sqlite },
        ingest: t && {
          received: t.ingest.messages,
          deviceFrames: t.ingest.deviceFrames,
          stored: t.ingest.stored,
          duplicates: t.ingest.duplicates,
          acknowledged: t.ingest.acknowledged,
          refusedTotal: Object.values(t.ingest.badFrames).reduce((a, b) => a + b, 0),
          refused: Object.entries(t.ingest.badFrames).map(([reason, count]) => ({ reason, count })),
          batches: t.ingest.batches,
          failedBatches: t.ingest.failedBatches,
          queueLength: t.ingest.queueLength,
          lastCommitMs: t.ingest.lastFlushMs,
          averageCommitMs: t.ingest.averageFlushMs,
          heldSpells: t.ingest.heldSpells,
        },
        broker: t && {
          kind: t.broker.kind,
          connections: t.broker.presence.online,
          delivered: t.broker.delivered,
          droppedOversize: t.broker.droppedOversize,
          rateLimited: t.broker.rateLimited,
          acknowledged: t.broker.acknowledged,
          retransmitted: t.broker.retransmitted,
          held: t.broker.held,
        },
        http: {
          requests,
          routes: [...routes.values()]
            .sort((a, b) => b.count - a.count)
            .slice(0, STATUS_ROUTES)
            .map((r) => ({
              method: r.method,
              route: r.route,
              count: r.count,
              serverErrors: r.serverErrors,
              averageMs: r.totalMs / r.count,
            })),
        },
      };
    },
    onCommit(ms, frames) {
      commitSeconds.observe(ms / 1000);
      batchFrames.observe(frames);
    },
    observeHttp(method, route, statusCode, ms) {
      httpSeconds.observe({ method, route, status: `${Math.floor(statusCode / 100)}xx` }, ms / 1000);
      if (statusCode === 429) rateLimited.inc({ method, route });
      requests++;
      const key = `${method} ${route}`;
      let r = routes.get(key);
      if (!r) {
        r = { method, route, count: 0, serverErrors: 0, totalMs: 0 };
        routes.set(key, r);
      }
      r.count++;
      r.totalMs += ms;
      if (statusCode >= 500) r.serverErrors++;
    },
  };
}
