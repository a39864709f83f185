/** A job run on a timer in the `jobs` role: a run never overlaps the previous one. */
export interface PeriodicJob<R> {
  /** One run now (also what the timer runs); joins a run already under way. */
  runOnce(): Promise<R>;
  /** Stop the timer and wait for a run under way. */
  stop(): Promise<void>;
}

export interface PeriodicOptions {
  /**
   * Whether this process runs the job at this tick (e.g. `leader.isLeader`: work that must run in
   * one process only); a tick it declines does nothing. Absent: every tick runs.
   */
  when?: () => boolean;
}

/** Every `intervalMs`, `run`; its result goes to `done`, its failure to `failed` (the next tick tries again). */
export function startPeriodic<R>(
  run: () => Promise<R>,
  intervalMs: number,
  done: (result: R) => void,
  failed: (error: unknown) => void,
  options: PeriodicOptions = {},
): PeriodicJob<R> {
  let running: Promise<R> | null = null;
  const runOnce = () => {
    running ??= run().finally(() => {
      running = null;
    });
    return running;
  };
  const timer = setInterval(() => {
    if (options.when && !options.when()) return;
    runOnce().then(done, failed);
  }, intervalMs);
  timer.unref();
  return {
    runOnce,
    async stop() {
      clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}
