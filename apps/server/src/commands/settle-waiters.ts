/**
 * The settles waiting in this process, per job: woken at once when this process changes the job,
 * and otherwise by one look at the store per `pollMs` for every waiting job together (a reply
 * another process took), so a thousand waiting settles cost one query per interval.
 */
import type { Db } from '../db/index.ts';
import type { Logger } from '../log.ts';

export class SettleWaiters {
  /** Per job: the state its waiters last saw, and how to wake them. */
  readonly #waiting = new Map<string, { state: string; wake: Set<() => void> }>();
  #poller: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: Db,
    private readonly pollMs: number,
    private readonly log: Logger,
  ) {}

  /** Resolves when the job leaves `state` (changed here, or seen in the store), or after `ms`. */
  wait(id: string, state: string, ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      let w = this.#waiting.get(id);
      if (!w) {
        w = { state, wake: new Set() };
        this.#waiting.set(id, w);
      }
      const entry = w;
      const done = () => {
        clearTimeout(timer);
        entry.wake.delete(done);
        if (entry.wake.size === 0 && this.#waiting.get(id) === entry) this.#waiting.delete(id);
        resolve();
      };
      const timer = setTimeout(done, ms);
      entry.wake.add(done);
      this.#startPolling();
    });
  }

  /** The job changed: its waiters look again. */
  wake(id: string): void {
    const w = this.#waiting.get(id);
    if (!w) return;
    this.#waiting.delete(id);
    for (const f of w.wake) f();
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
