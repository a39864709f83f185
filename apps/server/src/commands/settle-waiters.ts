/**
 * The settles waiting in this process, per job: woken at once when this process changes the job
 * (with the job's row as this process stored it, so that a thousand settles woken by one group of
 * replies do not read a thousand rows again), and otherwise by one look at the store per `pollMs` for every waiting job together (a reply
 * another process took), so a thousand waiting settles cost one query per interval.
 */
import type { Db } from '../db/index.ts';
import type { Logger } from '../log.ts';
import type { JobRow } from './jobs.repo.ts';

export class SettleWaiters {
  /** Per job: the state its waiters last saw, and how to wake them. */
  readonly #waiting = new Map<string, { state: string; wake: Set<(row?: JobRow) => void> }>();
  #poller: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: Db,
    private readonly pollMs: number,
    private readonly log: Logger,
  ) {}

  /**
   * Resolves when the job leaves `state` (changed here: with its row; or seen in the store), or
   * after `ms` (without a row).
   */
  wait(id: string, state: string, ms: number): Promise<JobRow | undefined> {
    return new Promise<JobRow | undefined>((resolve) => {
      let w = this.#waiting.get(id);
      if (!w) {
        w = { state, wake: new Set() };
        this.#waiting.set(id, w);
      }
      const entry = w;
      const done = (row?: JobRow) => {
        clearTimeout(timer);
        entry.wake.delete(done);
        if (entry.wake.size === 0 && this.#waiting.get(id) === entry) this.#waiting.delete(id);
        resolve(row);
      };
      const timer = setTimeout(() => done(), ms);
      entry.wake.add(done);
      this.#startPolling();
    });
  }

  /** The job changed: its waiters take `row` (as this process stored it), or look again. */
  wake(id: string, row?: JobRow): void {
    const w = this.#waiting.get(id);
    if (!w) return;
    this.#waiting.delete(id);
    for (const f of w.wake) f(row);
  }

  /** Wake everyone and stop polling. */
  close(): void {
    for (const id of [...this.#waiting.keys()]) this.wake(id);
    if (this.#poller) clearInterval(this.#poller);
    this.#poller = null;
  }

  async #poll(): Promise<void> {
    const ids = [...this.#waiting.keys()];
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await this.db
        .selectFrom('command_jobs')
        .select(['id', 'state'])
        .where('id', 'in', ids.slice(i, i + 500))
        .execute();
      for (const r of rows) if (this.#waiting.get(r.id)?.state !== r.state) this.wake(r.id);
    }
  }

  #startPolling(): void {
    if (this.#poller) return;
    let busy = false;
    this.#poller = setInterval(() => {
      if (this.#waiting.size === 0) {
        clearInterval(this.#poller!);
        this.#poller = null;
        return;
      }
      if (busy) return;
      busy = true;
      this.#poll()
        .catch((err) => this.log.warn({ err }, 'command settle poll failed'))
        .finally(() => {
          busy = false;
        });
    }, this.pollMs);
    this.#poller.unref();
  }
}
