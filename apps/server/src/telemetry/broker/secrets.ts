/**
 * Gateway secret hashes for CONNECT, cached briefly so that a reconnect storm (a site's
 * network comes back, the broker restarts) does not cost one store read per connection:
 * lookups arriving together are batched into one `sn in (...)` query, and a hash is kept
 * for `ttlMs`. A failed check drops the cached hash, so a rotated secret is seen at once.
 */
import type { Db } from '../../db/index.ts';
import { secretMatches } from '../gateways.ts';

interface Cached {
  hash: string;
  expires: number;
}

export class GatewaySecrets {
  readonly #db: Db;
  readonly #ttlMs: number;
  readonly #batchMax: number;
  readonly #cache = new Map<string, Cached>();
  /** SNs waiting for the next batched read, with their waiters. */
  #queued = new Map<string, ((hash: string | null | Error) => void)[]>();
  #scheduled = false;
  reads = 0;

  constructor(db: Db, opts: { ttlMs?: number; batchMax?: number } = {}) {
    this.#db = db;
    this.#ttlMs = opts.ttlMs ?? 60_000;
    this.#batchMax = opts.batchMax ?? 500;
  }

  /** True when `secret` is the current secret of a gateway that exists and is not deleted. */
  async verify(sn: string, secret: string): Promise<boolean> {
    const cached = this.#cache.get(sn);
    if (cached && cached.expires > Date.now()) {
      if (secretMatches(cached.hash, secret)) return true;
      this.#cache.delete(sn);
    }
    const hash = await this.#load(sn);
    if (hash !== null && secretMatches(hash, secret)) {
      this.#cache.set(sn, { hash, expires: Date.now() + this.#ttlMs });
      return true;
    }
    this.#cache.delete(sn);
    return false;
  }

  /** Forget a gateway's cached hash (secret rotated, gateway deleted). */
  invalidate(sn: string): void {
    this.#cache.delete(sn);
  }

  clear(): void {
    this.#cache.clear();
  }

  #load(sn: string): Promise<string | null> {
    return new Promise((resolve, reject) => {
      const settle = (r: string | null | Error) => (r instanceof Error ? reject(r) : resolve(r));
      const waiters = this.#queued.get(sn);
      if (waiters) waiters.push(settle);
      else this.#queued.set(sn, [settle]);
      if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => void this.#readQueued());
      }
    });
  }

  async #readQueued(): Promise<void> {
    this.#scheduled = false;
    const queued = this.#queued;
    this.#queued = new Map();
    const sns = [...queued.keys()];
    for (let i = 0; i < sns.length; i += this.#batchMax) {
      const chunk = sns.slice(i, i + this.#batchMax);
      let result: Map<string, string> | Error;
      try {
        this.reads++;
        const rows = await this.#db
          .selectFrom('gateways')
          .select(['sn', 'secret_hash'])
          .where('sn', 'in', chunk)
          .where('deleted_at', 'is', null)
          .execute();
        result = new Map(rows.map((r) => [r.sn, r.secret_hash]));
      } catch (e) {
        result = e instanceof Error ? e : new Error(String(e));
      }
      for (const sn of chunk) {
        const value = result instanceof Error ? result : (result.get(sn) ?? null);
        for (const settle of queued.get(sn) ?? []) settle(value);
      }
    }
  }
}
