/**
 * SQLite WAL checkpoints off the event loop. By default the connection that commits past 1,000
 * WAL pages copies them into the database file itself, inside the commit: measured, that was
 * 7.5 of the 12 µs per device frame that commits cost ingest. With `wal_autocheckpoint = 0` on
 * the main connection and this worker checkpointing on its own connection (PASSIVE: it never
 * blocks the writer), the copying runs on the other core.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

const workerSource = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 5000');
let timer = setInterval(() => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch (e) { parentPort.postMessage(String(e && e.message || e)); }
}, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {}
  db.close();
  parentPort.close();
});
`;

export interface WalCheckpointer {
  stop(): Promise<void>;
}

/** A worker that failed (the file unreadable for a moment) is started again after this long. */
const RESTART_MS = 5000;

/**
 * Checkpoint the WAL of the SQLite file every `intervalMs` from a worker thread. A failing
 * checkpoint or a worker that dies is reported to `onError`, never thrown: the worker is started
 * again after a pause.
 */
export function startWalCheckpointer(
  file: string,
  opts: { intervalMs?: number; restartMs?: number; onError?: (message: string) => void } = {},
): WalCheckpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const workerData = { file, driver, intervalMs: opts.intervalMs ?? 500 };
  let stopped = false;
  let restart: NodeJS.Timeout | null = null;
  let worker: Worker | null = null;
  const start = () => {
    restart = null;
    const w = new Worker(workerSource, { eval: true, workerData });
    worker = w;
    w.on('message', (m: string) => opts.onError?.(m));
    w.on('error', (error) => opts.onError?.(`WAL checkpointer failed: ${error.message}`));
    w.on('exit', () => {
      if (worker === w) worker = null;
      if (!stopped) {
        restart = setTimeout(start, opts.restartMs ?? RESTART_MS);
        restart.unref();
      }
    });
    w.unref();
  };
  start();
  return {
    async stop() {
      stopped = true;
      if (restart) clearTimeout(restart);
      const w = worker;
      if (!w) return;
      const exited = new Promise<void>((resolve) => w.once('exit', () => resolve()));
      w.postMessage('stop');
      await exited;
    },
  };
}
