// The ingest-scale bench's results: bench/results/ingest-scale.json (everything measured) and
// ingest-scale.md (the table of phases, the kill phase, storage and Mosquitto's memory).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

type Lag = { p50: number | null; p99: number | null; max: number | null };
/** What the table shows of a load phase. */
interface PhaseRow {
  processes: number;
  offered: string;
  framesPerSecond: number;
  overallFramesPerSecond: number;
  lagMs: Lag;
  drainS: number;
  lostFrames: number;
  perProcess: { share: unknown; cpuPercent: unknown }[];
  mosquittoCpuPercent: number | null;
  mosquittoRssMB: number;
}
/** What the text shows of the kill phase. */
interface KillRow {
  killedAfterS: number;
  offered: string;
  gateways: number;
  restartMs: number;
  ackedFrames: number;
  storedFrames: number;
  lostFrames: number;
  storedTwice: number;
  lagMs: Lag;
}
type Sizes = Record<string, { rows: number; totalBytes: number; indexBytes: number; bytesPerRow: number | null }>;

export interface ScaleReport<P extends PhaseRow, K extends KillRow> {
  root: string;
  GATEWAYS: number;
  DEVICES: number;
  SECONDS: number;
  PROCESSES: number[];
  starts: { processes: number; startMs: number[] }[];
  phases: P[];
  kill: K | null;
  TABLES: string[];
  sizes: Sizes;
  /** Mosquitto's memory before the load, MB. */
  idleRssMB: number;
}

/** Rows, total and index bytes, and bytes per row of each table (PostgreSQL). */
export async function tableSizes(query: (q: string) => Promise<Record<string, unknown>[]>, tables: string[]): Promise<Sizes> {
  const sizes: Sizes = {};
  for (const t of tables) {
    const [r] = await query(
      `select (select count(*) from ${t})::bigint as rows, pg_total_relation_size('${t}')::bigint as total, pg_indexes_size('${t}')::bigint as idx`,
    );
    const rows = Number(r!.rows);
    sizes[t] = {
      rows,
      totalBytes: Number(r!.total),
      indexBytes: Number(r!.idx),
      bytesPerRow: rows ? Math.round(Number(r!.total) / rows) : null,
    };
  }
  return sizes;
}

/** Write the results (JSON and markdown) and print the markdown. */
export function writeScaleReport<P extends PhaseRow, K extends KillRow>(report: ScaleReport<P, K>): void {
  const { root, GATEWAYS, DEVICES, SECONDS, PROCESSES, TABLES, starts, phases, kill, sizes } = report;
  const sampleRows = TABLES.reduce((a, t) => a + sizes[t]!.rows, 0);
  const sampleBytes = TABLES.reduce((a, t) => a + sizes[t]!.totalBytes, 0);
  const connections = GATEWAYS + 1 + Math.max(...PROCESSES);
  const busiest = phases.reduce((a, p) => Math.max(a, p.mosquittoRssMB), 0);
  const idleRss = report.idleRssMB;
  const result = {
    date: new Date().toISOString(),
    machine: `${os.cpus().length} cores (shared with the broker, PostgreSQL, the load and other work), load avg ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} at end`,
    node: process.version,
    broker: 'Mosquitto 2.0.11 (MQTT 5 shared subscription $share/sunfleet-ingest/sf/gw/+/up/+)',
    gatewaysPerPhase: GATEWAYS,
    devicesPerGateway: DEVICES,
    secondsPerPhase: SECONDS,
    processStartMs: starts,
    phases,
    kill,
    storage: {
      sampleRows,
      sampleBytesPerRow: sampleRows ? Math.round(sampleBytes / sampleRows) : null,
      tables: sizes,
    },
    mosquitto: {
      idleRssMB: Number(idleRss.toFixed(1)),
      busiestRssMB: busiest,
      connectionsDuringLoad: connections,
      note: 'RSS during the load includes the messages queued for the ingest processes; per connection it is an upper bound',
    },
    method:
      'framesPerSecond: samples-table rows committed in the load window (1 s warm-up) ÷ time; lagMs: probe gateway frames (ts = wall clock) publish → row visible, polled every 25 ms, each frame found whenever it is stored (processes commit out of order); brokerAckMs: publish → Mosquitto PUBACK (not a commit); perProcess: frames_stored_total of each process’s /metrics and its CPU over the load',
  };
  const out = path.join(root, 'bench/results');
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(path.join(out, 'ingest-scale.json'), `${JSON.stringify(result, null, 2)}\n`);
  const md = [
    `# Ingest behind Mosquitto, 1–${Math.max(...PROCESSES)} processes (${result.date})`,
    '',
    `${result.machine}; Node ${result.node}; ${result.broker}; PostgreSQL; ${GATEWAYS} fresh gateways × ${DEVICES} devices per phase, QoS 1, ${SECONDS} s per phase. Server: the production bundle with ROLES=ingest,api (api idle, for /metrics).`,
    '',
    '| processes | offered | frames/s stored | overall (with drain) | lag p50 / p99 / max ms | drain s | lost | per-process share | per-process CPU % | Mosquitto CPU % |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...phases.map(
      (p) =>
        `| ${p.processes} | ${p.offered} | ${p.framesPerSecond} | ${p.overallFramesPerSecond} | ${p.lagMs.p50} / ${p.lagMs.p99} / ${p.lagMs.max} | ${p.drainS} | ${p.lostFrames} | ${p.perProcess.map((x) => x.share).join(' / ')} | ${p.perProcess.map((x) => x.cpuPercent).join(' / ')} | ${p.mosquittoCpuPercent} |`,
    ),
    '',
    kill
      ? `kill -9 of one of 2 processes after ${kill.killedAfterS} s of a steady ${kill.offered} (${kill.gateways} gateways), restarted under its client id in ${kill.restartMs} ms: ${kill.ackedFrames} frames acknowledged by the broker, ${kill.storedFrames} stored, **${kill.lostFrames} lost, ${kill.storedTwice} stored twice**; lag p50 ${kill.lagMs.p50} ms, p99 ${kill.lagMs.p99} ms, max ${kill.lagMs.max} ms.`
      : 'Kill phase off.',
    '',
    `Storage: ${sampleRows} sample rows, ${result.storage.sampleBytesPerRow} bytes per row with indexes (pg_total_relation_size); ${Object.entries(
      sizes,
    )
      .map(([t, s]) => `${t} ${s.rows} rows ${s.bytesPerRow ?? '–'} B/row`)
      .join('; ')}.`,
    '',
    `Mosquitto RSS: ${result.mosquitto.idleRssMB} MB idle, at most ${busiest} MB with ${connections} connections under load.`,
    '',
    `Method: ${result.method}.`,
  ];
  fs.writeFileSync(path.join(out, 'ingest-scale.md'), `${md.join('\n')}\n`);
  console.log(md.join('\n'));
}
