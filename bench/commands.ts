/**
 * Command channel benchmark: 1,000 simulated devices (250 gateways × 4 string inverters, the
 * simulator's fleet in a child process) each given one write job at once over the embedded
 * broker, while a data load runs (the simulator's load mode, another child, 100 gateways × 4
 * devices as fast as QoS 1 acknowledgements allow). The server side runs in this process wired
 * exactly as main.ts wires the ingest role (startTelemetry with the command channel, and the
 * command sweeper) on a temp SQLite store, or PostgreSQL with BENCH_DATABASE_URL.
 *
 *   npm run bench -- commands            (node --import tsx bench/commands.ts)
 *
 * Env: BENCH_COMMANDS_GATEWAYS (250), BENCH_COMMANDS_LOAD_S (20), BENCH_COMMANDS_RATE (the
 * load's messages per second; unset: as fast as acknowledgements allow), BENCH_COMMANDS_STORE
 * (sqlite | postgres; postgres needs BENCH_DATABASE_URL), BENCH_COMMANDS_PIN (below). Results:
 * bench/results/commands-<store>[-<rate>mps][-pinned].json.
 *
 * Measures:
 * - every job reaches a final state, and how (succeeded, failed, timed out, …);
 * - round trip per job: created (submit) → final reply committed, from the job rows (p50/p99/max);
 * - ingest throughput: device frames stored per second (ingest's own counter, sampled every
 *   100 ms) over the burst window (first submit → last job final, at least 2 s), against the
 *   same length of window in the same load just before the burst;
 * - where the CPU went in both windows: cores kept busy by the server, the fleet and the load,
 *   and the machine's busy share.
 */

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { registersToHex } from '@sunfleet/contracts';
import { protocolPlan } from '@sunfleet/protocols';
import { type FleetGateway, openStore, root, sleep, startFleet, startIngestRole, stringInverterGateway } from './fleet.ts';
import { machineTicks, pct, procSample, runLoad } from './ingest-probes.ts';

const GATEWAYS = Number(process.env.BENCH_COMMANDS_GATEWAYS ?? 250);
const PER_GATEWAY = 4;
const LOAD_GATEWAYS = 100;
const LOAD_S = Number(process.env.BENCH_COMMANDS_LOAD_S ?? 20);
/** Data messages per second of the load (4 device frames each); unset: as fast as acknowledgements allow. */
const LOAD_RATE = process.env.BENCH_COMMANDS_RATE ? Number(process.env.BENCH_COMMANDS_RATE) : null;
/**
 * BENCH_COMMANDS_PIN=1: the server (this process, every thread) on core 0 and the simulated
 * devices (the fleet and the load) on core 1, so the devices' own work answering the burst does
 * not take cycles from the server, as on a deployment where the gateways are not the server.
 */
const PIN = process.env.BENCH_COMMANDS_PIN === '1';
const pin = (pid: number, core: number) => {
  if (PIN && pid) execFileSync('taskset', ['-a', '-cp', String(core), String(pid)], { stdio: 'ignore' });
};
const pgUrl = process.env.BENCH_DATABASE_URL || null;
const store = process.env.BENCH_COMMANDS_STORE === 'postgres' && pgUrl ? 'postgres' : 'sqlite';

async function main() {
  const s = await openStore(store, 'bench_cmd', pgUrl);
  const dataDir = s.dataDir;

  // Gateways: the fleet's (4 string inverters each) and the load's.
  const t = Date.now();
  const fleet: FleetGateway[] = [];
  const load: { sn: string; secret: string }[] = [];
  for (let i = 0; i < GATEWAYS + LOAD_GATEWAYS; i++) {
    const sn = i < GATEWAYS ? `CMDGW${String(i).padStart(6, '0')}` : `CMDLD${String(i).padStart(6, '0')}`;
    const { gateway } = await stringInverterGateway(s.db, sn, PER_GATEWAY, t);
    if (i < GATEWAYS) fleet.push(gateway);
    else load.push({ sn, secret: gateway.secret });
  }

  // The server's ingest role, as main.ts runs it, and the fleet (a reading every 5 minutes; the load is the other child).
  const ingest = await startIngestRole(s);
  const { commands, telemetry, url } = ingest;
  const sim = await startFleet(s, url, fleet, { timeoutMs: 60_000 });
  await sleep(2000);

  // Ingest's stored-frames counter, and where the machine's CPU goes (CPU ticks of this process,
  // of the fleet's and the load's processes, and of the whole machine), every 100 ms.
  const pids = { server: process.pid, fleet: sim.child.pid ?? 0, load: 0 };
  pin(pids.server, 0);
  pin(pids.fleet, 1);
  type Sample = { t: number; stored: number; ticks: Record<keyof typeof pids | 'machineBusy' | 'machineTotal', number> };
  const series: Sample[] = [];
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const m = machineTicks();
      series.push({
        t: performance.now(),
        stored: telemetry.ingest.stats().stored,
        ticks: {
          server: procSample(pids.server)?.ticks ?? 0,
          fleet: procSample(pids.fleet)?.ticks ?? 0,
          load: pids.load ? (procSample(pids.load)?.ticks ?? 0) : 0,
          machineBusy: m.busy,
          machineTotal: m.total,
        },
      });
      await sleep(100);
    }
  })();

  const loadFile = path.join(dataDir, 'load.json');
  fs.writeFileSync(loadFile, JSON.stringify(load));
  const loadRun = runLoad({ url, credentials: loadFile, devicesPerGateway: 4, seconds: LOAD_S, rate: LOAD_RATE }, (pid) => {
    pids.load = pid;
    pin(pid, 1);
  });

  // Half way through the load: one write job per device, all at once.
  await sleep((LOAD_S * 1000) / 2);
  const plan = protocolPlan('sunfleet-string-3p')!;
  const writes = plan
    .encodeWrites({ activePowerLimit: 100 })
    .map((w) => ({ fc: w.functionCode, addr: w.address, regs: registersToHex(w.registers) }));
  const elu0 = performance.eventLoopUtilization();
  const burstStart = performance.now();
  const ids = await Promise.all(
    fleet.flatMap((g) =>
      g.devices.map((d) =>
        commands
          .submit({
            gatewaySn: g.sn,
            deviceSn: (d as { sn: string }).sn,
            body: { type: 'write', device: (d as { sn: string }).sn, writes },
            requestedBy: 1,
          })
          .then((j) => j.id),
      ),
    ),
  );
  const submittedMs = performance.now() - burstStart;
  const settled = await Promise.all(ids.map((id) => commands.settle(id, 60_000)));
  const burstEnd = performance.now();
  // How busy this process's event loop (the server's main thread) was during the burst.
  const burstElu = performance.eventLoopUtilization(elu0).utilization;
  const loadReport = await loadRun;
  sampling = false;
  await sampler;

  const rows = await s.db.selectFrom('command_jobs').select(['state', 'created_at', 'finished_at']).execute();
  const roundTrips = rows.filter((r) => r.finished_at !== null).map((r) => Number(r.finished_at) - Number(r.created_at));
  const byState: Record<string, number> = {};
  for (const j of settled) byState[j.state] = (byState[j.state] ?? 0) + 1;

  const at = (time: number) => series.reduce((best, x) => (Math.abs(x.t - time) < Math.abs(best.t - time) ? x : best));
  const rate = (from: number, to: number) => {
    const a = at(from);
    const b = at(to);
    return Math.round((b.stored - a.stored) / ((b.t - a.t) / 1000));
  };
  // Cores each process kept busy over a window (ticks are 1/100 s), and the machine's busy share.
  const cpu = (from: number, to: number) => {
    const a = at(from);
    const b = at(to);
    const seconds = (b.t - a.t) / 1000;
    const cores = (k: 'server' | 'fleet' | 'load') => Number(((b.ticks[k] - a.ticks[k]) / 100 / seconds).toFixed(2));
    return {
      serverCores: cores('server'),
      fleetCores: cores('fleet'),
      loadCores: cores('load'),
      machineBusyPercent: Math.round(
        ((b.ticks.machineBusy - a.ticks.machineBusy) / (b.ticks.machineTotal - a.ticks.machineTotal)) * 100,
      ),
    };
  };
  const windowMs = Math.max(2000, burstEnd - burstStart);
  const during = rate(burstStart, burstStart + windowMs);
  const before = rate(burstStart - windowMs - 500, burstStart - 500);
  // The same comparison between two windows of the load before the burst: how far two windows
  // apart by themselves (the measure's own noise at this load).
  const control = rate(burstStart - 2 * windowMs - 1000, burstStart - windowMs - 1000);
  // Steady state: the rate over the 8 s before the burst.
  const steady = rate(burstStart - 8500, burstStart - 500);
  const drop = (base: number, x: number) => (base > 0 ? Number((((base - x) / base) * 100).toFixed(1)) : null);
  const result = {
    date: new Date().toISOString(),
    store,
    machine: `${os.cpus().length} cores (shared), load avg ${os.loadavg()[0]!.toFixed(2)} at end`,
    pinned: PIN ? 'server on core 0, simulated devices on core 1' : 'no',
    devices: ids.length,
    gateways: GATEWAYS,
    jobs: {
      total: ids.length,
      final: settled.filter((j) => j.state !== 'queued' && j.state !== 'sent' && j.state !== 'acknowledged').length,
      byState,
    },
    submitAllMs: Math.round(submittedMs),
    burstMs: Math.round(burstEnd - burstStart),
    serverEventLoopUtilizationDuringBurst: Number(burstElu.toFixed(2)),
    roundTripMs: { p50: pct(roundTrips, 0.5), p99: pct(roundTrips, 0.99), max: pct(roundTrips, 1) },
    ingest: {
      load: `${LOAD_GATEWAYS} gateways × 4 devices, ${LOAD_RATE ? `${LOAD_RATE} messages/s` : 'max rate (QoS 1)'}`,
      framesPerSecondBefore: before,
      framesPerSecondDuring: during,
      dropPercent: drop(before, during),
      controlDropPercent: drop(control, before),
      framesPerSecondSteady: steady,
      dropFromSteadyPercent: drop(steady, during),
      windowMs: Math.round(windowMs),
      cpuBefore: cpu(burstStart - windowMs - 500, burstStart - 500),
      cpuDuring: cpu(burstStart, burstStart + windowMs),
      loadReport: {
        messagesPerS: loadReport.messagesPerS,
        deviceFramesPerS: loadReport.deviceFramesPerS,
        ackLatencyMs: loadReport.ackLatencyMs,
      },
    },
    targets: {
      allFinal: settled.every((j) => ['succeeded', 'failed', 'timed_out', 'cancelled', 'expired'].includes(j.state)),
      p99RoundTripWithin2s: (pct(roundTrips, 0.99) ?? Infinity) <= 2000,
      ingestDropWithin10Percent: before > 0 && (before - during) / before <= 0.1,
    },
  };
  console.log(JSON.stringify(result, null, 2));
  fs.mkdirSync(path.join(root, 'bench/results'), { recursive: true });
  const name = `commands-${store}${LOAD_RATE ? `-${LOAD_RATE}mps` : ''}${PIN ? '-pinned' : ''}`;
  fs.writeFileSync(path.join(root, `bench/results/${name}.json`), `${JSON.stringify(result, null, 2)}\n`);

  await sim.stop();
  await ingest.close();
  await s.drop();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
