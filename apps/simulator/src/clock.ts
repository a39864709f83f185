// Simulated time. A clock runs `speed` simulated seconds per wall second from `start`, so a
// day of uploads can pass in minutes (tests, demos) while timestamps stay realistic.

export interface Clock {
  readonly speed: number;
  /** Simulated epoch milliseconds now. */
  now(): number;
  /** Resolve when simulated time reaches `t` (or at once when aborted). */
  sleepUntil(t: number, signal?: AbortSignal): Promise<void>;
}

export interface ClockOptions {
  /** Simulated seconds per wall second (default 1). */
  speed?: number;
  /** Simulated time at creation, epoch ms (default: the wall time). */
  start?: number;
}

export function createClock(options: ClockOptions = {}): Clock {
  const speed = options.speed ?? 1;
  if (!(speed > 0)) throw new RangeError('clock speed must be positive');
  const wallStart = Date.now();
  const simStart = options.start ?? wallStart;
  const now = () => simStart + (Date.now() - wallStart) * speed;
  return {
    speed,
    now,
    sleepUntil(t, signal) {
      return new Promise((resolve) => {
        if (signal?.aborted) return resolve();
        const wait = Math.max(0, (t - now()) / speed);
        const timer = setTimeout(done, Math.min(wait, 2 ** 31 - 1));
        signal?.addEventListener('abort', done, { once: true });
        function done() {
          clearTimeout(timer);
          signal?.removeEventListener('abort', done);
          resolve();
        }
      });
    },
  };
}
