// When a gateway takes its next reading.

/**
 * The time of the reading after one taken at `taken`, the clock being at `now`. Live readings
 * fall every `intervalMs`. History (a reading more than one interval old) steps by
 * `historyStepMs`, but never past the live grid: the reading after the last of the history is
 * the next live tick. A backfill that ends a few seconds late would otherwise wait a whole
 * history step (5 minutes) for its first live reading, and the plant would look stale.
 */
export function nextReadingAt(taken: number, now: number, intervalMs: number, historyStepMs: number): number {
  const late = taken < now - intervalMs;
  if (!late) return taken + intervalMs;
  return Math.min(taken + historyStepMs, Math.ceil(now / intervalMs) * intervalMs);
}
