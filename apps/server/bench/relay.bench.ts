/**
 * Throughput of the embedded broker's relay (not a test): N gateways publish QoS 1 data
 * messages of about 1 KB as fast as their acks allow (a window of in-flight messages each)
 * for a few seconds; the handler is a no-op counter. The gateways run in a child process so
 * the broker has its event loop to itself, as in production.
 *
 *   npx tsx apps/server/bench/relay.bench.ts [gateways=50] [seconds=10] [window=16]
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type DataMessage, registersToHex, topics } from '@sunfleet/contracts';
import mqtt from 'mqtt';
import pino from 'pino';
import { createDb, migrate } from '../src/db/index.ts';
import { startEmbeddedBroker } from '../src/telemetry/broker/embedded.ts';
import { provisionGateway } from '../src/telemetry/gateways.ts';

const DEVICES_PER_MESSAGE = 4;

function payload(seq: number): Buffer {
  const regs = Array.from({ length: 40 }, (_, i) => (i * 97 + seq) & 0xffff);
  const msg: DataMessage = {
    v: 1,
    seq,
    ts: Date.now(),
    devices: Array.from({ length: DEVICES_PER_MESSAGE }, (_, d) => ({
      sn: `INV-BENCH-${d}`,
      protocol: 'sunfleet-hybrid-3p',
      unit: d + 1,
      blocks: [{ fc: 3 as const, addr: 30000, regs: registersToHex(regs) }],
    })),
  };
  return Buffer.from(JSON.stringify(msg));
}

async function runGateways(port: number, gateways: { sn: string; secret: string }[], seconds: number, window: number) {
  let acked = 0;
  const until = Date.now() + seconds * 1000;
  await Promise.all(
    gateways.map(async ({ sn, secret }) => {
      const c = await mqtt.connectAsync({
        host: '127.0.0.1',
        port,
        clientId: sn,
        username: sn,
        password: secret,
        protocolVersion: 4,
      });
      const topic = topics.up(sn, 'data');
      let seq = 0;
      await new Promise<void>((resolve) => {
        let inflight = 0;
        const next = () => {
          while (inflight < window && Date.now() < until) {
            inflight++;
            c.publish(topic, payload(seq++), { qos: 1 }, () => {
              inflight--;
              acked++;
              next();
            });
          }
          if (inflight === 0) resolve();
        };
        next();
      });
      await c.endAsync();
    }),
  );
  process.send?.({ acked });
}

async function main() {
  const [gatewaysArg, secondsArg, windowArg] = process.argv.slice(2);
  const n = Number(gatewaysArg ?? 50);
  const seconds = Number(secondsArg ?? 10);
  const window = Number(windowArg ?? 16);
  const log = pino({ level: 'warn' });
  const { db } = createDb({ databaseUrl: null, sqliteFile: ':memory:' });
  await migrate(db);
  const gateways = [];
  for (let i = 0; i < n; i++) gateways.push(await provisionGateway(db, { sn: `BENCH-${String(i).padStart(4, '0')}` }));
  let handled = 0;
  let bytes = 0;
  let first = 0;
  let last = 0;
  const broker = await startEmbeddedBroker({
    db,
    log,
    handler: {
      message(_sn, _channel, p, at) {
        if (handled === 0) first = at;
        last = at;
        handled++;
        bytes += p.length;
      },
    },
    port: 0,
    host: '127.0.0.1',
    serverCredentials: { username: 'sunfleet.bench', password: 'bench' },
    rateLimit: false,
  });
  const child = spawn(
    process.execPath,
    [...process.execArgv, fileURLToPath(import.meta.url), '--gateways', String(broker.port), String(seconds), String(window)],
    { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  child.send({ gateways: gateways.map(({ sn, secret }) => ({ sn, secret })) });
  const result = await new Promise<{ acked: number }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as { acked: number }));
    child.once('exit', (code) => reject(new Error(`gateway process exited with ${code}`)));
  });
  // From the first message handled to the last: process start-up and connects are not counted.
  const elapsed = Math.max(last - first, 1) / 1000;
  const perSec = handled / elapsed;
  console.log(
    [
      `gateways ${n}, window ${window}, ${seconds} s, payload ≈ ${Math.round(bytes / Math.max(handled, 1))} B`,
      `handled ${handled} messages in ${elapsed.toFixed(1)} s: ${Math.round(perSec)} messages/s (${Math.round(perSec * DEVICES_PER_MESSAGE)} device frames/s)`,
      `acked by the broker: ${result.acked}; stats ${JSON.stringify(broker.stats())}`,
    ].join('\n'),
  );
  child.kill();
  await broker.close();
  await db.destroy();
}

if (process.argv[2] === '--gateways') {
  const [, port, seconds, window] = process.argv.slice(2);
  process.once('message', (m) => {
    const { gateways } = m as { gateways: { sn: string; secret: string }[] };
    runGateways(Number(port), gateways, Number(seconds), Number(window)).then(
      () => setTimeout(() => process.exit(0), 200),
      (e) => {
        console.error(e);
        process.exit(1);
      },
    );
  });
} else {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
