/**
 * The real server (main.ts through tsx) as a child process, for tests that kill it: started with
 * an environment, ready once `/healthz` answers on its HTTP port.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { waitFor } from './mqtt.ts';

const root = path.resolve(import.meta.dirname, '../../..');

export interface ServerProcess {
  child: ChildProcess;
  /** What it printed so far (stdout and stderr). */
  output(): string;
}

export async function startServerProcess(env: Record<string, string>, httpPort: number): Promise<ServerProcess> {
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(httpPort) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => {
    output += d;
  });
  child.stderr?.on('data', (d) => {
    output += d;
  });
  try {
    await waitFor(
      async () => {
        if (child.exitCode !== null) throw new Error(`server exited: ${output}`);
        return fetch(`http://127.0.0.1:${httpPort}/healthz`)
          .then((r) => r.ok)
          .catch(() => false);
      },
      60_000,
      'the server to answer /healthz',
    );
  } catch (e) {
    child.kill('SIGKILL');
    throw e;
  }
  return { child, output: () => output };
}

/** Resolves once the child has exited (at once if it already has). */
export const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise<void>((resolve) => child.once('exit', () => resolve()));
