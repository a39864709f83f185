/**
 * Group commit: items handed in while a flush is under way (or within the same tick) are written
 * together by the next flush, one transaction for many. A burst of a thousand submits or replies
 * costs a few transactions instead of a thousand, which the store (SQLite's single writer above
 * all, shared with ingest's batches) can take without holding ingest back.
 */
export class GroupCommit<T, R> {
  #queue: { item: T; resolve: (r: R) => void; reject: (e: unknown) => void }[] = [];
  #running: Promise<void> | null = null;
  #scheduled = false;

  constructor(
    private readonly flush: (items: T[]) => Promise<R[]>,
    private readonly max = 500,
  ) {}

  add(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.#queue.push({ item, resolve, reject });
      this.#schedule();
    });
  }

  /** Resolves once everything handed in so far is flushed. */
  async idle(): Promise<void> {
    while (this.#running || this.#queue.length > 0 || this.#scheduled) {
      if (this.#running) await this.#running;
      else await new Promise((r) => setImmediate(r));
    }
  }

  #schedule(): void {
    if (this.#scheduled || this.#running) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      this.#run();
    });
  }

  #run(): void {
    if (this.#running || this.#queue.length === 0) return;
    const batch = this.#queue.splice(0, this.max);
    this.#running = this.flush(batch.map((b) => b.item)).then(
      (results) => {
        for (let i = 0; i < batch.length; i++) batch[i]!.resolve(results[i]!);
      },
      (err: unknown) => {
        for (const b of batch) b.reject(err);
      },
    );
    void this.#running.finally(() => {
      this.#running = null;
      this.#run();
    });
  }
}
