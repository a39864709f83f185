/** Run the simulator as a child process against this server's broker (demo mode). */
import { type ChildProcess, spawn } from 'node:child_process';
import type { Logger } from 'pino';
import { SHUTDOWN_DRAIN_MS } from '../shutdown.ts';
import { simulatorArgs } from './demo-fleet.ts';

export interface SimulatorProcess {
  stop(): Promise<void>;
}

export function startSimulator(opts: {
  url: string;
  /** The certificate (PEM) the simulated gateways trust for an mqtts:// URL; null: the system's. */
  caFile?: string | null;
  credentialsFile: string;
  intervalS: number;
  backfillDays: number;
  /** The server's firmware public key: the simulated gateways check images with it. */
  firmwareKey: string;
  log: Logger;
}): SimulatorProcess {
  const args = simulatorArgs([
    '--url',
    opts.url,
    '--credentials',
    opts.credentialsFile,
    '--interval',
    String(opts.intervalS),
    '--firmware-key',
    opts.firmwareKey,
  ]);
  if (opts.caFile) args.push('--ca', opts.caFile);
  if (opts.backfillDays > 0) args.push('--backfill-days', String(opts.backfillDays), '--backfill-interval', '300');
  const child: ChildProcess = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const forward = (level: 'info' | 'warn') => (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n').filter(Boolean)) opts.log[level]({ part: 'simulator' }, line);
  };
  // The simulator reports progress on stderr; its lines are information, not warnings.
  child.stdout?.on('data', forward('info'));
  child.stderr?.on('data', forward('info'));
  child.on('exit', (code, signal) => {
    if (code !== 0 && code !== 130 && signal === null) opts.log.warn({ code }, 'simulator exited');
  });
  return {
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGINT');
        // Killed at the end of the drain, so that it never outlives the server's own shutdown limit.
        setTimeout(() => child.kill('SIGKILL'), SHUTDOWN_DRAIN_MS).unref();
      }),
  };
}
