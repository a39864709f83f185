// Load mode for benchmarks: many gateways publishing realistic data messages as fast as QoS 1
// acknowledgements allow (or at a capped rate). Payloads are encoded once per gateway from
// its simulated plant (a few readings through the day); each publish only patches `seq` and
// `ts` into the text, and every client keeps many publishes in flight.
import { PROTOCOL_VERSION, topics } from '@sunfleet/contracts';
import { connect, type MqttClient } from 'mqtt';
import { deviceSn } from './demo.ts';
import type { GatewaySpec } from './gateway.ts';
import { type DeviceSpec, Plant } from './plant.ts';

export interface LoadOptions {
  url: string;
  /** How many gateways (SNs LOAD000001…, empty secret), or their credentials. */
  gateways: number | readonly { sn: string; secret: string }[];
  /** Devices in each message, 1..32 (default 10). */
  devicesPerGateway?: number;
  /** Cap on messages per second over all gateways (default: none). */
  rate?: number;
  qos?: 0 | 1;
  durationS: number;
  /** Publishes awaiting acknowledgement per client (default 64). */
  window?: number;
  protocolVersion?: 4 | 5;
  /** Also subscribe to every gateway's data and count what the broker relays (plain brokers only). */
  relay?: boolean;
  /** Time between the readings of one gateway, ms (default 1000): readings start an hour ago, one per step. */
  stepMs?: number;
  log?: (line: string) => void;
}

export interface LoadReport {
  gateways: number;
  connected: number;
  devicesPerGateway: number;
  durationS: number;
  sent: number;
  /** Acknowledged within the measured duration. */
  acked: number;
  failed: number;
  messagesPerS: number;
  deviceFramesPerS: number;
  megabytesPerS: number;
  /** Mean message size, bytes. */
  messageBytes: number;
  ackLatencyMs: { p50: number; p99: number };
  relayed?: number;
  relayedPerS?: number;
}

export interface Load {
  run(): Promise<LoadReport>;
  /** End early (run() resolves with what was measured). */
  stop(): void;
}

interface Template {
  head: string;
  tail: string;
}

const HOUR = 3_600_000;

/** A gateway layout of `n` devices: hybrid + battery + meter + weather station, then string inverters. */
export function loadDevices(sn: string, n: number): DeviceSpec[] {
  const devices: DeviceSpec[] = [
    {
      kind: 'hybrid',
      sn: deviceSn(sn, 'HY', 1),
      unit: 1,
      phases: 3,
      ratedW: 10000,
      pvKwp: 12,
      battery: { packs: 4, highVoltage: true },
    },
    { kind: 'battery', sn: deviceSn(sn, 'BT', 1), unit: 2 },
    { kind: 'meter', sn: deviceSn(sn, 'MT', 1), unit: 3 },
    { kind: 'weather', sn: deviceSn(sn, 'WS', 1), unit: 4 },
  ];
  for (let i = devices.length; i < n; i++) {
    devices.push({ kind: 'string', sn: deviceSn(sn, 'ST', i), unit: i + 1, ratedW: 20000, pvKwp: 24, mppts: 3 });
  }
  return devices.slice(0, n);
}

/**
 * The message template of one gateway: a midday reading of its plant. One reading, not
 * several in turn: cycling through readings would make the energy counters run backwards.
 */
function template(spec: GatewaySpec): Template {
  const midday = Math.floor(Date.now() / (24 * HOUR)) * 24 * HOUR + 11 * HOUR;
  const plant = new Plant(spec.plant, spec.devices, { seed: 1 });
  plant.advance(midday - HOUR);
  const env = plant.advance(midday);
  const devices = plant.devices.map((d) => d.frame(env));
  return { head: `{"v":${PROTOCOL_VERSION},"seq":`, tail: `,${JSON.stringify({ devices }).slice(1)}` };
}

export function createLoad(options: LoadOptions): Load {
  const perGateway = Math.min(32, Math.max(1, options.devicesPerGateway ?? 10));
  const window = Math.max(1, options.window ?? 64);
  const qos = options.qos ?? 1;
  const stepMs = options.stepMs ?? 1000;
  const credentials =
    typeof options.gateways === 'number'
      ? Array.from({ length: options.gateways }, (_, i) => ({ sn: `LOAD${String(i + 1).padStart(6, '0')}`, secret: '' }))
      : [...options.gateways];
  let stopping = false;
  let finish: () => void = () => {};

  return {
    stop() {
      stopping = true;
      finish();
    },
    async run() {
      const specs: GatewaySpec[] = credentials.map(({ sn, secret }) => ({
        sn,
        secret,
        plant: {
          lat: 40.42,
          lon: -3.7,
          timezone: 'Europe/Madrid',
          capacityKw: 12 + 24 * Math.max(0, perGateway - 4),
          type: 'dc',
        },
        devices: loadDevices(sn, perGateway),
      }));
      const payloads = specs.map(template);
      const clients = await connectAll(options, credentials);
      const relay = options.relay ? await relayCounter(options) : null;
      const latencies = new Float64Array(200_000);
      let samples = 0;
      let sent = 0;
      let acked = 0;
      let failed = 0;
      let bytes = 0;
      let measuring = true;
      // Publishes each client may send now: a capped rate is shared evenly between the gateways
      // (one bucket each), so no gateway runs ahead of the others (and of the clock).
      const tokens = new Array<number>(clients.length).fill(Number.POSITIVE_INFINITY);
      const base = Date.now() - HOUR;
      const seqs = new Array<number>(clients.length).fill(0);
      const inflight = new Array<number>(clients.length).fill(0);

      const fill = (i: number) => {
        const client = clients[i];
        if (!client) return;
        const topic = topics.up(credentials[i]!.sn, 'data');
        const { head, tail } = payloads[i]!;
        while (!stopping && inflight[i]! < window && tokens[i]! >= 1) {
          tokens[i]!--;
          const seq = seqs[i]!++;
          const payload = Buffer.from(`${head}${seq},"ts":${base + seq * stepMs}${tail}`);
          const started = performance.now();
          inflight[i]!++;
          sent++;
          bytes += payload.length;
          client.publish(topic, payload, { qos }, (error) => {
            inflight[i]!--;
            if (error) failed++;
            else if (measuring) {
              acked++;
              const ms = performance.now() - started;
              if (samples < latencies.length) latencies[samples++] = ms;
              else {
                const j = Math.floor(Math.random() * acked);
                if (j < latencies.length) latencies[j] = ms;
              }
            }
            if (!stopping) fill(i);
          });
        }
      };

      let ticker: NodeJS.Timeout | undefined;
      if (options.rate && options.rate > 0) {
        // Refill by elapsed time, so a late timer does not lower the rate.
        const rate = options.rate / Math.max(1, clients.length);
        let last = performance.now();
        tokens.fill(0);
        ticker = setInterval(() => {
          const now = performance.now();
          for (let i = 0; i < clients.length; i++) {
            tokens[i] = Math.min(tokens[i]! + ((now - last) / 1000) * rate, Math.max(1, rate / 10));
            fill(i);
          }
          last = now;
        }, 10);
      }
      const started = performance.now();
      for (let i = 0; i < clients.length; i++) fill(i);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, options.durationS * 1000);
        finish = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      const seconds = (performance.now() - started) / 1000;
      measuring = false;
      stopping = true;
      if (ticker) clearInterval(ticker);
      const ackedInWindow = acked;
      const relayed = relay?.count() ?? 0;
      // Let what is in flight land before hanging up.
      const deadline = Date.now() + 5000;
      while (inflight.some((n) => n > 0) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      await Promise.all([...clients, relay?.client].map((c) => c && new Promise<void>((r) => c.end(true, {}, () => r()))));

      const sorted = latencies.slice(0, samples).sort();
      const pct = (p: number) =>
        sorted.length > 0 ? Math.round(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]! * 100) / 100 : 0;
      const report: LoadReport = {
        gateways: credentials.length,
        connected: clients.filter(Boolean).length,
        devicesPerGateway: perGateway,
        durationS: Math.round(seconds * 100) / 100,
        sent,
        acked: ackedInWindow,
        failed,
        messagesPerS: Math.round(ackedInWindow / seconds),
        deviceFramesPerS: Math.round((ackedInWindow * perGateway) / seconds),
        megabytesPerS: Math.round(((bytes / seconds) * (ackedInWindow / Math.max(1, sent))) / 10_000) / 100,
        messageBytes: sent > 0 ? Math.round(bytes / sent) : 0,
        ackLatencyMs: { p50: pct(0.5), p99: pct(0.99) },
        ...(relay ? { relayed, relayedPerS: Math.round(relayed / seconds) } : {}),
      };
      return report;
    },
  };
}

/** Connect every gateway (100 at a time); a client that cannot connect within 10 s is left out. */
async function connectAll(
  options: LoadOptions,
  credentials: readonly { sn: string; secret: string }[],
): Promise<(MqttClient | null)[]> {
  const clients: (MqttClient | null)[] = [];
  for (let i = 0; i < credentials.length; i += 100) {
    const batch = credentials.slice(i, i + 100).map(
      ({ sn, secret }) =>
        new Promise<MqttClient | null>((resolve) => {
          const client = connect(options.url, {
            clientId: sn,
            username: sn,
            password: secret,
            protocolVersion: options.protocolVersion ?? 4,
            keepalive: 30,
            reconnectPeriod: 1000,
            connectTimeout: 10_000,
          });
          const timer = setTimeout(() => {
            options.log?.(`load: ${sn} did not connect`);
            client.end(true);
            resolve(null);
          }, 10_000);
          client.once('connect', () => {
            clearTimeout(timer);
            resolve(client);
          });
          client.on('error', () => {});
        }),
    );
    clients.push(...(await Promise.all(batch)));
  }
  return clients;
}

async function relayCounter(options: LoadOptions): Promise<{ client: MqttClient; count: () => number }> {
  let n = 0;
  const client = connect(options.url, {
    clientId: `sf-load-relay-${process.pid}`,
    protocolVersion: options.protocolVersion ?? 4,
  });
  await new Promise<void>((resolve, reject) => {
    client.once('connect', () => resolve());
    client.once('error', reject);
  });
  await client.subscribeAsync(topics.allUp('data'), { qos: 0 });
  client.on('message', () => {
    n++;
  });
  return { client, count: () => n };
}

export function runLoad(options: LoadOptions): Promise<LoadReport> {
  return createLoad(options).run();
}
