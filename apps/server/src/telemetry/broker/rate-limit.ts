/**
 * Per-gateway token buckets. A gateway uploads every 1–5 minutes and replays its buffer after
 * an outage, so the burst is generous. A message over the rate is held, not dropped: the
 * broker delays it (and its acknowledgement) until the bucket has a token for it, and reads
 * nothing more from that connection meanwhile, so MQTT flow control slows the gateway down.
 */
export interface RateLimitOptions {
  /** Sustained messages per second per gateway. */
  perSecond: number;
  /** Bucket size: messages a gateway may send at once after being quiet. */
  burst: number;
}

export const defaultRateLimit: RateLimitOptions = { perSecond: 20, burst: 100 };

interface Bucket {
  /** Below zero: messages already promised a later token. */
  tokens: number;
  at: number;
}

export class RateLimiter {
  readonly #buckets = new Map<string, Bucket>();
  readonly #perMs: number;
  readonly #burst: number;

  constructor(opts: RateLimitOptions) {
    if (!(opts.perSecond > 0) || !(opts.burst >= 1)) throw new Error('rate limit: perSecond > 0 and burst >= 1 required');
    this.#perMs = opts.perSecond / 1000;
    this.#burst = opts.burst;
  }

  /** Reserve a token for one message of `key`: 0 to go now, else the ms to hold it. */
  reserve(key: string, now: number = Date.now()): number {
    const b = this.#buckets.get(key);
    if (!b) {
      this.#buckets.set(key, { tokens: this.#burst - 1, at: now });
      return 0;
    }
    b.tokens = Math.min(this.#burst, b.tokens + (now - b.at) * this.#perMs) - 1;
    b.at = now;
    return b.tokens >= 0 ? 0 : Math.ceil(-b.tokens / this.#perMs);
  }

  /**
   * Drop buckets that have refilled: a full bucket is the same as no bucket. (Not dropped on
   * disconnect, or reconnecting would be a way to refill.)
   */
  prune(now: number = Date.now()): void {
    for (const [key, b] of this.#buckets) if (b.tokens + (now - b.at) * this.#perMs >= this.#burst) this.#buckets.delete(key);
  }

  get size(): number {
    return this.#buckets.size;
  }
}
