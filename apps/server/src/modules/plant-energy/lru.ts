/**
 * A small in-memory cache: least recently used entries go first, each entry carries the version
 * it was computed at (a value read in one indexed query), and concurrent misses on one key share
 * one computation.
 */
export class VersionedCache<V> {
  private readonly entries = new Map<string, { version: string; value: V }>();
  private readonly pending = new Map<string, { version: string; promise: Promise<V> }>();

  constructor(private readonly capacity: number) {}

  get size() {
    return this.entries.size;
  }

  /** The cached value when it is of `version`, else `compute()` (shared by concurrent callers). */
  async get(key: string, version: string, compute: () => Promise<V>): Promise<V> {
    const hit = this.entries.get(key);
    if (hit && hit.version === version) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.value;
    }
    const running = this.pending.get(key);
    if (running && running.version === version) return running.promise;
    const promise = compute().then(
      (value) => {
        const current = this.pending.get(key);
        if (current && current.promise !== promise) return value; // a newer version is on its way
        this.pending.delete(key);
        this.entries.delete(key);
        this.entries.set(key, { version, value });
        while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
        return value;
      },
      (err: unknown) => {
        if (this.pending.get(key)?.promise === promise) this.pending.delete(key);
        throw err;
      },
    );
    this.pending.set(key, { version, promise });
    return promise;
  }

  clear(): void {
    this.entries.clear();
  }
}
