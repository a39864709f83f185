/**
 * One leader among the server processes, for work that must run once however many processes run
 * it (offline detection, housekeeping, the fault e-mail notifier).
 *
 * PostgreSQL: a session advisory lock (`pg_try_advisory_lock`) held on a connection of its own,
 * outside the pool (a pooled connection goes back to the pool and takes the lock with it). The
 * lock's key is the schema and the leadership's name, so two deployments (or two test files) in
 * one database do not share a leader. Every `checkMs` a process that does not lead tries to take
 * the lock, and the leader checks its connection with `select 1`:
 *
 * - the leader stops (`stop()`): it unlocks, and another process leads within `checkMs`;
 * - the leader dies or its connection is cut: the server ends the session and frees the lock;
 *   the leader hears the connection's error and stops leading at once;
 * - the leader hangs or the network between it and the server goes silent: the session is set
 *   to end after `3 × checkMs` idle (`idle_session_timeout`), which frees the lock; the leader's
 *   own check times out after `checkMs` and it stops leading before that.
 *
 * So leadership passes within about `4 × checkMs` in the worst case. The jobs it guards are
 * idempotent or claim their rows, so a short overlap in that window does no harm twice.
 *
 * SQLite: one process owns the file; it always leads.
 */
import pg from 'pg';
import { type Logger, silentLogger } from '../log.ts';

export interface Leader {
  readonly name: string;
  /** Whether this process leads now. */
  isLeader(): boolean;
  /** One check now (also what the timer runs): take the lock or confirm it; resolves to isLeader(). */
  check(): Promise<boolean>;
  /** Stop checking and give the leadership up (the lock is freed for the others at once). */
  stop(): Promise<void>;
}

export interface LeaderOptions {
  /** PostgreSQL URL (with the schema's search_path when not the default); null: SQLite, always leader. */
  databaseUrl: string | null;
  /** What is led, e.g. `jobs`: processes with the same name compete for the same lock. */
  name: string;
  log?: Logger;
  /** How often to try to take the lock or to confirm it (default 5 s). */
  checkMs?: number;
  /** Told when this process starts or stops leading. */
  onChange?: (leading: boolean) => void;
}

const DEFAULT_CHECK_MS = 5000;

/** SQLite or tests: a leader that always leads. */
export const soleLeader = (name = 'jobs'): Leader => ({
  name,
  isLeader: () => true,
  check: async () => true,
  stop: async () => {},
});

export function startLeader(opts: LeaderOptions): Leader {
  if (!opts.databaseUrl) return soleLeader(opts.name);
  const databaseUrl = opts.databaseUrl;
  const log = opts.log ?? silentLogger;
  const checkMs = opts.checkMs ?? DEFAULT_CHECK_MS;
  let client: pg.Client | null = null;
  let leading = false;
  let stopped = false;
  let running: Promise<boolean> | null = null;

  const setLeading = (value: boolean) => {
    if (value === leading) return;
    leading = value;
    log.info({ leader: opts.name, leading: value }, value ? 'this process leads' : 'this process no longer leads');
    opts.onChange?.(value);
  };

  /** The connection is gone or cannot be trusted: leadership with it (the server frees the lock when the session ends). */
  const drop = (c: pg.Client, err?: unknown) => {
    if (client !== c) return;
    client = null;
    setLeading(false);
    if (err) log.warn({ err, leader: opts.name }, 'leader connection lost');
    c.end().catch(() => undefined);
  };

  const connect = async (): Promise<pg.Client> => {
    const c = new pg.Client({
      connectionString: databaseUrl,
      connectionTimeoutMillis: checkMs,
      keepAlive: true,
      application_name: `sunfleet-leader:${opts.name}`.slice(0, 63),
    });
    c.on('error', (err) => drop(c, err));
    c.on('end', () => drop(c));
    client = c;
    try {
      await c.connect();
      // A session that stays silent this long (a hung or cut-off leader) is ended by the server,
      // which frees its lock; a leader checks far more often than that.
      await c.query(`set idle_session_timeout = ${3 * checkMs}`).catch(() => undefined);
      await c.query(`set statement_timeout = ${checkMs}`);
    } catch (err) {
      drop(c);
      throw err;
    }
    return c;
  };

  /** A query that fails by itself after `checkMs`: a silent network must not hold a check forever. */
  const timed = <T>(c: pg.Client, text: string, values: unknown[] = []): Promise<pg.QueryResult<T & pg.QueryResultRow>> => {
    let timer: NodeJS.Timeout | undefined;
    return Promise.race([
      c.query<T & pg.QueryResultRow>(text, values),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`leader check took over ${checkMs} ms`)), checkMs);
      }),
    ]).finally(() => clearTimeout(timer));
  };

  const once = async (): Promise<boolean> => {
    if (stopped) return false;
    let c = client;
    try {
      c ??= await connect();
      if (leading) {
        await timed(c, 'select 1');
      } else {
        const r = await timed<{ ok: boolean }>(
          c,
          `select pg_try_advisory_lock(hashtextextended(current_schema() || ':' || $1, 0)) as ok`,
          [opts.name],
        );
        if (stopped) return false;
        setLeading(r.rows[0]?.ok === true);
      }
    } catch (err) {
      if (c) drop(c, err);
      else log.warn({ err, leader: opts.name }, 'leader connection failed; trying again');
    }
    return leading;
  };

  const check = () => {
    running ??= once().finally(() => {
      running = null;
    });
    return running;
  };

  const timer = setInterval(() => void check(), checkMs);
  timer.unref();
  void check();

  return {
    name: opts.name,
    isLeader: () => leading && !stopped,
    check,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
      const c = client;
      client = null;
      if (leading) {
        leading = false;
        opts.onChange?.(false);
      }
      if (!c) return;
      // Ending the session frees the lock; unlock first so a slow close does not hold it.
      await c.query('select pg_advisory_unlock_all()').catch(() => undefined);
      await c.end().catch(() => undefined);
    },
  };
}
