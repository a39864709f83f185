/**
 * SQLite while another process holds the write lock (BEGIN IMMEDIATE on the same file): the
 * synchronous driver must not freeze the server. HTTP reads keep answering fast, an HTTP write
 * answers 503 at once (not after a 5 s wait), and ingest stores every acknowledged frame once the
 * lock is released.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ErrorCode, topics } from '@sunfleet/contracts';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/harness.ts';
import { type MqttIngest, mqttIngest } from '../../test/ingest.ts';
import { sleep, waitFor } from '../../test/mqtt.ts';
import { dataMessage, HYBRID, uniqueSn } from '../../test/telemetry.ts';

const MIN = 60_000;
const T0 = Math.floor((Date.now() - 20 * 86_400_000) / MIN) * MIN;
const LOCK_MS = 3000;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

describe.skipIf(!!process.env.TEST_DATABASE_URL)('SQLite write lock held by another process', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sunfleet-lock-'));
  const file = path.join(dir, 'sunfleet.db');
  let s: TestServer;
  let link: MqttIngest;
  let other: SQLite.Database;
  const inverter = uniqueSn('INV');

  beforeAll(async () => {
    s = await startServer({}, undefined, {}, { databaseUrl: null, sqliteFile: file });
    link = await mqttIngest(s);
    other = new SQLite(file);
  });

  afterAll(async () => {
    if (other?.inTransaction) other.exec('rollback');
    other?.close();
    await link?.close();
    await s?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keeps reads fast, answers a write 503 at once, and stores every acknowledged frame after the lock', async () => {
    const { access } = await s.login((await s.user()).account);
    const read = () => s.call(access, 'GET', '/api/v1/user');
    const write = () => s.call(access, 'POST', '/api/v1/user/personalized', { key: 'theme', value: 'dark' });
    expect((await write()).body.code).toBe(ErrorCode.ok);

    const acked = new Set<number>();
    const publishes: Promise<void>[] = [];
    let sent = 0;
    const publish = () => {
      const i = sent++;
      publishes.push(
        link.gateway
          .publishAsync(topics.up(link.gw.sn, 'data'), dataMessage(T0 + i * MIN, [{ sn: inverter, protocol: HYBRID }]), {
            qos: 1,
          })
          .then(
            () => void acked.add(i),
            () => undefined,
          ),
      );
    };
    for (let i = 0; i < 20; i++) publish();
    await waitFor(() => acked.size === 20, 5000, 'frames before the lock');
    await link.ingest.flush();

    other.exec('begin immediate');
    const lockedAt = performance.now();
    const latencies: number[] = [];
    let writeResult: { status: number; body: { code: number }; ms: number } | null = null;
    let round = 0;
    // At least LOCK_MS, and at least 100 reads to measure (a loaded machine reads fewer in that time).
    while (performance.now() - lockedAt < LOCK_MS || latencies.length < 100) {
      if (round % 5 === 0) publish(); // ingest keeps receiving, and meets the lock
      if (round === 20) {
        const started = performance.now();
        const res = await write();
        writeResult = { ...res, ms: performance.now() - started };
      }
      const started = performance.now();
      const res = await read();
      latencies.push(performance.now() - started);
      expect(res.status).toBe(200);
      round++;
      await sleep(5);
    }
    const heldFor = performance.now() - lockedAt;
    other.exec('commit');

    expect(link.ingest.stats().failedBatches).toBeGreaterThan(0); // ingest did meet the lock
    expect(writeResult?.status).toBe(503);
    expect(writeResult?.body).toMatchObject({ code: ErrorCode.storeUnavailable });
    expect(writeResult!.ms).toBeLessThan(500);
    const p99 = percentile(latencies, 99);
    console.log(
      `SQLite lock held ${Math.round(heldFor)} ms: ${latencies.length} reads, p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms; write answered ${writeResult!.status} in ${writeResult!.ms.toFixed(1)} ms`,
    );
    // Reads do not wait for the lock: one that did would take the 3 s it is held. Half answer in
    // under 20 ms; the slowest 1 % under 1 s (a machine running the other suites delays a few).
    expect(percentile(latencies, 50)).toBeLessThan(20);
    expect(p99).toBeLessThan(1000);

    // Released: the write succeeds, every acknowledged frame is stored exactly once.
    expect((await write()).body.code).toBe(ErrorCode.ok);
    await Promise.all(publishes);
    await waitFor(
      async () => {
        await link.ingest.flush();
        const device = await s.db.selectFrom('devices').select('id').where('sn', '=', inverter).executeTakeFirst();
        if (!device) return false;
        const rows = await s.db.selectFrom('inverter_samples').select('ts').where('device_id', '=', device.id).execute();
        const stored = new Set(rows.map((r) => Number(r.ts)));
        return rows.length === stored.size && [...acked].every((i) => stored.has(T0 + i * MIN));
      },
      15_000,
      'every acknowledged frame stored',
    );
    expect(acked.size).toBe(sent);
  }, 60_000);
});
