// npm run simulate -- --gateways N --interval S …  (see --help)
import { readFileSync } from 'node:fs';
import { parseCli, usage } from './cli-options.ts';
import { type GatewayCredentials, makeDemoFleet } from './demo.ts';
import { createFleet } from './fleet.ts';
import { createLoad } from './load-generator.ts';
import { startReporter } from './report.ts';

function readCredentials(file: string): GatewayCredentials[] {
  const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
  const list = Array.isArray(parsed) ? parsed : (parsed as { gateways?: unknown } | null)?.gateways;
  if (!Array.isArray(list)) throw new Error(`${file}: expected a JSON array of { sn, secret }`);
  return list.map((entry, i) => {
    const e = entry as Partial<GatewayCredentials> | null;
    if (!e || typeof e.sn !== 'string' || typeof e.secret !== 'string')
      throw new Error(`${file}: entry ${i} needs sn and secret`);
    return e as GatewayCredentials;
  });
}

async function main(): Promise<number> {
  let options: ReturnType<typeof parseCli>;
  try {
    options = parseCli(process.argv.slice(2), process.env);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${usage}`);
    return 2;
  }
  if (options.help) {
    process.stdout.write(usage);
    return 0;
  }
  const given = options.credentials ? readCredentials(options.credentials) : undefined;
  // Provisioning gives each gateway the server's firmware key; --firmware-key for those without one.
  const key = options.firmwareKey;
  const credentials = given && key ? given.map((c) => ({ firmwareKey: key, ...c })) : given;
  const log = (line: string) => process.stderr.write(`${line}\n`);

  if (options.load) {
    const gateways = credentials ? credentials.slice(0, options.gateways ?? credentials.length) : (options.gateways ?? 100);
    const load = createLoad({
      url: options.url,
      gateways,
      devicesPerGateway: options.devicesPerGateway,
      durationS: options.duration,
      window: options.window,
      protocolVersion: options.mqttVersion,
      relay: options.relay,
      log,
      ...(options.rate !== undefined ? { rate: options.rate } : {}),
    });
    process.once('SIGINT', () => load.stop());
    const report = await load.run();
    if (options.json) process.stdout.write(`${JSON.stringify(report)}\n`);
    else {
      process.stdout.write(
        `${report.connected}/${report.gateways} gateways × ${report.devicesPerGateway} devices, ${report.durationS} s: ` +
          `${report.messagesPerS} messages/s, ${report.deviceFramesPerS} device frames/s, ${report.megabytesPerS} MB/s, ` +
          `ack p50 ${report.ackLatencyMs.p50} ms p99 ${report.ackLatencyMs.p99} ms, ${report.failed} failed` +
          `${report.relayedPerS !== undefined ? `, relayed ${report.relayedPerS}/s` : ''}\n`,
      );
    }
    return report.connected > 0 ? 0 : 1;
  }

  const spec = makeDemoFleet({
    seed: options.seed,
    ...(options.gateways !== undefined ? { count: options.gateways } : {}),
    ...(credentials ? { credentials } : {}),
  });
  if (options.printSpec) {
    process.stdout.write(`${JSON.stringify(spec, null, 2)}\n`);
    return 0;
  }
  const fleet = createFleet({
    url: options.url,
    ...(options.ca !== undefined ? { ca: options.ca } : {}),
    gateways: spec,
    interval: options.interval,
    speed: options.speed,
    seed: options.seed,
    faultRate: options.faultRate,
    offlineRate: options.offlineRate,
    backfillDays: options.backfillDays,
    protocolVersion: options.mqttVersion,
    log,
    commandQuirks: options.commandQuirks,
    upgrades: options.upgrades,
    ...(options.start !== undefined ? { start: options.start } : {}),
    ...(options.backfillInterval !== undefined ? { backfillIntervalS: options.backfillInterval } : {}),
  });
  const devices = spec.reduce((n, g) => n + g.devices.length, 0);
  log(
    `simulator: ${spec.length} gateways, ${devices} devices → ${options.url} (interval ${options.interval} s, speed ×${options.speed})`,
  );
  const reporter = startReporter({
    stats: () => fleet.stats(),
    write: (line, stats) => {
      if (options.json) process.stdout.write(`${JSON.stringify(stats)}\n`);
      else log(line);
    },
  });
  let stopping = false;
  const stop = async () => {
    if (stopping) process.exit(130);
    stopping = true;
    reporter.stop();
    await fleet.stop();
    reporter.report();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  await fleet.start();
  reporter.report();
  return new Promise<number>(() => {});
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`simulator: ${(error as Error).stack ?? error}\n`);
    process.exit(1);
  },
);
