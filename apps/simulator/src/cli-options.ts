// Command-line options of `npm run simulate`, parsed and checked (kept apart from cli.ts so
// tests can parse without starting anything).
import fs from 'node:fs';
import { parseArgs } from 'node:util';

export const usage = `Sunfleet simulator: virtual gateways speaking the gateway protocol over MQTT.

Usage: npm run simulate -- [options]

Fleet mode (default):
  --url URL                 broker (default $MQTT_URL or mqtt://localhost:1883); mqtts://… for MQTT over TLS
  --ca FILE                 with mqtts://: the certificate (PEM) to trust: the broker's own (pinned) or its CA
  --gateways N              number of gateways/plants (default: all in --credentials, else 12)
  --interval S              upload interval, simulated seconds (default 60)
  --speed X                 simulated seconds per wall second (default 1)
  --start TIME              simulated start, ISO 8601 or epoch ms (default now)
  --backfill-days D         upload D days of history first, as buffered frames (default 0)
  --backfill-interval S     reading interval of that history (default: the upload interval)
  --credentials FILE        JSON array of { sn, secret, plant?, devices? } from provisioning
  --seed N                  fleet seed (default 1)
  --fault-rate R            faults per device per day (default 0.2)
  --offline-rate R          offline periods per gateway (and device) per day (default 0.05)
  --mqtt-version 4|5        MQTT protocol version (default 4)
  --late-gateways N         the first N gateways answer commands late (tests)
  --late-ms MS              how late, wall ms (default 5000)
  --silent-gateways N       the next N gateways never answer commands (tests)
  --drop-gateways N         the next N gateways go offline when their first command arrives (tests)
  --drop-s S                for how long, simulated seconds (default 60)
  --firmware-key KEY        the server's firmware public key (base64), for gateways whose credentials lack one
  --upgrade-failure-rate R  share of firmware flashes that fail, 0..1 (default 0)
  --upgrade-bps N           firmware download speed, bytes per second (default: the link's)
  --upgrade-reboot-s S      seconds a gateway stays away rebooting after its upgrade (default 3)
  --print-spec              print the fleet spec (SNs, plants, devices) as JSON and exit

Load mode (benchmarks):
  --load                    publish pre-encoded data messages as fast as QoS 1 acks allow
  --duration S              seconds to run (default 10)
  --devices-per-gateway N   devices in each message, 1..32 (default 10)
  --rate R                  cap on messages per second (default: none)
  --window N                publishes in flight per client (default 64)
  --relay                   also count what the broker relays (plain brokers only)

  --json                    print the final report as JSON
  --help                    this text
`;

export interface CliOptions {
  help: boolean;
  url: string;
  gateways: number | undefined;
  interval: number;
  speed: number;
  start: number | undefined;
  backfillDays: number;
  backfillInterval: number | undefined;
  credentials: string | undefined;
  seed: number;
  faultRate: number;
  offlineRate: number;
  mqttVersion: 4 | 5;
  printSpec: boolean;
  /** Command misbehaviour by gateway position (fleet.ts `FleetCommandQuirks`). */
  commandQuirks: { late: number; lateMs: number; silent: number; drop: number; dropS: number };
  load: boolean;
  duration: number;
  devicesPerGateway: number;
  rate: number | undefined;
  window: number;
  relay: boolean;
  json: boolean;
  firmwareKey: string | undefined;
  /** The certificate (PEM text) trusted for mqtts://; undefined: the system's CAs. */
  ca: string | undefined;
  upgrades: { failureRate: number; rebootMs: number; bytesPerSecond?: number };
}

export function parseCli(argv: readonly string[], env: Readonly<Record<string, string | undefined>> = {}): CliOptions {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    options: {
      help: { type: 'boolean', short: 'h' },
      url: { type: 'string' },
      gateways: { type: 'string' },
      interval: { type: 'string' },
      speed: { type: 'string' },
      start: { type: 'string' },
      'backfill-days': { type: 'string' },
      'backfill-interval': { type: 'string' },
      credentials: { type: 'string' },
      seed: { type: 'string' },
      'fault-rate': { type: 'string' },
      'offline-rate': { type: 'string' },
      'mqtt-version': { type: 'string' },
      'print-spec': { type: 'boolean' },
      'firmware-key': { type: 'string' },
      ca: { type: 'string' },
      'upgrade-failure-rate': { type: 'string' },
      'upgrade-bps': { type: 'string' },
      'upgrade-reboot-s': { type: 'string' },
      'late-gateways': { type: 'string' },
      'late-ms': { type: 'string' },
      'silent-gateways': { type: 'string' },
      'drop-gateways': { type: 'string' },
      'drop-s': { type: 'string' },
      load: { type: 'boolean' },
      duration: { type: 'string' },
      'devices-per-gateway': { type: 'string' },
      rate: { type: 'string' },
      window: { type: 'string' },
      relay: { type: 'boolean' },
      json: { type: 'boolean' },
    },
  });
  const num = (name: string, text: string | undefined, fallback: number, min: number, max = Number.POSITIVE_INFINITY) => {
    if (text === undefined) return fallback;
    const n = Number(text);
    if (!Number.isFinite(n) || n < min || n > max) throw new Error(`--${name} must be a number within ${min}..${max}`);
    return n;
  };
  const optional = (name: string, text: string | undefined, min: number, max?: number) =>
    text === undefined ? undefined : num(name, text, 0, min, max);
  const version = num('mqtt-version', values['mqtt-version'], 4, 4, 5);
  if (version !== 4 && version !== 5) throw new Error('--mqtt-version must be 4 or 5');
  let start: number | undefined;
  if (values.start !== undefined) {
    start = /^\d+$/.test(values.start) ? Number(values.start) : Date.parse(values.start);
    if (!Number.isFinite(start)) throw new Error('--start must be ISO 8601 or epoch milliseconds');
  }
  const gateways = optional('gateways', values.gateways, 1, 100_000);
  return {
    help: values.help ?? false,
    url: values.url ?? env.MQTT_URL ?? 'mqtt://localhost:1883',
    gateways: gateways === undefined ? undefined : Math.floor(gateways),
    interval: num('interval', values.interval, 60, 1, 3600),
    speed: num('speed', values.speed, 1, 0.001, 1_000_000),
    start,
    backfillDays: num('backfill-days', values['backfill-days'], 0, 0, 366),
    backfillInterval: optional('backfill-interval', values['backfill-interval'], 1, 86_400),
    credentials: values.credentials,
    seed: Math.floor(num('seed', values.seed, 1, 0)),
    faultRate: num('fault-rate', values['fault-rate'], 0.2, 0),
    offlineRate: num('offline-rate', values['offline-rate'], 0.05, 0),
    mqttVersion: version,
    printSpec: values['print-spec'] ?? false,
    firmwareKey: values['firmware-key'],
    ca: values.ca === undefined ? undefined : fs.readFileSync(values.ca, 'utf8'),
    upgrades: {
      failureRate: num('upgrade-failure-rate', values['upgrade-failure-rate'], 0, 0, 1),
      rebootMs: num('upgrade-reboot-s', values['upgrade-reboot-s'], 3, 0, 3600) * 1000,
      ...(values['upgrade-bps'] !== undefined ? { bytesPerSecond: num('upgrade-bps', values['upgrade-bps'], 0, 1) } : {}),
    },
    commandQuirks: {
      late: Math.floor(num('late-gateways', values['late-gateways'], 0, 0, 100_000)),
      lateMs: num('late-ms', values['late-ms'], 5000, 0, 3_600_000),
      silent: Math.floor(num('silent-gateways', values['silent-gateways'], 0, 0, 100_000)),
      drop: Math.floor(num('drop-gateways', values['drop-gateways'], 0, 0, 100_000)),
      dropS: num('drop-s', values['drop-s'], 60, 0, 86_400),
    },
    load: values.load ?? false,
    duration: num('duration', values.duration, 10, 0.1),
    devicesPerGateway: Math.floor(num('devices-per-gateway', values['devices-per-gateway'], 10, 1, 32)),
    rate: optional('rate', values.rate, 0.001),
    window: Math.floor(num('window', values.window, 64, 1, 65_535)),
    relay: values.relay ?? false,
    json: values.json ?? false,
  };
}
