/**
 * What the end-to-end ingest benchmark (ingest.ts) reads the server and the simulator with: a free
 * port, the server process's CPU ticks and RSS from /proc, the ingest counters from /metrics, the
 * simulator's JSON report, the probe gateway's frame and percentiles.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { PROTOCOL_VERSION } from '@sunfleet/contracts';
import { loadDevices } from '../apps/simulator/src/load-generator.ts';
import { Plant } from '../apps/simulator/src/plant.ts';

const root = path.resolve(import.meta.dirname, '..');

export const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
  });

export function procSample(pid: number): { t: number; ticks: number; rssMB: number } | null {
  try {
    const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    const rss = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return { t: performance.now(), ticks: Number(f[11]) + Number(f[12]), rssMB: rss ? Number(rss[1]) / 1024 : 0 };
  } catch {
    return null;
  }
}

/** The machine's busy and total CPU ticks since boot (all cores, from /proc/stat). */
export function machineTicks(): { busy: number; total: number } {
  const f = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const idle = (f[3] ?? 0) + (f[4] ?? 0);
  const total = f.reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

/** The server's ingest counters from /metrics: refusals by reason, duplicates, messages acknowledged. */
export async function ingestCounters(httpPort: number): Promise<Record<string, number>> {
  const text = await fetch(`http://127.0.0.1:${httpPort}/metrics`).then((r) => r.text());
  const out: Record<string, number> = {};
  for (const line of text.split('\n')) {
    const m =
      /^sunfleet_ingest_(frames_refused_total\{reason="(\w+)"\}|frames_duplicate_total|frames_stored_total|messages_acknowledged_total) (\d+)/.exec(
        line,
      );
    if (m && Number(m[3]) > 0) out[m[2] ? `refused.${m[2]}` : m[1]!] = Number(m[3]);
  }
  return out;
}

// biome-ignore lint/suspicious/noExplicitAny: the simulator's JSON report
export function runJson(args: string[], env: NodeJS.ProcessEnv = process.env, onPid?: (pid: number) => void): Promise<any> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'] });
    if (child.pid !== undefined) onPid?.(child.pid);
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
    });
    child.on('exit', (code) => {
      try {
        resolve(JSON.parse(out.trim().slice(out.trim().indexOf('{'))));
      } catch {
        reject(new Error(`${args.join(' ')} exited ${code}: ${out.slice(0, 500)}`));
      }
    });
  });
}

/**
 * The simulator's load mode over the gateways of a credentials file: as fast as acknowledgements
 * allow, or `rate` messages a second; its JSON report.
 */
export function runLoad(
  o: { url: string; credentials: string; devicesPerGateway: number; seconds: number; rate?: number | null; mqttVersion?: 5 },
  onPid?: (pid: number) => void,
  // biome-ignore lint/suspicious/noExplicitAny: the simulator's JSON report
): Promise<any> {
  return runJson(
    [
      'apps/simulator/src/cli.ts',
      '--load',
      '--json',
      '--url',
      o.url,
      '--credentials',
      o.credentials,
      '--devices-per-gateway',
      String(o.devicesPerGateway),
      '--duration',
      String(o.seconds),
      ...(o.mqttVersion ? ['--mqtt-version', String(o.mqttVersion)] : []),
      ...(o.rate ? ['--rate', String(o.rate)] : []),
    ],
    process.env,
    onPid,
  );
}

/** The probe's one-device message, ts = now (same plant model as the load's templates). */
export function probeMessage(sn: string): (seq: number, ts: number) => Buffer {
  const HOUR = 3_600_000;
  const midday = Math.floor(Date.now() / (24 * HOUR)) * 24 * HOUR + 11 * HOUR;
  const plant = new Plant({ lat: 40.42, lon: -3.7, timezone: 'Europe/Madrid', capacityKw: 12, type: 'dc' }, loadDevices(sn, 1), {
    seed: 1,
  });
  plant.advance(midday - HOUR);
  const env = plant.advance(midday);
  const tail = `,${JSON.stringify({ devices: plant.devices.map((d) => d.frame(env)) }).slice(1)}`;
  return (seq, ts) => Buffer.from(`{"v":${PROTOCOL_VERSION},"seq":${seq},"ts":${ts}${tail}`);
}

export const pct = (xs: number[], p: number) => {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor(p * s.length))]!);
};
