/**
 * The metrics registry: every family present with its figures from one snapshot, refusals by
 * reason (including reasons added to ingest later), optional counters only when ingest has them,
 * the commit histogram's buckets, and the store's pool or file figures.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePrometheus, sampleValue } from '../../test/prometheus.ts';
import { openTestStore, type TestStore } from '../../test/store.ts';
import { dataMessage, HYBRID, makeGateway, makePlant, uniqueSn } from '../../test/telemetry.ts';
import { createDb } from '../db/index.ts';
import { silentLogger } from '../log.ts';
import { createIngest, type Ingest } from '../telemetry/ingest/index.ts';
import { createMetrics, type TelemetrySnapshot } from './metrics.ts';

let store: TestStore;
let ingest: Ingest;
const T0 = Date.now() - 60_000;

const broker = (over: Partial<TelemetrySnapshot['broker']> = {}): TelemetrySnapshot['broker'] => ({
  kind: 'embedded',
  delivered: 7,
  droppedOversize: 2,
  rateLimited: 3,
  acknowledged: 5,
  retransmitted: 1,
  held: 1,
  connectsRefused: 4,
  publishesRefused: 5,
  subscribesRefused: 6,
  framesTooLarge: 8,
  presence: { badState: 9, flushes: 1, statements: 1, failedFlushes: 0, online: 2 },
  ...over,
});

beforeAll(async () => {
  store = await openTestStore();
  ingest = createIngest({ db: store.db, dialect: store.dialect, log: silentLogger, flushMs: 20 });
  // Real ingest figures: one stored frame, one duplicate, one malformed message, one unknown gateway.
  const gw = await makeGateway(store.db, await makePlant(store.db));
  const frame = dataMessage(T0, [{ sn: uniqueSn('INV'), protocol: HYBRID }]);
  ingest.message(gw.sn, 'data', frame, T0);
  await ingest.flush();
  ingest.message(gw.sn, 'data', frame, T0);
  ingest.message(gw.sn, 'data', Buffer.from('not json'), T0);
  ingest.message('NOSUCHGW1', 'data', dataMessage(T0, [{ sn: uniqueSn('INV'), protocol: HYBRID }]), T0);
  await ingest.flush();
});
afterAll(async () => {
  await ingest.close();
  await store.close();
});

describe('metrics', () => {
  it('exports every family, read from the stats of ingest and broker at scrape time', async () => {
    const metrics = createMetrics({ dialect: store.dialect, telemetry: () => ({ ingest: ingest.stats(), broker: broker() }) });
    const f = parsePrometheus(await metrics.text());
    for (const [name, type] of [
      ['sunfleet_ingest_messages_received_total', 'counter'],
      ['sunfleet_ingest_device_frames_total', 'counter'],
      ['sunfleet_ingest_frames_stored_total', 'counter'],
      ['sunfleet_ingest_frames_duplicate_total', 'counter'],
      ['sunfleet_ingest_frames_refused_total', 'counter'],
      ['sunfleet_ingest_batches_total', 'counter'],
      ['sunfleet_ingest_batches_failed_total', 'counter'],
      ['sunfleet_ingest_backpressure_spells_total', 'counter'],
      ['sunfleet_ingest_queue_frames', 'gauge'],
      ['sunfleet_ingest_batch_commit_seconds', 'histogram'],
      ['sunfleet_ingest_batch_frames', 'histogram'],
      ['sunfleet_mqtt_connections', 'gauge'],
      ['sunfleet_mqtt_messages_delivered_total', 'counter'],
      ['sunfleet_ingest_messages_acknowledged_total', 'counter'],
      ['sunfleet_mqtt_messages_oversized_total', 'counter'],
      ['sunfleet_mqtt_messages_rate_limited_total', 'counter'],
      ['sunfleet_mqtt_messages_acknowledged_total', 'counter'],
      ['sunfleet_mqtt_messages_retransmitted_total', 'counter'],
      ['sunfleet_mqtt_refused_total', 'counter'],
      ['sunfleet_mqtt_acks_held_total', 'counter'],
      ['sunfleet_http_request_duration_seconds', 'histogram'],
    ]) {
      expect(f.get(name!)?.type, name).toBe(type);
    }
    expect(sampleValue(f, 'sunfleet_ingest_messages_received_total')).toBe(4);
    expect(sampleValue(f, 'sunfleet_ingest_frames_stored_total')).toBe(1);
    expect(sampleValue(f, 'sunfleet_ingest_frames_duplicate_total')).toBe(1);
    expect(sampleValue(f, 'sunfleet_ingest_frames_refused_total', { reason: 'malformedJson' })).toBe(1);
    expect(sampleValue(f, 'sunfleet_ingest_frames_refused_total', { reason: 'unknownGateway' })).toBe(1);
    expect(sampleValue(f, 'sunfleet_ingest_frames_refused_total', { reason: 'schema' })).toBe(0);
    expect(sampleValue(f, 'sunfleet_mqtt_connections')).toBe(2);
    expect(sampleValue(f, 'sunfleet_mqtt_messages_rate_limited_total')).toBe(3);
    expect(sampleValue(f, 'sunfleet_mqtt_refused_total', { kind: 'frame_too_large' })).toBe(8);
    expect(sampleValue(f, 'sunfleet_mqtt_refused_total', { kind: 'state_payload' })).toBe(9);
    // Counters follow the stats from one scrape to the next.
    ingest.message('NOSUCHGW2', 'data', dataMessage(T0, [{ sn: uniqueSn('INV'), protocol: HYBRID }]), T0);
    await ingest.flush();
    const g = parsePrometheus(await metrics.text());
    expect(sampleValue(g, 'sunfleet_ingest_frames_refused_total', { reason: 'unknownGateway' })).toBe(2);
    expect(sampleValue(g, 'sunfleet_ingest_messages_received_total')).toBe(5);
  });

  it('exports a refusal reason it does not know by name', async () => {
    const metrics = createMetrics({
      dialect: store.dialect,
      telemetry: () => {
        const s = ingest.stats();
        return {
          ingest: { ...s, badFrames: { ...s.badFrames, someNewReason: 3 } as typeof s.badFrames },
          broker: broker(),
        };
      },
    });
    const f = parsePrometheus(await metrics.text());
    expect(sampleValue(f, 'sunfleet_ingest_frames_refused_total', { reason: 'someNewReason' })).toBe(3);
    expect(sampleValue(f, 'sunfleet_ingest_messages_acknowledged_total')).toBe(ingest.stats().acknowledged);
    expect((await metrics.status()).ingest).toMatchObject({ acknowledged: ingest.stats().acknowledged });
  });

  it('puts each batch commit in its histogram bucket', async () => {
    const metrics = createMetrics({ dialect: store.dialect, telemetry: () => ({ ingest: ingest.stats(), broker: broker() }) });
    metrics.onCommit(12, 100);
    metrics.onCommit(300, 2000);
    const f = parsePrometheus(await metrics.text());
    const bucket = (le: string) => sampleValue(f, 'sunfleet_ingest_batch_commit_seconds_bucket', { le });
    expect(bucket('0.01')).toBe(0);
    expect(bucket('0.025')).toBe(1);
    expect(bucket('0.25')).toBe(1);
    expect(bucket('0.5')).toBe(2);
    expect(bucket('+Inf')).toBe(2);
    expect(sampleValue(f, 'sunfleet_ingest_batch_commit_seconds_count')).toBe(2);
    expect(sampleValue(f, 'sunfleet_ingest_batch_commit_seconds_sum')).toBeCloseTo(0.312, 6);
    expect(sampleValue(f, 'sunfleet_ingest_batch_frames_bucket', { le: '100' })).toBe(1);
    expect(sampleValue(f, 'sunfleet_ingest_batch_frames_bucket', { le: '2000' })).toBe(2);
  });

  it('exports no ingest or MQTT families where ingest runs in another process', async () => {
    const metrics = createMetrics({ dialect: store.dialect, telemetry: () => null });
    const f = parsePrometheus(await metrics.text());
    expect([...f.keys()].filter((n) => n.startsWith('sunfleet_ingest') || n.startsWith('sunfleet_mqtt'))).toEqual([]);
    expect(f.has('sunfleet_http_request_duration_seconds')).toBe(true);
    const status = await metrics.status();
    expect(status.ingest).toBeNull();
    expect(status.broker).toBeNull();
  });

  it.runIf(!!process.env.TEST_DATABASE_URL)(
    'PostgreSQL: reports the pool: its size, connections held, idle and waiting',
    async () => {
      const pool = store.pool!;
      const metrics = createMetrics({ dialect: 'postgres', pool });
      const held = await Promise.all([pool.connect(), pool.connect()]);
      const f = parsePrometheus(await metrics.text());
      expect(sampleValue(f, 'sunfleet_db_pool_max')).toBe(4);
      expect(sampleValue(f, 'sunfleet_db_pool_connections')).toBe(pool.totalCount);
      expect(sampleValue(f, 'sunfleet_db_pool_idle')).toBe(pool.idleCount);
      expect(pool.totalCount - pool.idleCount).toBeGreaterThanOrEqual(2);
      for (const c of held) c.release();
      const g = parsePrometheus(await metrics.text());
      expect(sampleValue(g, 'sunfleet_db_pool_idle')).toBe(pool.totalCount);
      expect(sampleValue(g, 'sunfleet_db_pool_waiting')).toBe(0);
      expect((await metrics.status()).store.pool).toEqual({ max: 4, total: pool.totalCount, idle: pool.totalCount, waiting: 0 });
    },
  );

  it('SQLite: reports the sizes of the file and its write-ahead log', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sunfleet-metrics-'));
    const file = path.join(dir, 'store.db');
    const s = createDb({ databaseUrl: null, sqliteFile: file });
    try {
      s.sqlite!.exec('create table t (x text); insert into t values (hex(randomblob(10000)))');
      const metrics = createMetrics({ dialect: 'sqlite', sqliteFile: s.sqliteFile });
      const f = parsePrometheus(await metrics.text());
      expect(sampleValue(f, 'sunfleet_db_sqlite_file_bytes')).toBe(fs.statSync(file).size);
      expect(sampleValue(f, 'sunfleet_db_sqlite_wal_bytes')).toBe(fs.statSync(`${file}-wal`).size);
      expect(sampleValue(f, 'sunfleet_db_sqlite_wal_bytes')).toBeGreaterThan(10_000);
      expect(f.has('sunfleet_db_pool_connections')).toBe(false);
    } finally {
      await s.db.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
