/**
 * End-to-end ingest benchmark: the real server process (embedded Aedes broker + ingest, as
 * `npm start` runs it, roles ingest,jobs) loaded by the simulator's load mode (real protocols,
 * QoS 1, one MQTT connection per provisioned gateway), compared with the bare broker relay of
 * the same load. Writes bench/results/ingest-<store>.json and appends to bench/results/latest.md.
 *
 *   node --import tsx bench/ingest.ts                          # SQLite (temp DATA_DIR)
 *   BENCH_DATABASE_URL=postgres://… node --import tsx bench/ingest.ts   # + PostgreSQL (fresh schema, dropped after)
 *
 * Env: BENCH_INGEST_SECONDS (12), BENCH_INGEST_GATEWAYS (200), BENCH_INGEST_DEVICES (4 per gateway),
 * BENCH_INGEST_STORES (sqlite[,postgres]), BENCH_INGEST_RELAY (on), BENCH_INGEST_SETTLE_S (15, between
 * the max and the budget phase).
 *
 * How it measures:
 * - committed device frames: rows in the four *_samples tables, counted from this process every
 *   500 ms (read-only SQLite connection / pg); framesPerSecond = rows committed during the load
 *   window (first commit seen … + the simulator's measured duration), minus a 1 s warm-up, ÷ time.
 * - lostFrames: device frames acked to the simulator within its window but not committed after
 *   drain, plus gaps in each device's (seq-derived, 1 s apart) sample timestamps.
 * - p99LagMs: publish → PUBACK of the load's messages, as the simulator measures it; the server
 *   acknowledges a message only once it is committed, so this is publish → committed.
 * - probeLagMs: a probe gateway (not part of the load) publishes one frame every 50 ms with
 *   ts = wall clock; this process polls for its rows every 25 ms: lag = first seen − ts, so it is
 *   publish → committed-and-visible, with up to ~25 ms of polling granularity.
 * - cpuPercent / rssMB: /proc/<server pid>/stat and status (all threads) over the load window.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { topics } from '@sunfleet/contracts';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { connect } from 'mqtt';
import pg from 'pg';

// biome-ignore lint/suspicious/noExplicitAny: rows of ad hoc bench queries
type Row = Record<string, any>;

import { createDb, migrate } from '../apps/server/src/db/index.ts';
import { provisionGateway } from '../apps/server/src/telemetry/gateways.ts';
import { unownedPlant } from '../apps/server/test/telemetry.ts';
import { loadDevices } from '../apps/simulator/src/load-generator.ts';
import { freePort, ingestCounters, pct, probeMessage, procSample, runJson, runLoad } from './ingest-probes.ts';

const root = path.resolve(import.meta.dirname, '..');
const SECONDS = Number(process.env.BENCH_INGEST_SECONDS ?? 12);
const GATEWAYS = Number(process.env.BENCH_INGEST_GATEWAYS ?? 200);
const DEVICES = Number(process.env.BENCH_INGEST_DEVICES ?? 4);
const pgUrl = process.env.BENCH_DATABASE_URL || null;
const stores = (process.env.BENCH_INGEST_STORES ?? (pgUrl ? 'sqlite,postgres' : 'sqlite'))
  .split(',')
  .map((s) => s.trim())
  .filter((s) => s === 'sqlite' || (s === 'postgres' && pgUrl));
const TABLES = ['inverter_samples', 'battery_samples', 'meter_samples', 'weather_samples'];
const BUDGET_FPS = 20_000;
/** Pause between the max phase and the budget phase (BENCH_INGEST_SETTLE_S, default 15). */
const SETTLE_S = Number(process.env.BENCH_INGEST_SETTLE_S ?? 15);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const CLK_TCK = 100;

async function relayBench() {
  const r = await runJson([
    'apps/simulator/src/testing/broker-load.ts',
    '--duration',
    String(SECONDS),
    '--gateways',
    String(GATEWAYS),
    '--devices-per-gateway',
    String(DEVICES),
    '--relay',
  ]);
  return r.report as { relayedPerS: number; messagesPerS: number; relayed: number; acked: number; durationS: number };
}

async function ingestBench(store: 'sqlite' | 'postgres', relay: Awaited<ReturnType<typeof relayBench>> | null) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sunfleet-ingest-e2e-'));
  const sqliteFile = path.join(dataDir, 'sunfleet.db');
  const schema = store === 'postgres' ? `bench_e2e_${randomBytes(4).toString('hex')}` : undefined;
  let serverDbUrl = '';
  if (store === 'postgres') {
    const { db: admin } = createDb({ databaseUrl: pgUrl, poolSize: 1 });
    await sql`create schema ${sql.id(schema!)}`.execute(admin);
    await admin.destroy();
    serverDbUrl = `${pgUrl}${pgUrl!.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  }

  // Provision: one plant per gateway, gateways with known secrets (+ a probe gateway).
  const made = createDb({ databaseUrl: store === 'postgres' ? pgUrl : null, pgSchema: schema, sqliteFile, poolSize: 2 });
  await migrate(made.db);
  const t = Date.now();
  const creds: { sn: string; secret: string }[] = [];
  const probe = { sn: 'BENCHPROBE', secret: randomBytes(18).toString('base64url') };
  for (let i = 0; i <= 2 * GATEWAYS; i++) {
    const p = await made.db
      .insertInto('plants')
      .values(unownedPlant(`Bench plant ${i}`, { timezone: 'Europe/Madrid', latitude: 40.42, longitude: -3.7 }, t))
      .returning('id')
      .executeTakeFirstOrThrow();
    const c =
      i === 2 * GATEWAYS
        ? probe
        : {
            sn: `BENCH${i < GATEWAYS ? 'A' : 'B'}${String((i % GATEWAYS) + 1).padStart(6, '0')}`,
            secret: randomBytes(18).toString('base64url'),
          };
    await provisionGateway(made.db, { ...c, plantId: p.id });
    if (i < 2 * GATEWAYS) creds.push(c);
  }
  await made.db.destroy();

  // Server.
  const mqttPort = await freePort();
  const httpPort = await freePort();
  const server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(httpPort),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: serverDbUrl,
      DEMO: 'off',
      SIMULATOR: 'off',
      MQTT_PORT: String(mqttPort),
      MQTT_HOST: '127.0.0.1',
      MQTT_URL: '',
      MQTT_TLS_PORT: '0',
      MQTT_RATE_LIMIT: 'off',
      // api for /metrics (its ingest counters: refusals by reason, duplicates, acknowledgements).
      ROLES: 'api,ingest,jobs',
      LOG_LEVEL: 'warn',
      WEB_DIST: '',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `mqtt://127.0.0.1:${mqttPort}`;
  for (let i = 0; ; i++) {
    const up = await new Promise<boolean>((resolve) => {
      const s = net.connect(mqttPort, '127.0.0.1', () => {
        s.destroy();
        resolve(true);
      });
      s.on('error', () => resolve(false));
    });
    if (up) break;
    if (i > 240 || server.exitCode !== null) throw new Error('server did not start');
    await sleep(250);
  }

  // Reader.
  const reader =
    store === 'sqlite'
      ? (() => {
          const d = new SQLite(sqliteFile, { readonly: true });
          return {
            all: async (q: string, params: unknown[] = []) => d.prepare(q.replace(/\$\d+/g, '?')).all(...params) as Row[],
            close: async () => d.close(),
          };
        })()
      : (() => {
          const pool = new pg.Pool({ connectionString: pgUrl!, max: 1, options: `-c search_path=${schema}` });
          return {
            all: async (q: string, params: unknown[] = []) => (await pool.query(q, params)).rows,
            close: () => pool.end(),
          };
        })();
  const countAll = async () => {
    const rows = await reader.all(TABLES.map((t) => `select count(*) as n from ${t}`).join(' union all '));
    return rows.reduce((a, r) => a + Number(r.n), 0);
  };

  // Probe: a frame every 50 ms with ts = wall clock; polled every 25 ms.
  const probeDeviceSn = loadDevices(probe.sn, 1)[0]!.sn;
  const probeMsg = probeMessage(probe.sn);
  const probeClient = connect(url, { clientId: probe.sn, username: probe.sn, password: probe.secret, reconnectPeriod: 1000 });
  await new Promise<void>((resolve, reject) => {
    probeClient.once('connect', () => resolve());
    setTimeout(() => reject(new Error('probe did not connect')), 10_000);
  });
  let probeSeq = 0;
  let lastProbeTs = 0;
  const probeTimer = setInterval(() => {
    const ts = Math.max(Date.now(), lastProbeTs + 1);
    lastProbeTs = ts;
    probeClient.publish(topics.up(probe.sn, 'data'), probeMsg(probeSeq++, ts), { qos: 1 });
  }, 50);
  const lags: { ts: number; lag: number }[] = [];
  let probeDeviceId: number | null = null;
  let probeSeen = 0;
  let probeRows = 0;
  let polling = true;
  const probePoll = (async () => {
    while (polling) {
      if (probeDeviceId === null) {
        const r = await reader.all('select id from devices where sn = $1', [probeDeviceSn]);
        if (r[0]) probeDeviceId = Number(r[0].id);
      } else {
        const r = await reader.all('select ts from inverter_samples where device_id = $1 and ts > $2 order by ts', [
          probeDeviceId,
          probeSeen,
        ]);
        const now = Date.now();
        for (const { ts } of r) {
          lags.push({ ts: Number(ts), lag: now - Number(ts) });
          probeSeen = Math.max(probeSeen, Number(ts));
        }
        probeRows += r.length;
      }
      await sleep(25);
    }
  })();
  await sleep(1000); // probe device discovered, steady before the load

  // Samples of committed load frames and server CPU/RSS every 500 ms, for the whole run.
  const baseRows = await countAll();
  const series: { t: number; wall: number; n: number; proc: ReturnType<typeof procSample> }[] = [];
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const n = (await countAll()) - probeRows - baseRows;
      series.push({ t: performance.now(), wall: Date.now(), n, proc: procSample(server.pid!) });
      await sleep(500);
    }
  })();
  while (series.length === 0) await sleep(50);

  /** One load phase on its own gateways (so timestamps never collide), then drain. */
  const phase = async (prefix: string, rate: number | null) => {
    const gws = creds.filter((c) => c.sn.startsWith(prefix));
    const credFile = path.join(dataDir, `credentials-${prefix}.json`);
    fs.writeFileSync(credFile, JSON.stringify(gws));
    const before = series.at(-1)!.n;
    const phaseStart = performance.now();
    const report = await runLoad({ url, credentials: credFile, devicesPerGateway: DEVICES, seconds: SECONDS, rate });
    // Drain: until the committed count is still for 2 s (at most 120 s).
    const loadEnded = performance.now();
    for (let last = -1, stillSince = performance.now(); performance.now() - loadEnded < 120_000; await sleep(250)) {
      const n = series.at(-1)!.n;
      if (n !== last) {
        last = n;
        stillSince = performance.now();
      } else if (performance.now() - stillSince > 2000) break;
    }
    const counters = await ingestCounters(httpPort);
    // This phase's commits: samples taken since it started (the count read while idle can wobble by a few rows).
    const mine = series.filter((s) => s.t >= phaseStart && s.n > before);
    if (!mine.length) throw new Error('nothing committed');
    const first = mine[0]!;
    const lastGrow = mine.find((s) => s.n === mine.at(-1)!.n)!;
    // The window: from the first committed frame (seen within one poll), for the simulator's measured duration.
    const windowStart = first.t - 500;
    const windowEnd = windowStart + report.durationS * 1000;
    const at = (time: number) => series.reduce((best, s) => (Math.abs(s.t - time) < Math.abs(best.t - time) ? s : best));
    const w0 = at(windowStart + 1000); // after a 1 s warm-up
    const w1 = at(windowEnd);
    const rate0 = (a: (typeof series)[number], b: (typeof series)[number]) => Math.round((b.n - a.n) / ((b.t - a.t) / 1000));
    const cpu = (a: (typeof series)[number], b: (typeof series)[number]) =>
      a.proc && b.proc ? Math.round(((b.proc.ticks - a.proc.ticks) / CLK_TCK / ((b.proc.t - a.proc.t) / 1000)) * 100) : null;
    const committed = lastGrow.n - before;
    const windowWall0 = first.wall - 500;
    const inWindow = lags.filter((l) => l.ts >= windowWall0 && l.ts <= windowWall0 + report.durationS * 1000).map((l) => l.lag);
    const framesPerSecond = rate0(w0, w1);
    // Lag of the load's own frames, from cumulative curves (FIFO): the n-th committed frame was
    // acked when the acked count reached n, acks taken as linear over the window (they are: the
    // offered rate is steady). Weighted by frames committed between polls.
    const ackedPerMs = (report.acked * DEVICES) / (report.durationS * 1000);
    const curve: { lag: number; w: number }[] = [];
    for (let i = 1; i < mine.length; i++) {
      const n = mine[i]!.n - before;
      const w = mine[i]!.n - mine[i - 1]!.n;
      if (w > 0)
        curve.push({ lag: Math.max(0, mine[i]!.t - (windowStart + Math.min(n, report.acked * DEVICES) / ackedPerMs)), w });
    }
    curve.sort((a, b) => a.lag - b.lag);
    const totalW = curve.reduce((a, c) => a + c.w, 0);
    const wpct = (p: number) => {
      let acc = 0;
      for (const c of curve) {
        acc += c.w;
        if (acc >= p * totalW) return Math.round(c.lag);
      }
      return curve.length ? Math.round(curve.at(-1)!.lag) : null;
    };
    return {
      offeredRateMessagesPerSecond: rate ?? 'max (QoS 1 window 64 per client)',
      gateways: gws.length,
      durationS: report.durationS,
      framesPerSecond,
      messagesPerSecond: Math.round(framesPerSecond / DEVICES),
      // First to last commit of the phase, backlog included: what the store absorbed on average.
      overallFramesPerSecond: Math.round(committed / ((lastGrow.t - windowStart) / 1000)),
      publishedAckedMessagesPerSecond: report.messagesPerS,
      publishedAckedFramesPerSecond: report.deviceFramesPerS,
      // A QoS 1 message is acknowledged only once committed: its ack latency is publish → committed.
      p99LagMs: report.ackLatencyMs.p99,
      p50LagMs: report.ackLatencyMs.p50,
      curveLagMs: { p50: wpct(0.5), p99: wpct(0.99) },
      probeLagMs: { p50: pct(inWindow, 0.5), p99: pct(inWindow, 0.99), max: pct(inWindow, 1), samples: inWindow.length },
      ackedFrames: report.acked * DEVICES,
      sentFrames: report.sent * DEVICES,
      committedFrames: committed,
      drainS: Number((Math.max(0, lastGrow.t - windowEnd) / 1000).toFixed(2)),
      // The server's ingest counters after this phase (cumulative over the run).
      serverCounters: counters,
      ackLatencyMs: report.ackLatencyMs,
      messageBytes: report.messageBytes,
      cpuPercent: cpu(w0, w1),
      cpuPercentOverall: cpu(at(windowStart), lastGrow),
      rssMB: Math.round(
        Math.max(...series.filter((s) => s.t >= windowStart && s.t <= lastGrow.t + 500).map((s) => s.proc?.rssMB ?? 0)),
      ),
    };
  };
  const max = process.env.BENCH_INGEST_MAX_PHASE === 'off' ? null : await phase('BENCHA', null);
  // The store settles after the max phase (SQLite WAL checkpoint, PostgreSQL checkpoint and autovacuum
  // of the rows just written) before the budget phase: right after it, the budget phase measured
  // that catch-up instead (10-20k frames/s from one run to the next).
  if (max && SETTLE_S > 0) await sleep(SETTLE_S * 1000);
  const budgetRun = process.env.BENCH_INGEST_BUDGET_PHASE === 'off' ? null : await phase('BENCHB', BUDGET_FPS / DEVICES);
  sampling = false;
  await sampler;
  if (process.env.BENCH_INGEST_TRACE) {
    // Committed frames/s and server CPU % per sample: where the time goes.
    for (let i = 1; i < series.length; i++) {
      const a = series[i - 1]!;
      const b = series[i]!;
      const dt = (b.t - a.t) / 1000;
      const cpu =
        a.proc && b.proc ? Math.round(((b.proc.ticks - a.proc.ticks) / CLK_TCK / ((b.proc.t - a.proc.t) / 1000)) * 100) : null;
      console.error(
        `trace t=${((b.t - series[0]!.t) / 1000).toFixed(1)}s committed/s=${Math.round((b.n - a.n) / dt)} cpu%=${cpu} rssMB=${Math.round(b.proc?.rssMB ?? 0)}`,
      );
    }
  }
  clearInterval(probeTimer);
  await sleep(300);
  polling = false;
  await probePoll;
  const idle = lags.filter((l) => l.ts < series[0]!.wall).map((l) => l.lag);

  // Loss per phase: acked within the window vs committed after drain, plus gaps in each device's
  // timestamps (the load's readings are 1 s apart from one base per run).
  const perDevice: { sn: string; a: number; b: number; n: number }[] = [];
  for (const table of TABLES) {
    const rows = await reader.all(
      `select g.sn as sn, count(*) as n, min(s.ts) as a, max(s.ts) as b from ${table} s join devices d on d.id = s.device_id join gateways g on g.id = d.gateway_id where s.device_id <> $1 group by s.device_id, g.sn`,
      [probeDeviceId ?? -1],
    );
    for (const r of rows) perDevice.push({ sn: String(r.sn), a: Number(r.a), b: Number(r.b), n: Number(r.n) });
  }
  const loss = (prefix: string, p: { ackedFrames: number; committedFrames: number }) => {
    const ds = perDevice.filter((d) => d.sn.startsWith(prefix));
    const minTs = Math.min(...ds.map((d) => d.a));
    const gapFrames = ds.reduce((g, d) => g + Math.round((d.b - minTs) / 1000) + 1 - d.n, 0);
    return { gapFrames, lostFrames: Math.max(0, p.ackedFrames - p.committedFrames) + gapFrames };
  };
  const budgetPhase = budgetRun ? { ...budgetRun, ...loss('BENCHB', budgetRun) } : null;
  // With BENCH_INGEST_MAX_PHASE=off (a quick look at the budget rate), the budget phase stands in.
  const maxPhase = max ? { ...max, ...loss('BENCHA', max) } : budgetPhase!;

  const result = {
    date: new Date().toISOString(),
    store,
    machine: `${os.cpus().length} cores (shared), load avg ${os.loadavg()[0]!.toFixed(2)} at end`,
    node: process.version,
    gateways: GATEWAYS,
    devicesPerGateway: DEVICES,
    note: 'Top-level figures: the max-offered-load phase (simulator publishing as fast as QoS 1 acks allow). atBudget: fresh gateways capped at 20,000 frames/s offered.',
    durationS: maxPhase.durationS,
    framesPerSecond: maxPhase.framesPerSecond,
    messagesPerSecond: maxPhase.messagesPerSecond,
    overallFramesPerSecond: maxPhase.overallFramesPerSecond,
    relayMessagesPerSecond: relay?.relayedPerS ?? null,
    relayFramesPerSecond: relay ? relay.relayedPerS * DEVICES : null,
    ratioUnit:
      'messages: committed ingest messages/s ÷ bare-broker relayed messages/s (same devices per message, so the same in frames)',
    ratio: relay ? Number((maxPhase.messagesPerSecond / relay.relayedPerS).toFixed(3)) : null,
    p99LagMs: maxPhase.p99LagMs,
    lagMethod:
      'p99LagMs: publish → committed of the load frames, as the publishers measure it (a message is acknowledged only once committed, so its PUBACK latency is that lag). curveLagMs: the same from cumulative curves of committed rows (polled every 500 ms, frame-weighted). probeLagMs: a separate probe gateway (1 device, 1 frame/50 ms, ts = wall clock, QoS 1, one in flight) polled every 25 ms: publish → committed of a light client, which the server serves ahead of the heavy ones',
    idleProbeP50LagMs: pct(idle, 0.5),
    lostFrames: maxPhase.lostFrames + (budgetPhase?.lostFrames ?? 0),
    cpuPercent: maxPhase.cpuPercent,
    rssMB: Math.max(maxPhase.rssMB, budgetPhase?.rssMB ?? 0),
    maxLoad: maxPhase,
    atBudget: budgetPhase,
    probe: { sent: probeSeq, committed: probeRows },
    budget: {
      framesPerSecond: BUDGET_FPS,
      metAtMaxLoad: maxPhase.framesPerSecond >= BUDGET_FPS && maxPhase.lostFrames === 0,
      metAtBudgetRate: budgetPhase ? budgetPhase.framesPerSecond >= BUDGET_FPS * 0.98 && budgetPhase.lostFrames === 0 : null,
    },
  };

  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  probeClient.end(true);
  await reader.close();
  if (store === 'postgres') {
    const { db: admin } = createDb({ databaseUrl: pgUrl, poolSize: 1 });
    await sql`drop schema ${sql.id(schema!)} cascade`.execute(admin);
    await admin.destroy();
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
  return result;
}

// The bare relay is a reference figure only. Overloaded, Aedes' message queue (mqemitter) can
// recurse once per queued message and overflow the stack (mcollina/mqemitter#204): then it is
// tried once more, and if that fails too the ingest phases run without the comparison.
async function relayReference() {
  for (let attempt = 1; attempt <= 2; attempt++) {
    try {
      return await relayBench();
    } catch (e) {
      console.log(`relay (bare aedes), attempt ${attempt}: failed: ${String(e).split('\n')[0]?.slice(0, 200)}`);
    }
  }
  return null;
}

const relay = process.env.BENCH_INGEST_RELAY === 'off' ? null : await relayReference();
if (relay) console.log(`relay (bare aedes): ${relay.relayedPerS} msg/s = ${relay.relayedPerS * DEVICES} device frames/s`);
const out = path.join(root, 'bench/results');
fs.mkdirSync(out, { recursive: true });
const lines = [
  '',
  `## End-to-end ingest (${GATEWAYS} gateways × ${DEVICES} devices, QoS 1, ${SECONDS} s, simulator load → server)`,
  '',
  '| store | frames/s in window | msg/s | relay msg/s | ratio (msg) | p99 lag ms | lost | server CPU % | RSS MB | ≥20k frames/s, 0 lost |',
  '|---|---|---|---|---|---|---|---|---|---|',
];
for (const store of stores as ('sqlite' | 'postgres')[]) {
  const r = await ingestBench(store, relay);
  fs.writeFileSync(path.join(out, `ingest-${store}.json`), `${JSON.stringify(r, null, 2)}\n`);
  console.log(`ingest ${store}:`, JSON.stringify(r));
  lines.push(
    `| ${store} | ${r.framesPerSecond} (overall ${r.overallFramesPerSecond}) | ${r.messagesPerSecond} | ${r.relayMessagesPerSecond ?? '–'} | ${r.ratio ?? '–'} | ${r.p99LagMs} | ${r.lostFrames} | ${r.cpuPercent} | ${r.rssMB} | ${r.budget.metAtMaxLoad ? 'yes' : 'no'} |`,
  );
}
lines.push('', 'Max offered load; atBudget phase (20,000 frames/s offered) and method in bench/results/ingest-<store>.json.');
fs.appendFileSync(path.join(out, 'latest.md'), `${lines.join('\n')}\n`);
process.exit(0);
