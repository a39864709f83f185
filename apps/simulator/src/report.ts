/**
 * The fleet's progress log: one summary line a minute for the whole fleet (gateways online,
 * frames sent and acknowledged in that minute, pending now, reconnects in that minute), however
 * many gateways it plays.
 */
import type { FleetStats } from './fleet.ts';

export const REPORT_EVERY_MS = 60_000;

/** The wall clock and timers the reporter uses; tests pass fake ones. */
export interface ReportTimers {
  now(): number;
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

/** Frames acknowledged by the broker: data messages and events. */
const acknowledged = (s: FleetStats) => s.published + s.events;

/**
 * One line: what happened in the last `seconds` of wall time since `previous` (or since the
 * start), and what is pending now. The time in brackets is the simulated clock's.
 */
export function summaryLine(now: FleetStats, previous: FleetStats | null, seconds: number): string {
  const since = (pick: (s: FleetStats) => number) => pick(now) - (previous ? pick(previous) : 0);
  const window = previous ? `last ${Math.round(seconds)} s` : `first ${Math.round(seconds)} s`;
  return (
    `[${new Date(now.now).toISOString().slice(0, 19)}Z] ${now.online}/${now.gateways} gateways online; ${window}: ` +
    `${since((s) => s.sent)} frames sent, ${since(acknowledged)} acknowledged, ${since((s) => s.reconnects)} reconnects` +
    `${since((s) => s.dropped) > 0 ? `, ${since((s) => s.dropped)} dropped` : ''}; ` +
    `${now.queued + now.inflight} pending`
  );
}

export interface Reporter {
  /** Write a line now (at start-up and at the end); the next periodic one counts from here. */
  report(): void;
  stop(): void;
}

/** Report `stats()` through `write` every minute (and whenever `report()` is called). */
export function startReporter(options: {
  stats: () => FleetStats;
  write: (line: string, stats: FleetStats) => void;
  everyMs?: number;
  timers?: ReportTimers;
}): Reporter {
  const timers: ReportTimers = options.timers ?? {
    now: () => Date.now(),
    setInterval: (fn, ms) => setInterval(fn, ms),
    clearInterval: (h) => clearInterval(h as NodeJS.Timeout),
  };
  let previous: FleetStats | null = null;
  let previousAt = timers.now();
  const report = () => {
    const s = options.stats();
    const at = timers.now();
    options.write(summaryLine(s, previous, (at - previousAt) / 1000), s);
    previous = s;
    previousAt = at;
  };
  const handle = timers.setInterval(report, options.everyMs ?? REPORT_EVERY_MS);
  return { report, stop: () => timers.clearInterval(handle) };
}
