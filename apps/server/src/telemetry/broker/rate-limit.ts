/**
 * Per-gateway token buckets. A gateway uploads every 1–5 minutes and replays its buffer after
 * an outage, so the burst is generous; a steady flood above `perSecond` is dropped and counted.
 */
export interface RateLimitOptions {
  /** Sustained messages per second per gateway. */
  perSecond: number;
  /** Bucket size: messages a gateway may send at once after being quiet. */
  burst: number;
}

export const defaultRateLimit: RateLimitOptions = { perSecond: 20, burst: 100 };

interface Bucket {
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

  /** Take one token for `key`; false when the bucket is empty (the message is to be dropped). */
  take(key: string, now: number = Date.now()): boolean {
    const b = this.#buckets.get(key);
    if (!b) {
      this.#buckets.set(key, { tokens: this.#burst - 1, at: now });
      return true;
    }
    const tokens = Math.min(this.#burst, b.tokens + (now - b.at) * this.#perMs);
    b.at = now;
    if (tokens < 1) {
      b.tokens = tokens;
      return false;
    }
    b.tokens = tokens - 1;
    return true;
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
