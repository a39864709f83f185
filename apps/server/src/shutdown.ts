/**
 * The bounded shutdown of a server process: on a stop signal every port stops listening at once,
 * requests in flight get the drain time to finish, then their connections are cut; background
 * work and the store close after; past the limit the process exits whatever is left (code 1).
 */
import type { Logger } from 'pino';

/** A stop signal ends the process within this time. */
export const SHUTDOWN_LIMIT_MS = 5_000;
/** Requests in flight at the signal get this long to finish before their connections are closed. */
export const SHUTDOWN_DRAIN_MS = 2_000;

/** One closing step; `undefined` for a part this process does not run. */
export type Step = (() => unknown) | undefined;

export interface Shutdown {
  /** Stop listening and drain, all at once: the HTTP server, the MQTT broker, the simulator. */
  listeners: Step[];
  /** Close the connections of requests still in flight (called at the end of the drain). */
  cutConnections: () => void;
  /** Then, group by group (the steps of one group together): background work, channels, the store. */
  rest: Step[][];
  exit: (code: number) => void;
  drainMs?: number;
  limitMs?: number;
}

async function together(log: Logger, steps: Step[]) {
  const results = await Promise.allSettled(steps.map(async (step) => step?.()));
  for (const r of results) if (r.status === 'rejected') log.warn({ err: r.reason }, 'a part failed to close');
}

export async function shutDown(log: Logger, s: Shutdown): Promise<void> {
  const limitMs = s.limitMs ?? SHUTDOWN_LIMIT_MS;
  const force = setTimeout(() => {
    log.error({ limitMs }, 'shutdown did not finish in time; exiting');
    s.exit(1);
  }, limitMs);
  force.unref();
  const drain = setTimeout(() => {
    log.warn({ drainMs: s.drainMs ?? SHUTDOWN_DRAIN_MS }, 'requests still in flight after the drain; closing their connections');
    s.cutConnections();
  }, s.drainMs ?? SHUTDOWN_DRAIN_MS);
  drain.unref();
  await together(log, s.listeners);
  clearTimeout(drain);
  for (const group of s.rest) await together(log, group);
  clearTimeout(force);
  s.exit(0);
}
