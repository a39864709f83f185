/**
 * Plant list columns (power now, today, total) of the plants ingest touched, refreshed in one
 * pass every few seconds rather than per batch (a busy plant uploads many batches a minute).
 * A pass the store refuses (an outage) keeps its plants for the next pass.
 */
import type { Logger } from 'pino';
import type { Db } from '../db/index.ts';
import { refreshPlantSummary } from '../energy/plant-summary.ts';

/** Plant list columns follow ingest at most this late. */
const SUMMARY_EVERY_MS = 5000;

export interface SummaryRefresher {
  touch(plants: Iterable<number>): void;
  /** One pass now (also what the timer runs); resolves false when the store refused it. */
  runOnce(): Promise<boolean>;
  stop(): Promise<void>;
}

export function startSummaryRefresher(db: Db, log: Logger, everyMs = SUMMARY_EVERY_MS): SummaryRefresher {
  const touched = new Set<number>();
  let running: Promise<boolean> | null = null;
  const pass = async (): Promise<boolean> => {
    if (touched.size === 0) return true;
    const ids = [...touched];
    touched.clear();
    try {
      await refreshPlantSummary(db, ids);
      return true;
    } catch (err) {
      for (const id of ids) touched.add(id);
      log.error({ err, plants: ids.length }, 'plant summary refresh failed; retrying with the next pass');
      return false;
    }
  };
  const runOnce = () => {
    running ??= pass().finally(() => {
      running = null;
    });
    return running;
  };
  const timer = setInterval(() => void runOnce(), everyMs);
  timer.unref();
  return {
    touch(plants) {
      for (const id of plants) touched.add(id);
    },
    runOnce,
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
