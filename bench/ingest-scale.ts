/**
 * Ingest over several processes behind Mosquitto (`npm run bench -- ingest-scale`): 1, 2, then 4
 * server processes (the production bundle, as `npm start` runs it) with the ingest role, sharing
 * one MQTT 5 subscription on a private Mosquitto configured by `mosquitto.ts`, over one PostgreSQL
 * schema (BENCH_DATABASE_URL, required). Writes bench/results/ingest-scale.json and .md.
 *
 * For each process count, two load phases of simulated gateways (the simulator's load mode, QoS 1,
 * fresh gateways per phase so timestamps never collide): a fixed offered rate, then as fast as
 * the broker's acknowledgements allow. Then the kill phase: 2 processes under a steady load, one
 * killed with SIGKILL and started again under its client id (as a supervisor does), and every frame
 * the broker acknowledged to a gateway checked in the store, once. Last, bytes per stored row of
 * each table (pg_total_relation_size after a known number of rows) and Mosquitto's memory per
 * gateway connection.
 *
 * Env: BENCH_DATABASE_URL (required), BENCH_SCALE_SECONDS (10), BENCH_SCALE_GATEWAYS (100 per phase),
 * BENCH_SCALE_DEVICES (4 per gateway), BENCH_SCALE_RATE (8000 device frames/s offered in the fixed
 * phase), BENCH_SCALE_PROCESSES (1,2,4), BENCH_SCALE_KILL (on).
 *
 * How it measures:
 * - framesPerSecond: rows of the four samples tables, counted every 500 ms: rows committed from 1 s
 *   after the phase's first commit to the end of the simulator's measured duration, ÷ that time;
 *   overallFramesPerSecond also counts the drain after the load stopped.
 * - lag (publish → committed row): a probe gateway outside the load publishes a one-device frame
 *   every 50 ms with ts = wall clock; its frames go round-robin to the ingest processes behind the
 *   load's, and this process polls for them every 25 ms (up to ~25 ms of polling granularity).
 *   Mosquitto acknowledges a publish when it has it, not when it is stored, so the simulator's
 *   PUBACK latency (brokerAckMs) is not the lag here.
 * - per process: frames stored (each process's /metrics: the api role runs beside ingest only to
 *   serve it, idle otherwise) and CPU % (/proc) over the phase.
 * - lost: frames acknowledged by the broker and not stored after the drain (the kill phase counts
 *   them frame by frame, by the sequence number in each frame's timestamp).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { topics } from '@sunfleet/contracts';
import { sql } from 'kysely';
import mqtt, { type MqttClient } from 'mqtt';
import pg from 'pg';
import { ensureAdmin } from '../apps/server/src/bootstrap/admin.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { createDb, migrate } from '../apps/server/src/db/index.ts';
import { provisionGateway } from '../apps/server/src/telemetry/gateways.ts';
import { type Mosquitto, startMosquitto } from '../apps/server/test/mqtt.ts';
import { unownedPlant } from '../apps/server/test/telemetry.ts';
import { loadDevices } from '../apps/simulator/src/load-generator.ts';
import { freePort, ingestCounters, pct, probeMessage, procSample, runLoad } from './ingest-probes.ts';
import { tableSizes, writeScaleReport } from './ingest-scale-report.ts';

const root = path.resolve(import.meta.dirname, '..');
const pgUrl = process.env.BENCH_DATABASE_URL || null;
if (!pgUrl) {
  console.error('ingest-scale needs PostgreSQL: BENCH_DATABASE_URL=postgres://… (several processes share one store)');
  process.exit(2);
}
const SECONDS = Number(process.env.BENCH_SCALE_SECONDS ?? 10);
const GATEWAYS = Number(process.env.BENCH_SCALE_GATEWAYS ?? 100);
const DEVICES = Number(process.env.BENCH_SCALE_DEVICES ?? 4);
const RATE_FRAMES = Number(process.env.BENCH_SCALE_RATE ?? 8000);
const PROCESSES = (process.env.BENCH_SCALE_PROCESSES ?? '1,2,4').split(',').map(Number);
const KILL = process.env.BENCH_SCALE_KILL !== 'off';
const TABLES = ['inverter_samples', 'battery_samples', 'meter_samples', 'weather_samples'];
const CLK_TCK = 100;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ingestUser = { username: 'sunfleet.ingest', password: randomBytes(18).toString('base64url') };

// Store: a fresh schema, migrated, the first administrator made (as after a first start).
const schema = `bench_scale_${randomBytes(4).toString('hex')}`;
{
  const { db: admin } = createDb({ databaseUrl: pgUrl, poolSize: 1 });
  await sql`create schema ${sql.id(schema)}`.execute(admin);
  await admin.destroy();
}
const serverDbUrl = `${pgUrl}${pgUrl.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
const store = createDb({ databaseUrl: pgUrl, pgSchema: schema, poolSize: 2 });
const db = store.db;
await migrate(db);
await ensureAdmin(db, loadConfig({ PASSWORD_COST: 'test' }));
const pool = new pg.Pool({ connectionString: pgUrl, max: 2, options: `-c search_path=${schema}` });
const query = async (q: string, params: unknown[] = []) => (await pool.query(q, params)).rows;

// Gateways: one plant each; a set per phase, and the probe.
type Cred = { sn: string; secret: string };
const phaseNames = [...PROCESSES.flatMap((p) => [`F${p}`, `M${p}`]), ...(KILL ? ['K2'] : [])];
const creds = new Map<string, Cred[]>();
const t0 = Date.now();
for (const name of phaseNames) {
  const list: Cred[] = [];
  for (let i = 1; i <= GATEWAYS; i++) {
    const p = await db
      .insertInto('plants')
      .values(unownedPlant(`Scale ${name} ${i}`, { timezone: 'Europe/Madrid', latitude: 40.42, longitude: -3.7 }, t0))
      .returning('id')
      .executeTakeFirstOrThrow();
    const c = { sn: `SCALE${name}${String(i).padStart(5, '0')}`, secret: randomBytes(18).toString('base64url') };
    await provisionGateway(db, { ...c, plantId: p.id });
    list.push(c);
  }
  creds.set(name, list);
}
const probe: Cred = { sn: 'SCALEPROBE', secret: randomBytes(18).toString('base64url') };
await provisionGateway(db, probe);
console.log(`provisioned ${phaseNames.length} × ${GATEWAYS} gateways in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

const mosquitto: Mosquitto = await startMosquitto({
  users: [...[...creds.values()].flat(), probe].map((c) => ({ username: c.sn, password: c.secret })),
  serverUsers: [ingestUser],
});
const brokerUrl = `mqtt://127.0.0.1:${mosquitto.gatewayPort}`;
const mosquittoIdle = procSample(mosquitto.pid);

// The production bundle, as `npm start` runs it.
if (spawnSync(process.execPath, ['apps/server/build.mjs'], { cwd: root, stdio: 'inherit' }).status !== 0) process.exit(1);

interface Ingest {
  slot: number;
  child: ChildProcess;
  httpPort: number;
  dataDir: string;
  startedMs: number;
}
async function startIngest(slot: number): Promise<Ingest> {
  const httpPort = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sunfleet-scale-'));
  const t = performance.now();
  const child = spawn(process.execPath, ['apps/server/dist/main.js'], {
    cwd: root,
    env: {
      ...process.env,
      // ingest does the work; api only answers /healthz and /metrics to this bench.
      ROLES: 'ingest,api',
      PORT: String(httpPort),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: serverDbUrl,
      MQTT_URL: mosquitto.serverUrl(ingestUser),
      // One stable id per slot: a restarted process takes over its session and what waits there.
      MQTT_CLIENT_ID: `sunfleet.ingest.${slot}`,
      MQTT_RATE_LIMIT: 'off',
      RATE_LIMITS: 'off',
      DEMO: 'off',
      SIMULATOR: 'off',
      LOG_LEVEL: 'warn',
      WEB_DIST: '',
      JWT_SECRET: 'ingest-scale-bench-secret-0123456789abcdef',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; ; i++) {
    const ok = await fetch(`http://127.0.0.1:${httpPort}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (i > 600 || child.exitCode !== null) throw new Error(`ingest process ${slot} did not start`);
    await sleep(100);
  }
  return { slot, child, httpPort, dataDir, startedMs: Math.round(performance.now() - t) };
}
const exited = (c: ChildProcess) =>
  c.exitCode !== null || c.signalCode !== null ? Promise.resolve() : new Promise<void>((r) => c.once('exit', () => r()));
async function stopIngest(p: Ingest) {
  p.child.kill('SIGTERM');
  await exited(p.child);
  fs.rmSync(p.dataDir, { recursive: true, force: true });
}

// Committed rows of the load, sampled every 500 ms for the whole run (the probe's device left out).
const probeDeviceSn = loadDevices(probe.sn, 1)[0]!.sn;
let probeDeviceId = -1;
const countAll = async () =>
  (
    await query(TABLES.map((t) => `select count(*)::int as n from ${t} where device_id <> $1`).join(' union all '), [
      probeDeviceId,
    ])
  ).reduce((a, r) => a + r.n, 0);
const series: { t: number; wall: number; n: number }[] = [];
let sampling = false;
let sampler: Promise<void> = Promise.resolve();
const startSampler = () => {
  sampling = true;
  sampler = (async () => {
    while (sampling) {
      series.push({ t: performance.now(), wall: Date.now(), n: await countAll() });
      await sleep(500);
    }
  })();
};

// Probe: one frame every 50 ms, ts = wall clock, polled every 25 ms.
const probeMsg = probeMessage(probe.sn);
const probeClient = mqtt.connect(brokerUrl, { clientId: probe.sn, username: probe.sn, password: probe.secret, clean: false });
probeClient.on('error', () => {});
let probeSeq = 0;
let lastProbeTs = 0;
/** Probe frames published and not yet seen stored (by ts): several processes commit out of order. */
const unseen = new Set<number>();
const probeTimer = setInterval(() => {
  if (!probeClient.connected) return;
  const ts = Math.max(Date.now(), lastProbeTs + 1);
  lastProbeTs = ts;
  unseen.add(ts);
  probeClient.publish(topics.up(probe.sn, 'data'), probeMsg(probeSeq++, ts), { qos: 1 });
}, 50);
const lags: { ts: number; lag: number }[] = [];
let polling = true;
const probePoll = (async () => {
  while (polling) {
    if (probeDeviceId < 0) {
      const r = await query('select id from devices where sn = $1', [probeDeviceSn]);
      if (r[0]) probeDeviceId = Number(r[0].id);
    } else if (unseen.size) {
      const oldest = Math.min(...unseen);
      const r = await query('select ts from inverter_samples where device_id = $1 and ts >= $2', [probeDeviceId, oldest]);
      const now = Date.now();
      for (const { ts } of r) {
        if (!unseen.delete(Number(ts))) continue;
        lags.push({ ts: Number(ts), lag: now - Number(ts) });
      }
    }
    await sleep(25);
  }
})();
const lagsBetween = (from: number, to: number) => lags.filter((l) => l.ts >= from && l.ts <= to).map((l) => l.lag);

const cpuPercent = (a: ReturnType<typeof procSample>, b: ReturnType<typeof procSample>) =>
  a && b ? Math.round(((b.ticks - a.ticks) / CLK_TCK / ((b.t - a.t) / 1000)) * 100) : null;
const storedBy = async (procs: Ingest[]) =>
  Promise.all(procs.map(async (p) => (await ingestCounters(p.httpPort)).frames_stored_total ?? 0));

/**
 * Until `target` load rows are committed (every frame the broker acknowledged), or the count has
 * not moved for 10 s (a busy machine can stall a process for seconds), at most 180 s.
 */
async function drain(target: number) {
  const t = performance.now();
  for (let last = -1, still = performance.now(); performance.now() - t < 180_000; await sleep(250)) {
    const n = series.at(-1)!.n;
    if (n >= target) {
      await sleep(1000); // what was published after the measured window
      return;
    }
    if (n !== last) {
      last = n;
      still = performance.now();
    } else if (performance.now() - still > 10_000) return;
  }
}

/** One load phase on its own gateways, then the drain. */
async function phase(name: string, procs: Ingest[], rateFrames: number | null) {
  const gws = creds.get(name)!;
  const credFile = path.join(os.tmpdir(), `sunfleet-scale-${process.pid}-${name}.json`);
  fs.writeFileSync(credFile, JSON.stringify(gws));
  const before = series.at(-1)!.n;
  const storedBefore = await storedBy(procs);
  const cpu0 = procs.map((p) => procSample(p.child.pid!));
  const mq0 = procSample(mosquitto.pid);
  let mosquittoRssMB = 0;
  const rssTimer = setInterval(() => {
    mosquittoRssMB = Math.max(mosquittoRssMB, procSample(mosquitto.pid)?.rssMB ?? 0);
  }, 500);
  const start = performance.now();
  const report = await runLoad({
    url: brokerUrl,
    credentials: credFile,
    devicesPerGateway: DEVICES,
    seconds: SECONDS,
    mqttVersion: 5,
    rate: rateFrames ? rateFrames / DEVICES : null,
  });
  const cpu1 = procs.map((p) => procSample(p.child.pid!));
  const mq1 = procSample(mosquitto.pid);
  await drain(before + report.acked * DEVICES);
  clearInterval(rssTimer);
  fs.rmSync(credFile, { force: true });
  const storedAfter = await storedBy(procs);
  const mine = series.filter((s) => s.t >= start && s.n > before);
  if (!mine.length) throw new Error(`${name}: nothing committed`);
  const first = mine[0]!;
  const last = mine.find((s) => s.n === mine.at(-1)!.n)!;
  const windowStart = first.t - 500;
  const windowEnd = windowStart + report.durationS * 1000;
  const at = (time: number) => series.reduce((best, s) => (Math.abs(s.t - time) < Math.abs(best.t - time) ? s : best));
  const w0 = at(windowStart + 1000);
  const w1 = at(windowEnd);
  const committed = last.n - before;
  const lagWall0 = first.wall - 500;
  const inWindow = lagsBetween(lagWall0, lagWall0 + report.durationS * 1000);
  const all = lagsBetween(lagWall0, last.wall);
  const storedPer = storedAfter.map((n, i) => n - storedBefore[i]!);
  const storedSum = storedPer.reduce((a, b) => a + b, 0);
  const ackedFrames = report.acked * DEVICES;
  return {
    processes: procs.length,
    offered: rateFrames ? `${rateFrames} frames/s` : 'max (QoS 1 window 64 per gateway)',
    gateways: gws.length,
    durationS: report.durationS,
    framesPerSecond: Math.round((w1.n - w0.n) / ((w1.t - w0.t) / 1000)),
    overallFramesPerSecond: Math.round(committed / ((last.t - windowStart) / 1000)),
    brokerAckedFramesPerSecond: report.deviceFramesPerS,
    lagMs: { p50: pct(inWindow, 0.5), p99: pct(inWindow, 0.99), max: pct(all, 1), samples: inWindow.length },
    brokerAckMs: report.ackLatencyMs,
    drainS: Number((Math.max(0, last.t - windowEnd) / 1000).toFixed(2)),
    ackedFrames,
    committedFrames: committed,
    lostFrames: Math.max(0, ackedFrames - committed),
    perProcess: procs.map((p, i) => ({
      slot: p.slot,
      framesStored: storedPer[i],
      share: storedSum ? Number((storedPer[i]! / storedSum).toFixed(3)) : null,
      cpuPercent: cpuPercent(cpu0[i]!, cpu1[i]!),
    })),
    mosquittoCpuPercent: cpuPercent(mq0, mq1),
    mosquittoRssMB: Math.round(mosquittoRssMB),
    messageBytes: report.messageBytes,
  };
}

/**
 * The kill phase: gateways of this process publish one-device frames at a steady rate (message n
 * of a gateway has ts = base + n s), 2 ingest processes share them; slot 2 is killed with SIGKILL
 * a third into the load and started again at once under its client id. Then every frame the
 * broker acknowledged (PUBACK to the gateway) is looked for in the store, and counted.
 */
async function killPhase(procs: Ingest[]) {
  const gws = creds.get('K2')!;
  const perGatewayRate = Math.max(1, Math.round(RATE_FRAMES / 4 / gws.length));
  const messages = perGatewayRate * SECONDS;
  const base = Date.now() - 3_600_000;
  const before = series.at(-1)!.n;
  const pubs = await Promise.all(
    gws.map(
      (g) =>
        new Promise<{
          sn: string;
          client: MqttClient;
          msg: (seq: number, ts: number) => Buffer;
          acked: Set<number>;
          sent: number;
        }>((resolve) => {
          const client = mqtt.connect(brokerUrl, { clientId: g.sn, username: g.sn, password: g.secret, clean: false });
          client.on('error', () => {});
          client.once('connect', () => resolve({ sn: g.sn, client, msg: probeMessage(g.sn), acked: new Set(), sent: 0 }));
        }),
    ),
  );
  const started = Date.now();
  const pacer = setInterval(() => {
    const due = Math.min(messages, Math.floor(((Date.now() - started) / 1000) * perGatewayRate));
    for (const p of pubs) {
      while (p.sent < due) {
        const n = p.sent++;
        p.client.publish(topics.up(p.sn, 'data'), p.msg(n, base + n * 1000), { qos: 1 }, (err) => {
          if (!err) p.acked.add(n);
        });
      }
    }
  }, 10);
  await sleep((SECONDS * 1000) / 3);
  const victim = procs[1]!;
  const killedAt = Date.now();
  victim.child.kill('SIGKILL');
  await exited(victim.child);
  fs.rmSync(victim.dataDir, { recursive: true, force: true });
  // The supervisor starts it again under the same client id.
  const restarted = await startIngest(victim.slot);
  procs[1] = restarted;
  const restartMs = Date.now() - killedAt;
  while (pubs.some((p) => p.sent < messages || p.acked.size < p.sent) && Date.now() - started < SECONDS * 1000 + 60_000)
    await sleep(100);
  clearInterval(pacer);
  await drain(before + pubs.reduce((a, p) => a + p.acked.size, 0));
  const rows = await query(
    `select d.sn as sn, s.ts::bigint as ts, count(*)::int as n from inverter_samples s join devices d on d.id = s.device_id
     where d.sn = any($1) group by d.sn, s.ts`,
    [pubs.map((p) => loadDevices(p.sn, 1)[0]!.sn)],
  );
  const stored = new Map<string, Map<number, number>>();
  for (const r of rows) {
    const m = stored.get(r.sn) ?? new Map<number, number>();
    stored.set(r.sn, m);
    m.set(Number(r.ts), r.n);
  }
  let acked = 0;
  let lost = 0;
  let twice = 0;
  for (const p of pubs) {
    const m = stored.get(loadDevices(p.sn, 1)[0]!.sn) ?? new Map<number, number>();
    for (const n of p.acked) {
      acked++;
      const c = m.get(base + n * 1000) ?? 0;
      if (c === 0) lost++;
      if (c > 1) twice++;
    }
  }
  for (const p of pubs) p.client.end(true);
  const windowLags = lagsBetween(started, started + SECONDS * 1000);
  return {
    processes: 2,
    gateways: gws.length,
    offered: `${perGatewayRate * gws.length} frames/s (1 device per message)`,
    killedAfterS: Number(((killedAt - started) / 1000).toFixed(1)),
    restartMs,
    sentFrames: pubs.reduce((a, p) => a + p.sent, 0),
    ackedFrames: acked,
    storedFrames: rows.length,
    lostFrames: lost,
    storedTwice: twice,
    lagMs: { p50: pct(windowLags, 0.5), p99: pct(windowLags, 0.99), max: pct(windowLags, 1), samples: windowLags.length },
  };
}

/** Once ingest runs: the probe's device known (its rows left out of the count), then the count sampled. */
async function samplerReady() {
  if (sampling) return;
  for (let i = 0; probeDeviceId < 0; i++) {
    if (i > 600) throw new Error('the probe frames are not stored');
    await sleep(100);
  }
  startSampler();
  while (series.length === 0) await sleep(50);
}

const phases: Awaited<ReturnType<typeof phase>>[] = [];
const starts: { processes: number; startMs: number[] }[] = [];
let kill: Awaited<ReturnType<typeof killPhase>> | null = null;
for (const n of PROCESSES) {
  const procs: Ingest[] = [];
  for (let slot = 1; slot <= n; slot++) procs.push(await startIngest(slot));
  starts.push({ processes: n, startMs: procs.map((p) => p.startedMs) });
  await samplerReady();
  await sleep(1000);
  for (const [name, rate] of [
    [`F${n}`, RATE_FRAMES],
    [`M${n}`, null],
  ] as const) {
    const r = await phase(name, procs, rate);
    phases.push(r);
    console.log(`${n} process(es), ${r.offered}:`, JSON.stringify(r));
    await sleep(3000);
  }
  // With 2: the kill phase, before a larger group exists (a stopped member stays in the group).
  if (n === 2 && KILL) {
    kill = await killPhase(procs);
    console.log('kill -9 of one of 2:', JSON.stringify(kill));
  }
  for (const p of procs) await stopIngest(p);
}

clearInterval(probeTimer);
await sleep(300);
polling = false;
sampling = false;
await Promise.all([probePoll, sampler]);
probeClient.end(true);

// Bytes per row: every table ingest writes, after the known number of rows above.
const sizes = await tableSizes(query, [...TABLES, 'device_latest', 'device_day', 'plant_day', 'devices']);

await mosquitto.stop();
await pool.end();
await db.destroy();
{
  const { db: admin } = createDb({ databaseUrl: pgUrl, poolSize: 1 });
  await sql`drop schema ${sql.id(schema)} cascade`.execute(admin);
  await admin.destroy();
}

const idleRssMB = mosquittoIdle?.rssMB ?? 0;
writeScaleReport({ root, GATEWAYS, DEVICES, SECONDS, PROCESSES, TABLES, starts, phases, kill, sizes, idleRssMB });
process.exit(0);
