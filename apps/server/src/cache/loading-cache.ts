/**
 * The server's in-memory result caches: keyed get-or-load on `lru-cache` (at most `max` keys,
 * the least recently used go first, an optional time to live). Concurrent askers of a missing
 * key share one load; a failed load keeps nothing. A value may carry a version (a figure read
 * in one indexed query): another version loads again.
 *
 * These caches are per process with a short time to live: several server processes may
 * disagree for up to that time. What they hold must be fine to show that late (totals, an order
 * of ids, figures recomputed from the store); state that processes must agree on (limits,
 * throttles) lives in the database.
 */
import { LRUCache } from 'lru-cache';

export interface LoadingCacheOptions {
  /** At most this many keys. */
  max: number;
  /** A value asked for after this long (ms) is loaded again; without it, a value stays until evicted. */
  ttlMs?: number;
  /** Past `ttlMs` and until this old, the old value is still served while its successor loads in the background. */
  staleMs?: number;
}

interface Entry<V> {
  value: Promise<V>;
  version: string;
  /** When its load started (wall clock). */
  at: number;
  refreshing: boolean;
}

export class LoadingCache<V> {
  private readonly lru: LRUCache<string, Entry<V>>;

  constructor(private readonly opts: LoadingCacheOptions) {
    const ttl = opts.staleMs ?? opts.ttlMs;
    this.lru = new LRUCache<string, Entry<V>>({
      max: opts.max,
      ...(ttl === undefined
        ? {}
        : // Ages on the wall clock, read at every look-up (no 1 ms memo), as the rest of the server's times.
          { ttl, ttlResolution: 0, perf: { now: () => Date.now() } }),
    });
  }

  get size(): number {
    return this.lru.size;
  }

  /** The cached value of `key` at `version`, else `load()` (shared by concurrent askers). */
  get(key: string, load: () => Promise<V>, version = ''): Promise<V> {
    const hit = this.lru.get(key);
    if (hit && hit.version === version) {
      const { ttlMs, staleMs } = this.opts;
      if (ttlMs === undefined || Date.now() - hit.at < ttlMs) return hit.value;
      if (staleMs !== undefined) {
        // Still within `staleMs` (the store drops it after that): served while the next one loads.
        if (!hit.refreshing) this.refresh(key, hit, load);
        return hit.value;
      }
    }
    return this.fill(key, load, version).value;
  }

  /** Forget every value (after a change that must show at once). */
  clear(): void {
    this.lru.clear();
  }

  private fill(key: string, load: () => Promise<V>, version: string): Entry<V> {
    const entry: Entry<V> = { value: load(), version, at: Date.now(), refreshing: false };
    this.lru.set(key, entry);
    entry.value.catch(() => {
      if (this.lru.peek(key) === entry) this.lru.delete(key);
    });
    return entry;
  }

  private refresh(key: string, hit: Entry<V>, load: () => Promise<V>): void {
    hit.refreshing = true;
    const next = load();
    next.then(
      () => {
        if (this.lru.peek(key) === hit)
          this.lru.set(key, { value: next, version: hit.version, at: Date.now(), refreshing: false });
      },
      () => {
        hit.refreshing = false;
      },
    );
  }
}

/**
 * One `LoadingCache` per owner (a database: tests run several servers in one process), all
 * dropped at once by `clear()`.
 */
export class LoadingCaches<O extends object, V> {
  private readonly caches = new WeakMap<O, { generation: number; cache: LoadingCache<V> }>();
  private generation = 0;

  constructor(private readonly opts: LoadingCacheOptions) {}

  of(owner: O): LoadingCache<V> {
    const found = this.caches.get(owner);
    if (found?.generation === this.generation) return found.cache;
    const cache = new LoadingCache<V>(this.opts);
    this.caches.set(owner, { generation: this.generation, cache });
    return cache;
  }

  /** Forget every owner's values. */
  clear(): void {
    this.generation++;
  }
}
