/**
 * Gateway presence: online/offline, last online and last seen times, RSSI, versions,
 * communication type and upload interval.
 *
 * Sources: connect and disconnect of a gateway's MQTT session (embedded broker only), its
 * `up/state` messages (`online: true` with details on connect; `{v:1, online:false}` as its
 * last will), and any other message it sends (it is alive: `last_seen_at`, at most one write
 * per gateway per `seenEveryMs`).
 *
 * Events are merged per gateway in memory and written every `flushMs`: a reconnect storm of
 * 10,000 gateways becomes a few grouped `update … where sn in (…)` statements (plus one small
 * update per gateway that sent details) in a handful of transactions, not 10,000 transactions.
 * Times in a grouped statement are the latest of the group: exact to within `flushMs`.
 *
 * A write the store refuses (an outage) is not lost: its gateways are merged, older first, into
 * the next window, and its connection-history changes are kept in order, until a write succeeds.
 */
import { type StateMessage, StatePayload } from '@sunfleet/contracts';
import { type Expression, type SqlBool, sql, type Updateable, type UpdateObject } from 'kysely';
import type { Logger } from 'pino';
import { Compile } from 'typebox/compile';
import type { Db } from '../../db/index.ts';
import type { Database, GatewaysTable } from '../../db/schema.ts';
import { type PresenceChange, recordGatewaySessions } from '../gateway-sessions.ts';

type GatewayUpdate = UpdateObject<Database, 'gateways'>;

const checkState = Compile(StatePayload);

export interface PresenceOptions {
  db: Db;
  log: Logger;
  /** How often merged events are written. */
  flushMs?: number;
  /** At most one `last_seen_at` write per gateway per this long. */
  seenEveryMs?: number;
  /** Gateways per statement / transaction. */
  chunk?: number;
  /**
   * A gateway said it is online (`up/state`, sent once it has subscribed to its commands): the
   * command channel sends it what waits for it. Called at once, not after the presence write.
   */
  onOnline?: (sn: string) => void;
}

export interface PresenceStats {
  /** `up/state` messages refused (not JSON or not the schema). */
  badState: number;
  flushes: number;
  statements: number;
  failedFlushes: number;
  /**
   * Gateways with a live session as this process sees them: a connect, an online state or any
   * message opens one; a disconnect or an offline state (the last will) ends it.
   */
  online: number;
}

interface Pending {
  /** Connection state after the events merged so far. */
  online: boolean;
  /** When it came online in this window; written to `last_online_at`. */
  onlineAt?: number;
  /** A new session for sure (connect, or offline → online): overwrite `last_online_at`. */
  newSession: boolean;
  /** When its session ended in this window (connection history). */
  offlineAt?: number;
  seenAt?: number;
  details?: Pick<Updateable<GatewaysTable>, 'rssi' | 'sw_version' | 'hw_version' | 'comm_type' | 'upload_interval_s'>;
}

export class Presence {
  readonly #db: Db;
  readonly #log: Logger;
  readonly #flushMs: number;
  readonly #seenEveryMs: number;
  readonly #chunk: number;
  readonly #onOnline: ((sn: string) => void) | undefined;
  #pending = new Map<string, Pending>();
  /** Gateway rows of writes the store refused, to write before (under) the next window. */
  #unwritten = new Map<string, Pending>();
  /** Connection-history changes the store refused, in order. */
  #unwrittenChanges: PresenceChange[] = [];
  /** Last `last_seen_at` queued per gateway, for the throttle. */
  readonly #seenQueued = new Map<string, number>();
  #timer: NodeJS.Timeout | null = null;
  #flushing: Promise<void> | null = null;
  #closed = false;
  readonly stats: PresenceStats = { badState: 0, flushes: 0, statements: 0, failedFlushes: 0, online: 0 };
  readonly #online = new Set<string>();

  constructor(opts: PresenceOptions) {
    this.#db = opts.db;
    this.#log = opts.log;
    this.#flushMs = opts.flushMs ?? 200;
    this.#seenEveryMs = opts.seenEveryMs ?? 30_000;
    this.#chunk = opts.chunk ?? 500;
    this.#onOnline = opts.onOnline;
  }

  /** A gateway's MQTT session started. */
  connected(sn: string, at: number = Date.now()): void {
    const p = this.#entry(sn, true);
    if (!p) return;
    p.online = true;
    p.newSession = true;
    p.onlineAt = at;
    this.#seen(p, sn, at);
    this.#live(sn, true);
  }

  /** A gateway's MQTT session ended. */
  disconnected(sn: string, at: number = Date.now()): void {
    const p = this.#entry(sn, false);
    if (!p) return;
    p.online = false;
    p.offlineAt = at;
    this.#seenQueued.delete(sn);
    this.#live(sn, false);
  }

  /** Any other message from the gateway: it is alive (and so online). */
  seen(sn: string, at: number = Date.now()): void {
    if (this.#closed) return;
    const last = this.#seenQueued.get(sn);
    if (last !== undefined && at - last < this.#seenEveryMs) return;
    this.#cameOnline(sn, at);
  }

  /** An `up/state` message; false (and counted) when the payload is not a valid state. */
  state(sn: string, payload: Buffer, at: number = Date.now()): boolean {
    let msg: unknown;
    try {
      msg = JSON.parse(payload.toString('utf8'));
    } catch {
      msg = undefined;
    }
    if (!checkState.Check(msg)) {
      this.stats.badState++;
      this.#log.warn({ sn }, 'gateway state message refused: not a valid state payload');
      return false;
    }
    const state = msg as StateMessage;
    if (!state.online) {
      this.disconnected(sn, at);
      return true;
    }
    const p = this.#cameOnline(sn, at);
    if (p) {
      p.details ??= {};
      const d = p.details;
      if (state.rssi !== undefined) d.rssi = state.rssi;
      if (state.sw !== undefined) d.sw_version = state.sw;
      if (state.hw !== undefined) d.hw_version = state.hw;
      if (state.comm !== undefined) d.comm_type = state.comm;
      if (state.interval !== undefined) d.upload_interval_s = state.interval;
      try {
        this.#onOnline?.(sn);
      } catch (err) {
        this.#log.error({ err, sn }, 'gateway online hook failed');
      }
    }
    return true;
  }

  /** Write everything merged so far (also done every `flushMs`). */
  async flush(): Promise<void> {
    while (this.#flushing) await this.#flushing;
    if (this.#timer) {
      clearTimeout(this.#timer);
      this.#timer = null;
    }
    if (this.#pending.size === 0 && this.#unwritten.size === 0 && this.#unwrittenChanges.length === 0) return;
    const changes = this.#unwrittenChanges.concat(sessionChanges(this.#pending));
    const batch = this.#unwritten;
    for (const [sn, p] of this.#pending) batch.set(sn, merged(batch.get(sn), p));
    this.#pending = new Map();
    this.#unwritten = new Map();
    this.#unwrittenChanges = [];
    this.#flushing = this.#write(batch, changes).finally(() => {
      this.#flushing = null;
    });
    await this.#flushing;
    const refused = this.#unwritten.size > 0 || this.#unwrittenChanges.length > 0;
    if (refused && !this.#timer && !this.#closed) this.#schedule(RETRY_MS);
  }

  /** Stop taking events (a shutting-down broker's disconnects are not news) and write the rest. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.flush();
  }

  /** Online without a connection event: soft (keeps `last_online_at` if the row is online already). */
  #cameOnline(sn: string, at: number): Pending | null {
    const p = this.#entry(sn, true);
    if (!p) return null;
    if (!p.online) p.newSession = true; // offline → online within this window
    p.online = true;
    p.onlineAt ??= at;
    this.#seen(p, sn, at);
    this.#live(sn, true);
    return p;
  }

  #live(sn: string, online: boolean): void {
    if (online) this.#online.add(sn);
    else this.#online.delete(sn);
    this.stats.online = this.#online.size;
  }

  #seen(p: Pending, sn: string, at: number): void {
    p.seenAt = at;
    this.#seenQueued.set(sn, at);
  }

  #entry(sn: string, online: boolean): Pending | null {
    if (this.#closed) return null;
    let p = this.#pending.get(sn);
    if (!p) {
      // `online` here is only the starting point; the caller sets the real state.
      p = { online, newSession: false };
      this.#pending.set(sn, p);
    }
    if (!this.#timer && !this.#flushing) this.#schedule();
    return p;
  }

  #schedule(delayMs = this.#flushMs): void {
    this.#timer = setTimeout(() => {
      this.#timer = null;
      void this.flush().then(() => {
        if (this.#pending.size > 0 && !this.#timer) this.#schedule();
      });
    }, delayMs);
    this.#timer.unref();
  }

  async #write(batch: Map<string, Pending>, changes: PresenceChange[]): Promise<void> {
    this.stats.flushes++;
    // Grouped statements for the common cases; one statement per gateway that sent details.
    const groups = new Map<string, { sns: string[]; onlineAt: number; seenAt: number; p: Pending }>();
    const detailed: [string, Pending][] = [];
    for (const [sn, p] of batch) {
      if (p.details) {
        detailed.push([sn, p]);
        continue;
      }
      const key = `${p.online}|${p.newSession}|${p.onlineAt !== undefined}`;
      let g = groups.get(key);
      if (!g) {
        g = { sns: [], onlineAt: 0, seenAt: 0, p };
        groups.set(key, g);
      }
      g.sns.push(sn);
      g.onlineAt = Math.max(g.onlineAt, p.onlineAt ?? 0);
      g.seenAt = Math.max(g.seenAt, p.seenAt ?? 0);
    }
    const statements: { sns: string[]; run: (trx: Db) => Promise<unknown> }[] = [];
    for (const g of groups.values()) {
      for (let i = 0; i < g.sns.length; i += this.#chunk) {
        const sns = g.sns.slice(i, i + this.#chunk);
        const set = this.#columns(g.p, g.onlineAt, g.seenAt);
        const ended = g.p.online ? null : sessionEnds(sns, batch);
        statements.push({
          sns,
          run: (trx) => {
            const update = trx.updateTable('gateways').set(set).where('sn', 'in', sns);
            return (ended ? update.where(ended) : update).execute();
          },
        });
      }
    }
    for (const [sn, p] of detailed) {
      const set = { ...this.#columns(p, p.onlineAt ?? 0, p.seenAt ?? 0), ...p.details };
      statements.push({ sns: [sn], run: (trx) => trx.updateTable('gateways').set(set).where('sn', '=', sn).execute() });
    }
    for (let i = 0; i < statements.length; i += this.#chunk) {
      const part = statements.slice(i, i + this.#chunk);
      try {
        await this.#db.transaction().execute(async (trx) => {
          for (const s of part) await s.run(trx);
        });
        this.stats.statements += part.length;
      } catch (e) {
        this.stats.failedFlushes++;
        // Written again with the next window (merged under its newer events).
        for (const s of part) for (const sn of s.sns) this.#unwritten.set(sn, merged(this.#unwritten.get(sn), batch.get(sn)!));
        this.#log.error({ err: e, gateways: part.reduce((n, s) => n + s.sns.length, 0) }, 'gateway presence write failed');
      }
    }
    try {
      await recordGatewaySessions(this.#db, changes);
    } catch (e) {
      this.#unwrittenChanges = changes.concat(this.#unwrittenChanges);
      this.#log.error({ err: e, changes: changes.length }, 'gateway connection history write failed; retrying');
    }
  }

  #columns(p: Pending, onlineAt: number, seenAt: number): GatewayUpdate {
    const set: GatewayUpdate = { online: p.online ? 1 : 0 };
    if (p.onlineAt !== undefined) {
      set.last_online_at = p.newSession
        ? onlineAt
        : sql<number>`case when online = 0 or last_online_at is null then ${onlineAt} else last_online_at end`;
    }
    if (p.seenAt !== undefined) set.last_seen_at = seenAt;
    return set;
  }
}

/**
 * An offline write applies only to the session that ended: where the row's `last_online_at` is
 * not later than the gateway's disconnect. A gateway that left this process's broker and came
 * online through another process (another broker, or another member of a shared subscription)
 * is not marked offline by this process's late write.
 */
function sessionEnds(sns: readonly string[], batch: Map<string, Pending>): Expression<SqlBool> | null {
  const arms = sns.flatMap((sn) => {
    const at = batch.get(sn)?.offlineAt;
    return at === undefined ? [] : [sql`when ${sn} then ${at}`];
  });
  if (arms.length === 0) return null;
  return sql<SqlBool>`(last_online_at is null or last_online_at <= case sn ${sql.join(arms, sql` `)} else last_online_at end)`;
}

/** Retry interval of a write the store refused. */
const RETRY_MS = 1000;

/** Connection history: the periods that began or ended in a window. */
function sessionChanges(batch: Map<string, Pending>): PresenceChange[] {
  const changes: PresenceChange[] = [];
  for (const [sn, p] of batch) {
    if (p.newSession && p.onlineAt !== undefined) changes.push({ sn, online: true, at: p.onlineAt });
    if (p.offlineAt !== undefined) changes.push({ sn, online: false, at: p.offlineAt });
  }
  return changes;
}

/** A gateway's events of an earlier window (not written) followed by those of a later one. */
function merged(older: Pending | undefined, newer: Pending): Pending {
  if (!older) return newer;
  const cameBack = !older.online && newer.online && newer.onlineAt !== undefined; // offline → online across the two
  const newSession = newer.newSession || cameBack;
  const p: Pending = {
    online: newer.online,
    newSession: newSession || older.newSession,
  };
  const onlineAt = newSession ? newer.onlineAt : (older.onlineAt ?? newer.onlineAt);
  if (onlineAt !== undefined) p.onlineAt = onlineAt;
  const offlineAt = newer.offlineAt ?? older.offlineAt;
  if (offlineAt !== undefined) p.offlineAt = offlineAt;
  const seenAt = newer.seenAt ?? older.seenAt;
  if (seenAt !== undefined) p.seenAt = seenAt;
  if (older.details || newer.details) p.details = { ...older.details, ...newer.details };
  return p;
}
