// Waiting in wall time for a gateway's progress: callers wait until the next wake-up (an
// acknowledgement, a connection) or a timeout, whichever comes first.

/** Waiters woken together: `wait` resolves on the next `wake()` or after `timeoutMs`. */
export class Wakeup {
  private waiters: (() => void)[] = [];

  wait(timeoutMs: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters = this.waiters.filter((w) => w !== done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, timeoutMs));
      this.waiters.push(done);
    });
  }

  wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }
}

/** Resolves when `promise` does or after `ms`, whichever comes first. */
export function withTimeout(promise: Promise<void>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    promise.then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
