#!/usr/bin/env node
// Server start-up, from the TypeScript sources through tsx and from the bundle (apps/server/dist):
// time from spawn to the "Server listening" log line and to the first 200 from /healthz, and the
// CPU time used until then, and the resident memory 2 s after that. Demo and simulator off, no web app; one store, migrated by a
// first start that is not counted.
//   node bench/startup.mjs [runs]   (default 3) → bench/results/startup.json
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const runs = Number(process.argv[2] ?? 3);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sunfleet-startup-'));
const modes = {
  tsx: ['--import', 'tsx', 'apps/server/src/main.ts'],
  bundle: ['apps/server/dist/main.js'],
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** CPU time (user + system, all threads) the process has used: less sensitive to a busy machine than wall time. */
function cpuMs(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10; // utime, stime in 10 ms ticks
}

function rssMb(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(status.match(/VmRSS:\s+(\d+)/)[1]) / 1024);
}

async function startOnce(args, port) {
  const t0 = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      MQTT_PORT: '0',
      MQTT_HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DEMO: 'off',
      WEB_DIST: '',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let listening = null;
  child.stdout.on('data', (chunk) => {
    if (listening === null && String(chunk).includes('Server listening')) listening = performance.now() - t0;
  });
  let healthy = null;
  let cpu = null;
  while (healthy === null) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).status === 200) {
        healthy = performance.now() - t0;
        cpu = cpuMs(child.pid);
      }
    } catch {}
    if (healthy === null) await sleep(10);
  }
  await sleep(2000);
  const rss = rssMb(child.pid);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
  return { listeningMs: Math.round(listening), healthzMs: Math.round(healthy), cpuMs: cpu, rssMb: rss };
}

const build = spawnSync(process.execPath, ['apps/server/build.mjs'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(1);
const port = 18000 + (process.pid % 1000);
await startOnce(modes.bundle, port); // migrates the store and creates the first administrator
const results = Object.fromEntries(Object.keys(modes).map((mode) => [mode, []]));
for (let i = 0; i < runs; i++) {
  for (const [mode, args] of Object.entries(modes)) {
    results[mode].push(await startOnce(args, port));
  }
}
fs.rmSync(dataDir, { recursive: true, force: true });
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const summary = Object.fromEntries(
  Object.entries(results).map(([mode, rs]) => [
    mode,
    {
      runs: rs,
      median: {
        listeningMs: median(rs.map((r) => r.listeningMs)),
        healthzMs: median(rs.map((r) => r.healthzMs)),
        cpuMs: median(rs.map((r) => r.cpuMs)),
        rssMb: median(rs.map((r) => r.rssMb)),
      },
    },
  ]),
);
const out = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: os.cpus().length,
  loadAverage: os.loadavg(),
  ...summary,
};
fs.writeFileSync(path.join(root, 'bench/results/startup.json'), `${JSON.stringify(out, null, 2)}\n`);
console.log(JSON.stringify(out, null, 2));
