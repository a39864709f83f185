import { describe, expect, it } from 'vitest';
import { nextReadingAt } from './schedule.ts';

const S = 1000;
const T = 1_765_152_000_000; // on the 5 s grid

describe('the next reading', () => {
  it('live: one interval later', () => {
    expect(nextReadingAt(T, T, 5 * S, 300 * S)).toBe(T + 5 * S);
    expect(nextReadingAt(T, T + 4 * S, 5 * S, 300 * S)).toBe(T + 5 * S);
  });

  it('history: one history step later while that is still in the past', () => {
    expect(nextReadingAt(T - 3600 * S, T, 5 * S, 300 * S)).toBe(T - 3300 * S);
  });

  it('the last of the history, taken late: the next live tick, not a history step later', () => {
    // The backfill reached T while the clock was already at T + 12 s.
    expect(nextReadingAt(T, T + 12 * S, 5 * S, 300 * S)).toBe(T + 15 * S);
    expect(nextReadingAt(T - 290 * S, T, 5 * S, 300 * S)).toBe(T);
  });
});
