/**
 * The edge (parse, validate, decode: frames.ts) for many messages at once, in this thread or in a
 * worker thread. In a worker, the parsing and decoding and their garbage move to the other core;
 * measured on the 2-core machine, they were a third of ingest's main-thread time.
 */
import { Worker } from 'node:worker_threads';
import type { BadFrameReason, BadFrameSink } from './bad-frames.ts';
import { type DeviceReading, type GatewayEventItem, readDataMessage, readEventMessage } from './frames.ts';

export interface RawMessage {
  sn: string;
  channel: 'data' | 'event';
  payload: Buffer;
  receivedAt: number;
  /** Acknowledge the message (stays in this thread: never sent to the worker). */
  ack?: (() => void) | undefined;
}

export interface EdgeResult {
  readings: DeviceReading[];
  events: GatewayEventItem[];
  bad: [reason: BadFrameReason, gatewaySn: string, detail: string | undefined][];
  /** Per message, in order: how many of `readings` and of `events` it gave (0 and 0 when refused). */
  readingCounts: number[];
  eventCounts: number[];
}

/** Decode messages in order; refused ones are listed in `bad` (reported by the caller). */
export function decodeMessages(
  messages: readonly RawMessage[],
  maxReadings = Number.POSITIVE_INFINITY,
): { result: EdgeResult; used: number } {
  const result: EdgeResult = { readings: [], events: [], bad: [], readingCounts: [], eventCounts: [] };
  const sink: BadFrameSink = { add: (reason, sn, detail) => result.bad.push([reason, sn, detail]) };
  let used = 0;
  while (used < messages.length && result.readings.length < maxReadings) {
    const m = messages[used++]!;
    const readingsBefore = result.readings.length;
    const eventsBefore = result.events.length;
    try {
      if (m.channel === 'data') readDataMessage(m.sn, m.payload, m.receivedAt, sink, result.readings);
      else {
        const item = readEventMessage(m.sn, m.payload, m.receivedAt, sink);
        if (item) result.events.push(item);
      }
    } catch (error) {
      // A decoder bug must not stop ingest: count the message as malformed and go on.
      sink.add('schema', m.sn, error instanceof Error ? error.message : String(error));
      result.readings.length = readingsBefore;
      result.events.length = eventsBefore;
    }
    result.readingCounts.push(result.readings.length - readingsBefore);
    result.eventCounts.push(result.events.length - eventsBefore);
  }
  return { result, used };
}

/** What crosses to the worker: all payloads in one transferred buffer. */
export interface EdgeRequest {
  id: number;
  bytes: ArrayBuffer;
  ends: number[];
  sns: string[];
  channels: ('data' | 'event')[];
  receivedAts: number[];
}

export interface EdgeWorker {
  decode(messages: readonly RawMessage[]): Promise<EdgeResult>;
  close(): Promise<void>;
}

/** Start a decoding worker (this module runs through tsx: the worker registers it too). */
export function startEdgeWorker(onError: (error: Error) => void): EdgeWorker {
  const entry = new URL(`./edge-worker.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url).href;
  const source = import.meta.url.endsWith('.ts')
    ? `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then(({ register }) => { register(); return import(${JSON.stringify(entry)}); });`
    : `import(${JSON.stringify(entry)});`;
  const worker = new Worker(source, { eval: true });
  worker.unref();
  const pending = new Map<number, { resolve: (r: EdgeResult) => void; reject: (e: Error) => void }>();
  let next = 0;
  worker.on('message', (m: { id: number; result: EdgeResult }) => {
    const p = pending.get(m.id);
    pending.delete(m.id);
    p?.resolve(m.result);
  });
  const fail = (error: Error) => {
    for (const p of pending.values()) p.reject(error);
    pending.clear();
    onError(error);
  };
  worker.on('error', fail);
  worker.on('exit', (code) => {
    if (pending.size > 0) fail(new Error(`ingest edge worker exited (${code})`));
  });
  return {
    decode(messages) {
      let size = 0;
      for (const m of messages) size += m.payload.length;
      const bytes = new Uint8Array(size);
      const ends: number[] = [];
      let at = 0;
      for (const m of messages) {
        bytes.set(m.payload, at);
        at += m.payload.length;
        ends.push(at);
      }
      const request: EdgeRequest = {
        id: ++next,
        bytes: bytes.buffer,
        ends,
        sns: messages.map((m) => m.sn),
        channels: messages.map((m) => m.channel),
        receivedAts: messages.map((m) => m.receivedAt),
      };
      return new Promise<EdgeResult>((resolve, reject) => {
        pending.set(request.id, { resolve, reject });
        worker.postMessage(request, [request.bytes]);
      });
    },
    async close() {
      await worker.terminate();
    },
  };
}
