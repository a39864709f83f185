/**
 * Ingest: authorised gateway messages in (`TelemetryHandler.message`), decoded rows out, written
 * in batches of one transaction each, every `flushMs` or as soon as `maxBatch` device frames wait.
 * `message()` never throws and never waits for the store; a frame it accepts is written (or, only
 * if the store refuses it alone after retries while healthy, counted as `writeFailed`). A message
 * is acknowledged (its `ack` called) only after every frame in it has committed or been refused.
 */
import { sql } from 'kysely';
import { isStoreUnavailable } from '../../db/faults.ts';
import type { Db, Dialect } from '../../db/index.ts';
import type { Logger } from '../../log.ts';
import type { TelemetryHandler } from '../types.ts';
import { type BadFrameReason, BadFrames } from './bad-frames.ts';
import { type Batch, BatchWriter } from './batch.ts';
import { decodeMessages, type EdgeResult, type EdgeWorker, type RawMessage, startEdgeWorker } from './edge.ts';
import { Registry } from './registry.ts';
import { RollupWriter } from './rollup-store.ts';
import type { RawSqlite } from './sql-batch.ts';

export interface IngestOptions {
  db: Db;
  dialect: Dialect;
  log: Logger;
  /** Longest a frame waits before its batch is written. */
  flushMs?: number;
  /** Called after each committed batch: its commit time and size (metrics). */
  onCommit?: (ms: number, frames: number) => void;
  /** Called after each committed batch with the plants that got new samples (not awaited). */
  onBatch?: (plants: ReadonlySet<number>) => void;
  /** Device frames per batch (one transaction). */
  maxBatch?: number;
  now?: () => number;
  /** Offline after this many upload intervals of silence (as the offline job). */
  offlineFactor?: number;
  /** Reload cached gateways and devices after this long (picks up bindings and time zones). */
  cacheTtlMs?: number;
  /**
   * Other ingest processes take frames of the same devices (a shared subscription spreads a
   * gateway's messages over the group): each batch reads its device days from the store under a
   * per-device lock instead of keeping them in memory (PostgreSQL).
   */
  sharedDevices?: boolean;
  /** Warn (at most every 10 s) while more than this many device frames wait. */
  queueWarnAt?: number;
  /**
   * Back-pressure (`ready()`): above this many waiting device frames, publishers are held until
   * the backlog is below half of it. Default 8 batches (about half a second of full-speed ingest).
   */
  highWaterFrames?: number;
  /**
   * SQLite only: the better-sqlite3 connection under `db`, so that hot statements are prepared
   * once (see sql-batch.ts). Optional; without it every statement goes through Kysely.
   */
  sqlite?: RawSqlite | null;
  /** Parse and decode in a worker thread (edge.ts): for production and benchmarks; tests decode inline. */
  decodeInWorker?: boolean;
}

export interface IngestStats {
  /** Messages handed to `message()`. */
  messages: number;
  /** Messages acknowledged: every frame in them committed or refused. */
  acknowledged: number;
  /** Messages not taken because ingest was closing (never acknowledged: the gateway resends them). */
  notTaken: number;
  /** Device frames that passed the edge checks (counted when their batch is decoded). */
  deviceFrames: number;
  /** Device frames stored as new samples. */
  stored: number;
  /** Device frames already stored (same device and time): dropped, rollups untouched. */
  duplicates: number;
  batches: number;
  failedBatches: number;
  lastFlushMs: number;
  averageFlushMs: number;
  /** Device frames waiting (estimated from the average per message for those not decoded yet). */
  queueLength: number;
  badFrames: Record<BadFrameReason, number>;
  badFramesTotal: number;
  /** Times the backlog went over the high-water mark and publishers were held. */
  heldSpells: number;
}

export interface Ingest extends TelemetryHandler {
  /** Write everything accepted so far. */
  flush(): Promise<void>;
  stats(): IngestStats;
  /** Stop the timer and write what is queued. */
  close(): Promise<void>;
  /** Drop cached gateways/devices (all when no argument), e.g. after a plant binding changed. */
  forget(opts?: { gatewaySn?: string; deviceSn?: string }): void;
}

/** Messages per request to the edge worker. */
const EDGE_CHUNK = 256;

/** A message's acknowledgement, due once each frame decoded from it is committed or refused. */
interface Receipt {
  left: number;
  ack: () => void;
}
/** Decoded frames carry their message's receipt (set in this thread after decoding). */
type Carrier = { receipt?: Receipt };

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

export function createIngest(opts: IngestOptions): Ingest {
  const { db, dialect, log } = opts;
  const flushMs = opts.flushMs ?? 50;
  const maxBatch = opts.maxBatch ?? 2000;
  const now = opts.now ?? Date.now;
  const queueWarnAt = opts.queueWarnAt ?? maxBatch * 50;
  const highWater = opts.highWaterFrames ?? maxBatch * 8;
  const lowWater = Math.floor(highWater / 2);
  const ttlMs = opts.cacheTtlMs ?? 5 * 60_000;

  const bad = new BadFrames(log, now);
  const registry = new Registry({ offlineFactor: opts.offlineFactor ?? 3, ttlMs });
  const raw = dialect === 'sqlite' ? (opts.sqlite ?? null) : null;
  const rollups = new RollupWriter(dialect, ttlMs, raw, opts.sharedDevices === true && dialect === 'postgres');
  const writer = new BatchWriter(dialect, registry, rollups, raw);
  let edge: EdgeWorker | null = null;
  if (opts.decodeInWorker) {
    const failed = (error: unknown) => log.error({ err: error }, 'ingest edge worker failed; decoding in the main thread');
    try {
      edge = startEdgeWorker(failed);
    } catch (error) {
      failed(error);
    }
  }

  // Messages wait as received (buffers, off the JS heap) and are decoded shortly before their
  // batch is written (in a worker, a chunk ahead): decoded frames live for about one batch only,
  // which keeps garbage collection cheap.
  let inbox: RawMessage[] = [];
  let decoded: Batch = { readings: [], events: [] };
  /** Requests at the edge worker, and the messages in them. */
  const atEdge = new Set<Promise<void>>();
  let messagesAtEdge = 0;
  /** A batch the store refused, kept decoded for its retry. */
  let retry: Batch | null = null;
  let framesPerMessage = 1;
  const counters = {
    messages: 0,
    acknowledged: 0,
    notTaken: 0,
    deviceFrames: 0,
    stored: 0,
    duplicates: 0,
    batches: 0,
    failedBatches: 0,
  };
  let lastFlushMs = 0;
  let totalFlushMs = 0;
  let lastWriteEnd = 0;
  let lastQueueWarn = 0;
  let failures = 0;
  /** After repeated failures, a refused batch is retried one frame at a time to find the culprit. */
  let isolating = false;
  let writing: Promise<void> | null = null;
  let kickPending = false;
  let closed = false;
  /** Publishers held until the backlog drains (see `ready`). */
  let held: { promise: Promise<void>; release: () => void } | null = null;
  let heldSpells = 0;

  const retrySize = () => (retry ? retry.readings.length + retry.events.length : 0);
  /** Device frames waiting (estimated for messages not decoded yet). */
  const waitingFrames = () =>
    Math.round((inbox.length + messagesAtEdge) * framesPerMessage) +
    decoded.readings.length +
    decoded.events.length +
    retrySize();

  /** Let held publishers go once the backlog is below the low-water mark (or on close). */
  function releaseHeld(force = false): void {
    if (held && (force || waitingFrames() <= lowWater)) {
      held.release();
      held = null;
    }
  }

  function acknowledge(ack: () => void): void {
    counters.acknowledged++;
    try {
      ack();
    } catch (error) {
      log.error({ err: error }, 'acknowledging a gateway message failed');
    }
  }

  /** Frames of a settled batch: a message whose last frame this was is acknowledged. */
  function settle(items: readonly object[]): void {
    for (const item of items) {
      const receipt = (item as Carrier).receipt;
      if (receipt && --receipt.left === 0) acknowledge(receipt.ack);
    }
  }

  /** Decoded frames of `messages[0..count)` join the queue, each carrying its message's receipt. */
  function absorb(result: EdgeResult, messages: readonly RawMessage[], count: number): void {
    let r = 0;
    let e = 0;
    for (let i = 0; i < count; i++) {
      const m = messages[i]!;
      const readings = result.readingCounts[i] ?? 0;
      const events = result.eventCounts[i] ?? 0;
      const receipt: Receipt | undefined = m.ack && readings + events > 0 ? { left: readings + events, ack: m.ack } : undefined;
      for (const end = r + readings; r < end; r++) {
        const reading = result.readings[r]!;
        if (receipt) (reading as Carrier).receipt = receipt;
        decoded.readings.push(reading);
      }
      for (const end = e + events; e < end; e++) {
        const event = result.events[e]!;
        if (receipt) (event as Carrier).receipt = receipt;
        decoded.events.push(event);
      }
      // Refused whole (counted below): nothing to store, nothing a resend could change.
      if (m.ack && !receipt) acknowledge(m.ack);
    }
    for (const [reason, sn, detail] of result.bad) bad.add(reason, sn, detail);
    counters.deviceFrames += result.readings.length;
    if (count > 0) framesPerMessage = 0.9 * framesPerMessage + 0.1 * Math.max(1, result.readings.length / count);
  }

  /** Worker mode: keep up to two chunks of messages decoding. */
  function pump(): void {
    while (edge && atEdge.size < 2 && inbox.length > 0) {
      const chunk = inbox.length <= EDGE_CHUNK ? inbox : inbox.slice(0, EDGE_CHUNK);
      inbox = chunk === inbox ? [] : inbox.slice(EDGE_CHUNK);
      messagesAtEdge += chunk.length;
      const request: Promise<void> = edge.decode(chunk).then(
        (result) => absorb(result, chunk, chunk.length),
        () => {
          edge = null; // the worker is gone: decode here from now on
          absorb(decodeMessages(chunk).result, chunk, chunk.length);
        },
      );
      const done = request.finally(() => {
        atEdge.delete(done);
        messagesAtEdge -= chunk.length;
        pump();
        enqueued();
      });
      atEdge.add(done);
    }
  }

  /** The next batch: a refused one again (frame by frame once it failed repeatedly), else new frames. */
  function take(): Batch {
    if (retry) {
      if (!isolating) {
        const batch = retry;
        retry = null;
        return batch;
      }
      const batch: Batch =
        retry.readings.length > 0
          ? { readings: retry.readings.splice(0, 1), events: [] }
          : { readings: [], events: retry.events.splice(0, 1) };
      if (retrySize() === 0) {
        retry = null;
        isolating = false;
      }
      return batch;
    }
    if (!edge && inbox.length > 0 && decoded.readings.length < maxBatch) {
      const { result, used } = decodeMessages(inbox, maxBatch - decoded.readings.length);
      const taken = inbox;
      inbox = used === inbox.length ? [] : inbox.slice(used);
      absorb(result, taken, used);
    }
    const readings = decoded.readings.length <= maxBatch ? decoded.readings : decoded.readings.splice(0, maxBatch);
    const batch: Batch = { readings, events: decoded.events };
    decoded = { readings: readings === decoded.readings ? [] : decoded.readings, events: [] };
    return batch;
  }

  async function writeOne(): Promise<void> {
    const batch = take();
    if (batch.readings.length + batch.events.length === 0) return;
    const started = performance.now();
    try {
      // A durable commit (the frames are acknowledged on the strength of it).
      const result = await db.transaction().execute((trx) => writer.write(trx, batch, now()));
      failures = 0;
      counters.batches++;
      counters.stored += result.stored;
      counters.duplicates += result.duplicates;
      for (const b of result.bad) bad.add(b.reason, b.gatewaySn, b.detail);
      lastFlushMs = performance.now() - started;
      totalFlushMs += lastFlushMs;
      settle(batch.readings);
      settle(batch.events);
      opts.onCommit?.(lastFlushMs, batch.readings.length + batch.events.length);
      if (result.plants.size > 0) opts.onBatch?.(result.plants);
    } catch (error) {
      // Cached state may hold the rolled-back batch: start again from the store.
      registry.forget();
      rollups.forget();
      counters.failedBatches++;
      failures++;
      log.error({ err: error, frames: batch.readings.length, failures }, 'ingest batch failed; retrying');
      const size = batch.readings.length + batch.events.length;
      // A store that is down or locked refuses every batch alike: keep the batch whole and wait.
      // Only a batch refused by a store that is up may hold a frame the store cannot take.
      const unavailable = isStoreUnavailable(error);
      if (!unavailable && size === 1 && failures >= 5 && (await storeHealthy())) {
        const r = batch.readings[0];
        const sn = r?.gatewaySn ?? batch.events[0]!.gatewaySn;
        bad.add('writeFailed', sn, r ? `device ${r.sn} at ${new Date(r.ts).toISOString()}` : 'gateway event');
        settle(r ? batch.readings : batch.events);
        failures = 0;
      } else {
        if (!unavailable && failures >= 3 && size > 1) isolating = true;
        retry = retry ? { readings: batch.readings.concat(retry.readings), events: batch.events.concat(retry.events) } : batch;
      }
      await sleep(Math.min(5000, 25 * 2 ** Math.min(failures, 8)));
    } finally {
      lastWriteEnd = now();
      releaseHeld();
    }
  }

  async function storeHealthy(): Promise<boolean> {
    try {
      await sql`select 1`.execute(db);
      return true;
    } catch {
      return false;
    }
  }

  const writable = () => decoded.readings.length + decoded.events.length + retrySize() + (edge ? 0 : inbox.length);
  /** Frames a batch can take now (messages still to decode inline count by estimate). */
  const ready = () => decoded.readings.length + (edge ? 0 : Math.round(inbox.length * framesPerMessage));

  async function drain(force: boolean): Promise<void> {
    while (writable() > 0) {
      // A full batch, or the oldest frame has waited long enough.
      if (!force && !retry && ready() < maxBatch && now() - lastWriteEnd < flushMs) break;
      await writeOne();
    }
  }

  function kick(force = false): Promise<void> {
    if (!writing) writing = drain(force).finally(() => (writing = null));
    return writing;
  }

  const timer = setInterval(
    () => {
      pump();
      void kick();
    },
    Math.max(10, Math.floor(flushMs / 2)),
  );
  timer.unref();

  function enqueued(): void {
    const frames = waitingFrames();
    if (edge && inbox.length >= EDGE_CHUNK / 4) pump();
    if (ready() >= maxBatch && !writing && !kickPending) {
      kickPending = true;
      setImmediate(() => {
        kickPending = false;
        void kick();
      });
    }
    if (frames > queueWarnAt) {
      const t = now();
      if (t - lastQueueWarn > 10_000) {
        lastQueueWarn = t;
        log.warn({ queued: frames }, 'ingest is behind: frames are waiting for the store (all kept)');
      }
    }
  }

  return {
    message(sn, channel, payload, receivedAt, ack) {
      counters.messages++;
      if (closed) {
        counters.notTaken++; // not acknowledged: the gateway sends it again to the next process
        return;
      }
      if (channel === 'reply') {
        // Command replies belong to the command side.
        if (ack) acknowledge(ack);
        return;
      }
      inbox.push({ sn, channel, payload, receivedAt, ack });
      enqueued();
    },
    ready() {
      if (held) return held.promise;
      if (closed || waitingFrames() < highWater) return null;
      let release!: () => void;
      const promise = new Promise<void>((resolve) => {
        release = resolve;
      });
      held = { promise, release };
      heldSpells++;
      return promise;
    },
    async flush() {
      for (;;) {
        pump();
        if (atEdge.size > 0) await Promise.all(atEdge);
        else if (writing) await writing;
        else if (writable() > 0) await kick(true);
        else if (inbox.length === 0) return;
      }
    },
    stats() {
      return {
        ...counters,
        lastFlushMs,
        averageFlushMs: counters.batches ? totalFlushMs / counters.batches : 0,
        queueLength: waitingFrames(),
        badFrames: { ...bad.counts },
        badFramesTotal: bad.total(),
        heldSpells,
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(timer);
      releaseHeld(true);
      await this.flush();
      await edge?.close();
      edge = null;
    },
    forget(o) {
      registry.forget(o);
      if (!o) rollups.forget();
    },
  };
}
