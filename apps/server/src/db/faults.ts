/**
 * Store faults that pass: the database is unreachable, restarting, failing over, or (SQLite)
 * another connection holds the write lock. A request that meets one answers HTTP 503 with the
 * error envelope (code 503) instead of a server fault; writers keep their work and try again.
 * Anything else (a constraint, a syntax error, a full disk) is a real fault.
 */
import { sql } from 'kysely';
import type { Db } from './index.ts';

/** The store did not answer in time (a hung server, a black-holed network). */
export class StoreUnavailableError extends Error {
  constructor(message = 'the store is unavailable') {
    super(message);
    this.name = 'StoreUnavailableError';
  }
}

/**
 * PostgreSQL SQLSTATEs of a lost or refused connection: class 08 (connection exception),
 * 57P01-57P03 (terminated by an administrator, a crash or a shutdown; the server is starting),
 * 53300 (too many connections); and 57014, a statement cancelled past its time limit
 * (db/timeouts.ts) or by an administrator: the server did not answer in time.
 */
const pgUnavailable = (code: string) => code.startsWith('08') || /^57P0[1-3]$/.test(code) || code === '53300' || code === '57014';

/** Socket errors of a connection that could not be made or was cut. */
const socketCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** node-postgres reports a cut connection with a message and no code. */
const pgMessages =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error and is not queryable|Client was closed and is not queryable|Query read timeout)/;

/** Whether `error` (or what caused it) means the store is unavailable for now. */
export function isStoreUnavailable(error: unknown, depth = 0): boolean {
  if (!(error instanceof Error) || depth > 4) return false;
  if (error instanceof StoreUnavailableError) return true;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    // better-sqlite3: SQLITE_BUSY, SQLITE_BUSY_SNAPSHOT, SQLITE_LOCKED, … (extended codes).
    if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return true;
    if (socketCodes.has(code)) return true;
    if (/^[0-9A-Z]{5}$/.test(code) && pgUnavailable(code)) return true;
  }
  if (pgMessages.test(error.message)) return true;
  if (error instanceof AggregateError && error.errors.some((e) => isStoreUnavailable(e, depth + 1))) return true;
  return isStoreUnavailable(error.cause, depth + 1);
}

/**
 * Whether the store answers a trivial query within `timeoutMs`. A hung server counts as
 * unreachable: the query is not cancelled, only no longer waited for.
 */
export async function storeReachable(db: Db, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const probe = sql`select 1`.execute(db).then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([probe, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
