/**
 * Long read queries off the event loop. A list's full order or its counts read every visible
 * device (30,000 inverters: 15–150 ms on SQLite, measured), and better-sqlite3 runs a query on
 * the calling thread: every other request would wait. On a SQLite file store these run in a
 * worker thread with its own read-only connection (WAL lets it read beside the writer).
 * PostgreSQL runs queries in its own processes, and an in-memory store (tests) cannot be shared:
 * both run the query as usual.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { type Compilable, sql } from 'kysely';
import type { Db } from '../../db/index.ts';
import { isPostgres } from '../../db/migrations/columns.ts';

const workerSource = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');
const statements = new Map();
parentPort.on('message', ({ id, sql, params }) => {
  try {
    let statement = statements.get(sql);
    if (!statement) {
      if (statements.size >= 200) statements.clear();
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    parentPort.postMessage({ id, rows: statement.all(...params) });
  } catch (e) {
    parentPort.postMessage({ id, error: String((e && e.message) || e) });
  }
});
`;

interface Reader {
  worker: Worker;
  next: number;
  waiting: Map<number, { resolve: (rows: unknown[]) => void; reject: (e: Error) => void }>;
}

const readers = new WeakMap<Db, Promise<Reader | null>>();

async function readerFor(db: Db): Promise<Reader | null> {
  let reader = readers.get(db);
  if (!reader) {
    reader = (async () => {
      if (isPostgres(db)) return null;
      const { rows } = await sql<{ file: string }>`select file from pragma_database_list where name = 'main'`.execute(db);
      const file = rows[0]?.file;
      if (!file) return null;
      const driver = createRequire(import.meta.url).resolve('better-sqlite3');
      const worker = new Worker(workerSource, { eval: true, workerData: { file, driver } });
      worker.unref();
      const r: Reader = { worker, next: 0, waiting: new Map() };
      worker.on('message', (m: { id: number; rows?: unknown[]; error?: string }) => {
        const w = r.waiting.get(m.id);
        if (!w) return;
        r.waiting.delete(m.id);
        if (m.error !== undefined) w.reject(new Error(m.error));
        else w.resolve(m.rows ?? []);
      });
      worker.on('error', (e) => {
        for (const w of r.waiting.values()) w.reject(e);
        r.waiting.clear();
        readers.delete(db);
      });
      return r;
    })();
    readers.set(db, reader);
  }
  return reader;
}

/** All rows of a select, read off the event loop where the store allows it. */
export async function readAll<R>(db: Db, query: Compilable<R> & { execute(): Promise<R[]> }): Promise<R[]> {
  const reader = await readerFor(db);
  if (!reader) return query.execute();
  const compiled = query.compile();
  const id = ++reader.next;
  return new Promise<R[]>((resolve, reject) => {
    reader.waiting.set(id, { resolve: resolve as (rows: unknown[]) => void, reject });
    reader.worker.postMessage({ id, sql: compiled.sql, params: compiled.parameters });
  });
}

/** Whether this store's long reads run in a worker (a SQLite file store). */
export const readsOffLoop = async (db: Db) => (await readerFor(db)) !== null;

/** Stop the reader of this store (the app closing). */
export async function closeReader(db: Db): Promise<void> {
  const reader = await readers.get(db);
  readers.delete(db);
  if (reader) await reader.worker.terminate();
}
