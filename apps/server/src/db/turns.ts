/**
 * Turns at the SQLite connection, first come first served, at most `sliceMs` of them per turn of
 * the event loop.
 *
 * SQLite answers synchronously, so queries handed the connection one after another through
 * promises run back to back without the event loop turning. Under load one turn of the loop then
 * lasts hundreds of milliseconds, and Node accepts one new connection per turn (libuv takes a
 * single connection off the listen queue each time the socket is polled): a connection that
 * arrives while the established ones keep the server busy waits in the kernel's accept queue for
 * seconds. Bounding the database work of one turn keeps the turns short, so new connections are
 * accepted and new requests read between queries, and every query waits its turn in arrival order.
 * Measured with 400 new connections at once on the plant list (npm run bench -- api): 10 ms slices
 * still left some first requests 5–8 s in the queue; 2 ms slices answered every one within ~2 s.
 */
export class Turns {
  private readonly waiting: (() => void)[] = [];
  private held = false;
  /** End of the current slice (performance.now()); 0: none started in this turn of the loop. */
  private sliceEndsAt = 0;

  constructor(private readonly sliceMs = 2) {}

  /** Resolves when it is this caller's turn; `release()` hands the connection on. */
  acquire(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.waiting.push(resolve);
      this.grant();
    });
  }

  release(): void {
    this.held = false;
    this.grant();
  }

  /** Callers waiting for their turn (not the one holding it). */
  get queued(): number {
    return this.waiting.length;
  }

  private grant(): void {
    if (this.held || this.waiting.length === 0) return;
    const now = performance.now();
    if (this.sliceEndsAt === 0) {
      this.sliceEndsAt = now + this.sliceMs;
      // The next slice starts after the loop has polled for I/O (an immediate queued during the
      // check phase runs in the next turn).
      setImmediate(() => {
        this.sliceEndsAt = 0;
        this.grant();
      });
    } else if (now >= this.sliceEndsAt) return;
    this.held = true;
    this.waiting.shift()?.();
  }
}
