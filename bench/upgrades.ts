/**
 * Upgrade rollout benchmark: a staged rollout of a 1.5 MB inverter image to BENCH_UPGRADES_DEVICES
 * simulated inverters (1,000 by default: 250 gateways × 4, the simulator's fleet in a child
 * process), canary 5 %, then waves of 200, failure threshold 10 %. The server side runs in this
 * process wired as main.ts wires it (startTelemetry with the command channel, the command
 * sweeper, the HTTP app serving the signed downloads, the upgrade runner), on a temp SQLite
 * store. A second run injects 20 % flash failures: the rollout must pause after the canary.
 *
 *   npm run bench -- upgrades            (node --import tsx bench/upgrades.ts)
 *
 * Env: BENCH_UPGRADES_DEVICES (1000; a multiple of 4). Results: bench/results/upgrades.json and .md.
 *
 * Measures: time from the request to the rollout completed (or paused); the devices per state;
 * the server process's resident memory, peak over the run against before it (the image is
 * streamed from its file, never held per download); download throughput (image bytes served over
 * the window from the first download request to the last response).
 */
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { buildApp } from '../apps/server/src/app.ts';
import { createCommandChannel } from '../apps/server/src/commands/service.ts';
import { startCommandSweeper } from '../apps/server/src/commands/sweeper.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { createDb, migrate } from '../apps/server/src/db/index.ts';
import { firmwareBlobPath, loadFirmwareSigner } from '../apps/server/src/firmware/signing.ts';
import { createMailer } from '../apps/server/src/mail/mailer.ts';
import { hashPassword } from '../apps/server/src/modules/auth/passwords.ts';
import { AccessTokens } from '../apps/server/src/modules/auth/tokens.ts';
import { startUpgradeRunner, upgradeCtx } from '../apps/server/src/modules/upgrades/index.ts';
import { startTelemetry } from '../apps/server/src/telemetry/start.ts';
import { deviceSn } from '../apps/simulator/src/demo.ts';
import { type FleetGateway, stringInverterGateway } from './fleet.ts';
import { freePort } from './ingest-probes.ts';

const root = path.resolve(import.meta.dirname, '..');
const DEVICES = Number(process.env.BENCH_UPGRADES_DEVICES ?? 1000);
const PER_GATEWAY = 4;
const GATEWAYS = Math.ceil(DEVICES / PER_GATEWAY);
const IMAGE_BYTES = 1.5 * 1024 * 1024;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

interface RunResult {
  failureRate: number;
  state: string;
  pauseReason: string | null;
  seconds: number;
  counts: Record<string, number>;
  wavesStarted: number;
  rssMb: { before: number; peak: number; growth: number };
  download: { bytes: number; requests: number; ranged: number; seconds: number; megabytesPerS: number };
}

async function run(failureRate: number): Promise<RunResult> {
  const say = (what: string) => process.stderr.write(`upgrades bench (failure rate ${failureRate}): ${what}\n`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sunfleet-upgrades-'));
  const s = createDb({ databaseUrl: null, sqliteFile: path.join(dataDir, 'sunfleet.db'), poolSize: 10 });
  await migrate(s.db);
  const t = Date.now();
  const user = await s.db
    .insertInto('users')
    .values({
      account: 'bench-admin@example.com',
      password_hash: await hashPassword('Secret123', 'test'),
      kind: 'sysadmin',
      company_id: null,
      role_id: null,
      read_only: 0,
      enabled: 1,
      agent_company_id: null,
      created_at: t,
      updated_at: t,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const fleet: FleetGateway[] = [];
  for (let i = 0; i < GATEWAYS; i++) {
    const sn = `UPGGW${String(i).padStart(6, '0')}`;
    const { plantId, gatewayId, gateway } = await stringInverterGateway(s.db, sn, PER_GATEWAY, t);
    // The inverters as ingest registers them on their first reading (known before the rollout).
    await s.db
      .insertInto('devices')
      .values(
        Array.from({ length: PER_GATEWAY }, (_, k) => ({
          sn: deviceSn(sn, 'ST', k),
          gateway_id: gatewayId,
          plant_id: plantId,
          kind: 'inverter' as const,
          protocol_id: 'sunfleet-string-3p',
          unit: k + 1,
          status: 'normal' as const,
          created_at: t,
          updated_at: t,
        })),
      )
      .execute();
    fleet.push(gateway);
  }

  // The image as the firmware library stores it.
  const image = randomBytes(IMAGE_BYTES);
  const sha256 = createHash('sha256').update(image).digest('hex');
  fs.mkdirSync(path.dirname(firmwareBlobPath(dataDir, sha256)), { recursive: true });
  fs.writeFileSync(firmwareBlobPath(dataDir, sha256), image);
  const signer = loadFirmwareSigner(dataDir);
  const fw = await s.db
    .insertInto('firmware')
    .values({
      type: 'inverter',
      product_name: 'String 3P',
      epn: null,
      brand: null,
      hardware_version: null,
      compatible_software: null,
      upgrade_mode: 'IAP',
      file_name: 'string-3p-4.0.0.0.bin',
      version: '4.0.0.0',
      size: image.length,
      sha256,
      signature: signer.sign(sha256),
      change_log: null,
      created_by: user.id,
      created_at: t,
      updated_at: t,
    })
    .returning('id')
    .executeTakeFirstOrThrow();

  // The server: ingest role, command sweeper, HTTP app (the downloads), the upgrade runner.
  const mqttPort = await freePort();
  const httpPort = await freePort();
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: String(httpPort),
    MQTT_PORT: String(mqttPort),
    MQTT_HOST: '127.0.0.1',
    MQTT_RATE_LIMIT: 'off',
    RATE_LIMITS: 'off',
    DEMO: 'off',
    WEB_DIST: '',
    PASSWORD_COST: 'test',
    UPGRADE_CONFIRM: '120',
  });
  const log = pino({ level: 'warn' });
  const commands = createCommandChannel({ db: s.db, dialect: s.dialect, log, defaults: config.commands });
  await startTelemetry(config, s, log, { commands });
  startCommandSweeper(commands, log);
  const mailer = createMailer({ smtpUrl: null, from: config.mailFrom, outboxDir: path.join(dataDir, 'outbox'), log });
  const app = await buildApp(
    {
      config,
      db: s.db,
      dialect: s.dialect,
      tokens: new AccessTokens(config.jwtSecret, config.accessTokenTtlSec),
      mailer,
      commands,
    },
    log,
  );
  const download = { bytes: 0, requests: 0, ranged: 0, first: 0, last: 0 };
  app.addHook('onRequest', async (req) => {
    if (!req.url.startsWith('/anonymous/firmware/')) return;
    download.requests++;
    if (req.headers.range) download.ranged++;
    download.first ||= performance.now();
  });
  // Bytes of each answer as it is sent (a stream's length is its Content-Length), then its end.
  app.addHook('onSend', async (req, reply, payload) => {
    if (req.url.startsWith('/anonymous/firmware/')) download.bytes += Number(reply.getHeader('content-length') ?? 0);
    return payload;
  });
  app.addHook('onResponse', async (req) => {
    if (req.url.startsWith('/anonymous/firmware/')) download.last = performance.now();
  });
  await app.listen({ port: httpPort, host: '127.0.0.1' });
  const runner = startUpgradeRunner(upgradeCtx({ db: s.db, dialect: s.dialect, commands, config }), log, 500);

  const fleetFile = path.join(dataDir, 'fleet.json');
  fs.writeFileSync(fleetFile, JSON.stringify(fleet));
  const sim = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'apps/simulator/src/cli.ts',
      '--url',
      `mqtt://127.0.0.1:${mqttPort}`,
      '--credentials',
      fleetFile,
      '--interval',
      '300',
      '--fault-rate',
      '0',
      '--offline-rate',
      '0',
      '--firmware-key',
      signer.publicKey,
      '--upgrade-failure-rate',
      String(failureRate),
    ],
    { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  // Every gateway online.
  for (let i = 0; ; i++) {
    const n = Number(
      (
        await s.db
          .selectFrom('gateways')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('online', '=', 1)
          .executeTakeFirstOrThrow()
      ).n,
    );
    if (n >= GATEWAYS) break;
    if (i > 1200) throw new Error(`only ${n} of ${GATEWAYS} gateways online`);
    await sleep(100);
  }
  await sleep(2000);

  say('fleet online');
  const memory = { before: process.memoryUsage().rss, peak: 0 };
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      memory.peak = Math.max(memory.peak, process.memoryUsage().rss);
      await sleep(100);
    }
  })();

  const login = await app.inject({
    method: 'POST',
    url: '/oauth/token',
    payload: { grant_type: 'password', username: 'bench-admin@example.com', password: 'Secret123' },
  });
  const token = login.json().data.access_token as string;
  const sns = fleet.flatMap((g) => g.devices.map((d) => (d as { sn: string }).sn)).slice(0, DEVICES);
  const started = performance.now();
  const res = await app.inject({
    method: 'POST',
    url: `/api/v1/inverter/${sns[0]}/batchUpgrade`,
    headers: { authorization: `Bearer ${token}` },
    payload: { firmId: fw.id, sns: sns.slice(1), canaryPercent: 5, waveSize: 200, failureThreshold: 10 },
  });
  const body = res.json();
  if (body.code !== 0) throw new Error(`batch upgrade refused: ${res.body}`);
  const id = body.data.rolloutId as string;
  let view: { state: string; pauseReason: string | null; counts: Record<string, number>; currentWave: number };
  for (;;) {
    await sleep(500);
    const r = await app.inject({
      method: 'GET',
      url: `/api/v1/upgrade/rollout/${id}`,
      headers: { authorization: `Bearer ${token}` },
    });
    view = r.json().data;
    const open = ['pending', 'sending', 'downloaded', 'upgrading'].reduce((n, k) => n + (view.counts[k] ?? 0), 0);
    const running = ['sending', 'downloaded', 'upgrading'].reduce((n, k) => n + (view.counts[k] ?? 0), 0);
    if (view.state === 'completed' || view.state === 'cancelled') break;
    if (view.state === 'paused' && running === 0) break;
    if (performance.now() - started > 15 * 60_000)
      throw new Error(`rollout not done after 15 min: ${JSON.stringify(view)} (${open} open)`);
  }
  const seconds = (performance.now() - started) / 1000;
  say(`rollout ${view.state} after ${Math.round(seconds)} s (${JSON.stringify(view.counts)}) ${view.pauseReason ?? ''}`);
  sampling = false;
  await sampler;

  sim.kill('SIGINT');
  await new Promise((r) => sim.once('exit', r));
  // The store is a temp folder; this process ends right after (each pass runs in its own).
  await runner.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
  const windowS = Math.max(0.001, (download.last - download.first) / 1000);
  return {
    failureRate,
    state: view.state,
    pauseReason: view.pauseReason,
    seconds: Math.round(seconds * 10) / 10,
    counts: view.counts,
    wavesStarted: view.currentWave + 1,
    rssMb: { before: mb(memory.before), peak: mb(memory.peak), growth: mb(memory.peak - memory.before) },
    download: {
      bytes: download.bytes,
      requests: download.requests,
      ranged: download.ranged,
      seconds: Math.round(windowS * 10) / 10,
      megabytesPerS: mb(download.bytes / windowS),
    },
  };
}

/** One pass in a child process of its own (its memory alone, nothing left over from the other). */
function pass(failureRate: number): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/upgrades.ts'], {
      cwd: root,
      env: { ...process.env, BENCH_UPGRADES_PASS: String(failureRate) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as RunResult) : reject(new Error(`pass exited ${code}`))));
  });
}

function markdown(r: {
  date: string;
  machine: string;
  devices: number;
  gateways: number;
  runs: { clean: RunResult; failing: RunResult };
}) {
  const row = (name: string, x: RunResult) =>
    `| ${name} | ${x.state}${x.pauseReason ? ` (${x.pauseReason})` : ''} | ${x.seconds} s | ${Object.entries(x.counts)
      .map(([k, v]) => `${k} ${v}`)
      .join(
        ', ',
      )} | ${x.wavesStarted} | ${x.rssMb.before} → ${x.rssMb.peak} MB (+${x.rssMb.growth}) | ${x.download.megabytesPerS} MB/s (${mb(x.download.bytes)} MB in ${x.download.seconds} s, ${x.download.requests} requests) |`;
  return `# Upgrade rollout benchmark

\`npm run bench -- upgrades\` (bench/upgrades.ts), ${r.date}, ${r.machine}.

A staged rollout of a 1.5 MB inverter image to ${r.devices} simulated inverters (${r.gateways} gateways × 4, the
simulator in a child process over the embedded broker), canary 5 %, waves of 200, pause over 10 % failed. The
server (ingest role, command sweeper, HTTP app serving the signed downloads, upgrade runner ticking every 0.5 s)
runs in the measuring process on a temp SQLite store. Each device downloads the image over HTTP, checks its size,
SHA-256 and signature, "flashes" it (0.3 s) and reports its new version in a reading; the rollout counts a device
as upgraded only once that version is stored.

| run | ended | time | devices | waves started | server memory (RSS before → peak) | download throughput |
|---|---|---|---|---|---|---|
${row('no failures', r.runs.clean)}
${row('20 % flash failures', r.runs.failing)}

- Memory: the image is streamed from its file for each download (never read whole into memory); the peak is the
  process's resident size while up to 200 devices download at once, against the same process before the rollout.
- Throughput: image bytes served over the window from the first download request to the last response (loopback,
  the simulator's 250 gateways in one Node process on the same 2 shared cores; the simulator's hashing and
  the server's streaming compete for them).
`;
}

async function main() {
  if (process.env.BENCH_UPGRADES_PASS !== undefined) {
    const result = await run(Number(process.env.BENCH_UPGRADES_PASS));
    process.stdout.write(JSON.stringify(result));
    process.exit(0);
  }
  const clean = await pass(0);
  const failing = await pass(0.2);
  const result = {
    date: new Date().toISOString(),
    machine: `${os.cpus().length} cores (shared), load avg ${os.loadavg()[0]!.toFixed(2)} at end`,
    devices: DEVICES,
    gateways: GATEWAYS,
    imageBytes: IMAGE_BYTES,
    rollout: 'canary 5 %, waves of 200, pause over 10 % failed',
    runs: { clean, failing },
  };
  console.log(JSON.stringify(result, null, 2));
  fs.mkdirSync(path.join(root, 'bench/results'), { recursive: true });
  const name = DEVICES === 1000 ? 'upgrades' : `upgrades-${DEVICES}`;
  fs.writeFileSync(path.join(root, `bench/results/${name}.json`), `${JSON.stringify(result, null, 2)}\n`);
  fs.writeFileSync(path.join(root, `bench/results/${name}.md`), markdown(result));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
