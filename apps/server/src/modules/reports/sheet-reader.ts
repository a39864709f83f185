/**
 * The first sheet of an uploaded .xlsx, read in a worker thread (sheet-reader.worker.mjs) with
 * its own heap limit and a time limit: parsing a large workbook costs seconds of CPU and
 * hundreds of MB, which the server's event loop and heap must not pay. One worker reads one
 * file at a time (others wait); it stays for the next upload and ends after a minute idle. A
 * worker that runs out of heap or time is ended, and the file counts as one that does not load.
 */
import { Worker } from 'node:worker_threads';

export type CellValue = string | number | boolean | Date | null | undefined;
/** [sheet row number (1-based), column A, column B, …] of each non-empty row (as many columns as asked). */
export type SheetRow = [number, ...CellValue[]];

const WORKER_URL = new URL('./sheet-reader.worker.mjs', import.meta.url);
const TIME_LIMIT_MS = 60_000;
const IDLE_MS = 60_000;
const HEAP_LIMIT_MB = 1024;

interface Job {
  id: number;
  resolve: (rows: SheetRow[] | null) => void;
  reject: (err: Error) => void;
}

let worker: Worker | null = null;
let current: Job | null = null;
let idleTimer: NodeJS.Timeout | null = null;
let nextId = 0;
let queue: Promise<unknown> = Promise.resolve();

function finish(outcome: { rows: SheetRow[] | null } | { err: Error }, end = false) {
  const job = current;
  current = null;
  if (end && worker) {
    const w = worker;
    worker = null;
    void w.terminate();
  }
  if (!job) return;
  if ('err' in outcome) job.reject(outcome.err);
  else job.resolve(outcome.rows);
}

function spawn(): Worker {
  const w = new Worker(WORKER_URL, { resourceLimits: { maxOldGenerationSizeMb: HEAP_LIMIT_MB } });
  w.unref();
  w.on('message', (m: { id: number; ok: boolean; rows?: SheetRow[] }) => {
    if (current && m.id === current.id) finish({ rows: m.ok ? (m.rows ?? []) : null });
  });
  w.on('error', (err: Error & { code?: string }) => {
    if (worker === w) worker = null;
    // Out of heap: the file was too much to read, not a server fault.
    finish(err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? { rows: null } : { err });
  });
  w.on('exit', () => {
    if (worker === w) worker = null;
    finish({ err: new Error('sheet reader ended without an answer') });
  });
  return w;
}

function run(bytes: Buffer, maxRows: number, columns: number): Promise<SheetRow[] | null> {
  if (idleTimer) clearTimeout(idleTimer);
  worker ??= spawn();
  const w = worker;
  return new Promise<SheetRow[] | null>((resolve, reject) => {
    const id = ++nextId;
    const timer = setTimeout(() => {
      if (current?.id === id) finish({ rows: null }, true);
    }, TIME_LIMIT_MS);
    current = {
      id,
      resolve: (rows) => {
        clearTimeout(timer);
        resolve(rows);
      },
      reject: (err) => {
        clearTimeout(timer);
        reject(err);
      },
    };
    const copy = new Uint8Array(bytes);
    w.postMessage({ id, bytes: copy, maxRows, columns }, [copy.buffer]);
  }).finally(() => {
    idleTimer = setTimeout(() => {
      const idle = worker;
      worker = null;
      void idle?.terminate();
    }, IDLE_MS);
    idleTimer.unref();
  });
}

/**
 * The first `columns` cells (A, B, …) of the first sheet's non-empty rows (at most `maxRows`), or
 * null when the workbook does not load.
 */
export function readFirstSheet(bytes: Buffer, maxRows: number, columns = 2): Promise<SheetRow[] | null> {
  const result = queue.then(() => run(bytes, maxRows, columns));
  queue = result.catch(() => undefined);
  return result;
}
