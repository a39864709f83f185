/**
 * Frames ingest refuses: counted per reason, logged at most once per gateway per minute (a
 * misbehaving gateway sending thousands of bad frames must not flood the log), then dropped.
 */
import type { Logger } from '../../log.ts';

export const badFrameReasons = [
  /** Payload larger than mqttLimits.maxPayloadBytes. */
  'oversized',
  /** Not JSON. */
  'malformedJson',
  /** JSON, but not a valid payload of its channel. */
  'schema',
  /** Timestamp more than mqttLimits.maxFutureMs ahead of arrival. */
  'futureTimestamp',
  /** Timestamp older than the retention window (mqttLimits.maxAgeMs before arrival). */
  'staleTimestamp',
  /** A device frame with a register block that reads none of its protocol's registers. */
  'unmappedRegisters',
  /** The publishing gateway is not (or no longer) registered. */
  'unknownGateway',
  /** A gateway event names a device the gateway never reported. */
  'unknownDevice',
  /** The device (live or deleted) is bound to another gateway: refused, its owner unchanged. */
  'foreignDevice',
  /** Taken before its device joined its plant (a buffered frame of the earlier owner's time). */
  'beforeBinding',
  /** Protocol id not in packages/protocols. */
  'unknownProtocol',
  /** The device was discovered with another protocol. */
  'wrongProtocol',
  /** A frame the store refused even alone, after retries (logged as an error). */
  'writeFailed',
] as const;
export type BadFrameReason = (typeof badFrameReasons)[number];

/** Where the edge reports a refused frame (BadFrames, or a list carried back from a worker). */
export interface BadFrameSink {
  add(reason: BadFrameReason, gatewaySn: string, detail?: string): void;
}

const LOG_EVERY_MS = 60_000;
const MAX_TRACKED_GATEWAYS = 100_000;

export class BadFrames implements BadFrameSink {
  readonly counts: Record<BadFrameReason, number> = Object.fromEntries(badFrameReasons.map((r) => [r, 0])) as Record<
    BadFrameReason,
    number
  >;
  private readonly lastLogged = new Map<string, number>();

  constructor(
    private readonly log: Logger,
    private readonly now: () => number,
  ) {}

  /** Count one refused frame (a message, or one device frame of a message). */
  add(reason: BadFrameReason, gatewaySn: string, detail?: string): void {
    this.counts[reason]++;
    const t = this.now();
    const last = this.lastLogged.get(gatewaySn);
    if (last !== undefined && t - last < LOG_EVERY_MS) return;
    if (this.lastLogged.size >= MAX_TRACKED_GATEWAYS) this.lastLogged.clear();
    this.lastLogged.set(gatewaySn, t);
    this.log.warn(
      { gateway: gatewaySn, reason, detail },
      'bad telemetry frame dropped (further ones from this gateway muted for a minute)',
    );
  }

  total(): number {
    let n = 0;
    for (const r of badFrameReasons) n += this.counts[r];
    return n;
  }
}
