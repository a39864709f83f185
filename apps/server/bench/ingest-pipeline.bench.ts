/**
 * Ingest throughput (not a test): 1,000 gateways × 4 devices (hybrid inverter, battery, meter,
 * weather station) uploading as fast as ingest takes them, for ~15 s, with advancing timestamps
 * (one upload a minute of data time) and counters; then a final flush.
 *
 *   npx tsx apps/server/bench/ingest-pipeline.bench.ts      # file-backed SQLite (WAL) in a temp dir
 *   BENCH_DATABASE_URL=postgres://… npx tsx …/ingest-pipeline.bench.ts     # a fresh PostgreSQL schema, dropped after
 *
 * Settings as main.ts should run ingest: decoding in a worker thread, SQLite statements prepared
 * on the connection, WAL checkpoints in a worker. To compare, BENCH_WORKER=off,
 * BENCH_PREPARED=off, BENCH_CHECKPOINTER=off; also BENCH_SECONDS, BENCH_GATEWAYS, BENCH_MAX_BATCH.
 *
 * The feeder keeps at most eight batches of frames waiting (as an MQTT QoS 1 in-flight window
 * would), so the rate printed is what is committed with rollups, not what is queued. On a shared
 * machine, `deviceFramesPerMainThreadCpuSecond` is the steadier figure.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { registersToHex } from '@sunfleet/contracts';
import { type InputValue, protocolPlan } from '@sunfleet/protocols';
import { sql } from 'kysely';
import { createDb, migrate } from '../src/db/index.ts';
import { silentLogger } from '../src/log.ts';
import { secretHash } from '../src/telemetry/gateways.ts';
import { createIngest } from '../src/telemetry/ingest/pipeline.ts';
import { startWalCheckpointer } from '../src/telemetry/ingest/wal-checkpointer.ts';
import { createSchema, dropSchema } from '../test/store.ts';
import { unownedPlant } from '../test/telemetry.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const GATEWAYS = Number(process.env.BENCH_GATEWAYS ?? 1000);
const pgUrl = process.env.BENCH_DATABASE_URL || null;
const STEP_MS = 60_000;
const T0 = Date.now() - 3 * 24 * 3600_000;
const zones = ['UTC', 'Europe/Madrid', 'America/New_York', 'Asia/Kolkata', 'Australia/Sydney'];

/** A device's frame as JSON text, split where its counter registers go (re-encoded per upload). */
interface DeviceTemplate {
  parts: string[];
  counters: { stepWh: number; scale: number }[];
}

const u32hex = (v: number) => registersToHex([Math.floor(v / 0x10000), v & 0xffff]);

function template(
  sn: string,
  protocol: string,
  values: Record<string, InputValue>,
  counters: [string, number][],
): DeviceTemplate {
  const plan = protocolPlan(protocol)!;
  const blocks = plan
    .encode({ serialNumber: sn, ...values }, { groups: ['info', 'realtime'] })
    .map((b) => ({ fc: b.functionCode, addr: b.address, regs: registersToHex(b.registers) }));
  const order: { stepWh: number; scale: number; at: number }[] = [];
  counters.forEach(([key, stepWh], k) => {
    const field = plan.field(key)!;
    const b = blocks.find(
      (b) => b.fc === field.functionCode && b.addr <= field.address && field.address < b.addr + b.regs.length / 4,
    )!;
    const at = (field.address - b.addr) * 4;
    b.regs = `${b.regs.slice(0, at)}@${k}@${'-'.repeat(8 - 2 - String(k).length)}${b.regs.slice(at + 8)}`;
    order[k] = { stepWh, scale: field.scale ?? 1, at: 0 };
  });
  const json = `{"sn":"${sn}","protocol":"${protocol}","blocks":${JSON.stringify(blocks)}}`;
  const parts: string[] = [];
  const sequence: { stepWh: number; scale: number }[] = [];
  let rest = json;
  for (let m = /@(\d+)@-*/.exec(rest); m; m = /@(\d+)@-*/.exec(rest)) {
    parts.push(rest.slice(0, m.index));
    sequence.push(order[Number(m[1])]!);
    rest = rest.slice(m.index + m[0].length);
  }
  parts.push(rest);
  return { parts, counters: sequence };
}

function deviceJson(t: DeviceTemplate, round: number): string {
  let s = t.parts[0]!;
  for (let i = 0; i < t.counters.length; i++) {
    const c = t.counters[i]!;
    s += u32hex(Math.round((1_000_000 + round * c.stepWh) / 1000 / c.scale)) + t.parts[i + 1]!; // kWh in register units
  }
  return s;
}

/** CPU seconds of this process's main thread (Linux; null elsewhere): steadier than wall time on a shared machine. */
function mainThreadCpuSeconds(): number | null {
  try {
    const fields = fs.readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in clock ticks (100/s)
  } catch {
    return null;
  }
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sunfleet-ingest-bench-'));
  const schema = pgUrl ? await createSchema(pgUrl, 'bench') : undefined;
  // The store as main.ts makes it; ingest keeps its SQLite statements prepared on the connection
  // (BENCH_PREPARED=off: everything through Kysely).
  const file = path.join(dir, 'bench.db');
  const made = createDb({ databaseUrl: pgUrl, pgSchema: schema, sqliteFile: file, poolSize: 4 });
  const raw = process.env.BENCH_PREPARED === 'off' ? null : made.sqlite;
  const { db, dialect } = made;
  await migrate(db);
  // Checkpoints on the other core (BENCH_CHECKPOINTER=off: in the commits, SQLite's default).
  const checkpointer = dialect === 'sqlite' && process.env.BENCH_CHECKPOINTER !== 'off' ? startWalCheckpointer(file) : null;
  if (checkpointer) await sql`pragma wal_autocheckpoint = 0`.execute(db);

  // Plants and gateways.
  const t = Date.now();
  const gateways: { sn: string; devices: DeviceTemplate[] }[] = [];
  for (let i = 0; i < GATEWAYS; i += 500) {
    const n = Math.min(500, GATEWAYS - i);
    const plants = await db
      .insertInto('plants')
      .values(
        Array.from({ length: n }, (_, k) =>
          unownedPlant(`Bench plant ${i + k}`, { timezone: zones[(i + k) % zones.length]!, latitude: 40, longitude: -3 }, t),
        ),
      )
      .returning('id')
      .execute();
    const rows = plants.map((p, k) => ({
      sn: `BGW${String(i + k).padStart(6, '0')}`,
      secret_hash: secretHash('x'),
      claim_key_hash: secretHash('y'),
      alias: null,
      plant_id: p.id,
      company_id: null,
      upload_interval_s: 60,
      online: 1,
      created_at: t,
      updated_at: t,
    }));
    await db.insertInto('gateways').values(rows).execute();
    for (const r of rows) {
      const s = r.sn.slice(1);
      gateways.push({
        sn: r.sn,
        devices: [
          template(
            `I${s}`,
            'sunfleet-hybrid-3p',
            {
              deviceType: 93,
              ratedPower: 10_000,
              runningState: 2,
              pv1Power: 2000,
              pv2Power: 1500,
              activePower: 3400,
              gridActivePower: 500,
              loadPower: 2900,
              batterySoc: 60,
              batteryTemperature: 25,
              inverterTemperature: 40,
            },
            [
              ['pvEnergyTotal', 58],
              ['loadEnergyTotal', 48],
              ['gridImportEnergyTotal', 5],
              ['gridExportEnergyTotal', 8],
              ['batteryChargeEnergyTotal', 10],
              ['batteryDischargeEnergyTotal', 7],
            ],
          ),
          template(
            `B${s}`,
            'sunfleet-battery',
            {
              slavePackCount: 1,
              soc: 60,
              soh: 98,
              voltage: 51.2,
              current: 10,
              power: 512,
              'pack1.cellTemperatureMax': 30,
              'pack2.cellTemperatureMax': 31,
            },
            [],
          ),
          template(`M${s}`, 'sunfleet-meter-3p', { activePower: -500, voltageL1: 230, voltageL2: 231, voltageL3: 229 }, [
            ['importEnergy', 5],
            ['exportEnergy', 8],
          ]),
          template(
            `W${s}`,
            'sunfleet-weather',
            { irradiance: 600, ambientTemperature: 20, moduleTemperature: 35, windSpeed: 2 },
            [['dailyIrradiation', 10]],
          ),
        ],
      });
    }
  }
  const sample = `{"v":1,"seq":1,"ts":${T0},"devices":[${gateways[0]!.devices.map((d) => deviceJson(d, 0)).join(',')}]}`;
  console.log(`store: ${dialect}${pgUrl ? '' : ` (${dir})`}; ${GATEWAYS} gateways × 4 devices; message ≈ ${sample.length} bytes`);

  const maxBatch = Number(process.env.BENCH_MAX_BATCH ?? 2000);
  const ingest = createIngest({
    db,
    dialect,
    log: silentLogger,
    flushMs: 150,
    maxBatch,
    queueWarnAt: Number.POSITIVE_INFINITY,
    sqlite: raw,
    decodeInWorker: process.env.BENCH_WORKER !== 'off',
  });

  const window = 8 * maxBatch; // device frames waiting: eight batches
  const yieldNow = () => new Promise<void>((resolve) => setImmediate(resolve));
  const pause = () => new Promise<void>((resolve) => setTimeout(resolve, 2));

  const cpuBefore = process.cpuUsage();
  const mainCpuBefore = mainThreadCpuSeconds();
  const started = performance.now();
  const until = started + SECONDS * 1000;
  let round = 0;
  let sent = 0;
  outer: while (true) {
    const ts = T0 + round * STEP_MS;
    const prefix = `{"v":1,"seq":${round},"ts":${ts},"devices":[`;
    for (const gw of gateways) {
      // Full: wait for the writer (a timer, not setImmediate: spinning would steal its CPU).
      while (sent % 256 === 0 && ingest.stats().queueLength >= window) {
        await pause();
        if (performance.now() > until) break outer;
      }
      let body = prefix;
      for (let d = 0; d < gw.devices.length; d++) body += (d ? ',' : '') + deviceJson(gw.devices[d]!, round);
      ingest.message(gw.sn, 'data', Buffer.from(`${body}]}`), Date.now());
      sent += gw.devices.length;
      if (sent % 400 === 0) await yieldNow();
    }
    round++;
    if (performance.now() > until) break;
  }
  const fed = performance.now();
  await ingest.close();
  const elapsed = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  const mainCpuAfter = mainThreadCpuSeconds();
  const mainCpu = mainCpuBefore !== null && mainCpuAfter !== null ? mainCpuAfter - mainCpuBefore : null;
  const s = ingest.stats();

  const rows = await sql<{ n: number | string }>`select count(*) as n from inverter_samples`.execute(db);
  const days = await sql<{ n: number | string }>`select count(*) as n from device_day`.execute(db);
  console.log(
    JSON.stringify(
      {
        store: dialect,
        seconds: Number(elapsed.toFixed(2)),
        feedSeconds: Number(((fed - started) / 1000).toFixed(2)),
        deviceFramesSent: sent,
        deviceFramesCommitted: s.stored,
        deviceFramesPerSecond: Math.round(s.stored / elapsed),
        // CPU of the process (all threads) and of the main thread (feeder included), and the rate
        // one busy core would give the main thread: the figure to compare on a shared machine.
        cpuSeconds: Number(cpuSeconds.toFixed(2)),
        mainThreadCpuSeconds: mainCpu === null ? null : Number(mainCpu.toFixed(2)),
        deviceFramesPerMainThreadCpuSecond: mainCpu ? Math.round(s.stored / mainCpu) : null,
        rounds: round,
        batches: s.batches,
        averageBatchMs: Number(s.averageFlushMs.toFixed(2)),
        averageBatchFrames: Math.round(s.stored / Math.max(1, s.batches)),
        duplicates: s.duplicates,
        badFrames: s.badFramesTotal,
        inverterSamples: Number(rows.rows[0]!.n),
        deviceDays: Number(days.rows[0]!.n),
      },
      null,
      2,
    ),
  );
  if (s.stored !== sent) console.error(`LOST FRAMES: sent ${sent}, committed ${s.stored}`);
  await checkpointer?.stop();
  await db.destroy();
  if (pgUrl && schema) await dropSchema(pgUrl, schema);
  fs.rmSync(dir, { recursive: true, force: true });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
