// The load mode against a bare in-process Aedes broker (no auth, no ingest): the broker runs
// here, the load generator in a child process (`cli.ts --load`), so each has a core.
//   npx tsx src/testing/broker-load.ts [--duration 10] [--gateways 100] [--devices-per-gateway 10] [--relay]
// Prints the load report (JSON) with the broker's own count of publishes received.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { startBroker } from './broker.ts';

const args = process.argv.slice(2);
const broker = await startBroker({ record: false });
const cli = path.resolve(import.meta.dirname, '../cli.ts');
const child = spawn(
  process.execPath,
  ['--import', 'tsx', cli, '--load', '--json', '--url', broker.url, '--gateways', '100', ...args],
  {
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
let out = '';
child.stdout.on('data', (chunk) => {
  out += chunk;
});
const code = await new Promise<number>((resolve) => child.on('exit', (c) => resolve(c ?? 1)));
await broker.close();
process.stdout.write(
  `${JSON.stringify({ broker: 'aedes (in-process, concurrency 1000)', publishesReceived: broker.received(), report: JSON.parse(out.trim() || 'null') }, null, 2)}\n`,
);
process.exit(code);
