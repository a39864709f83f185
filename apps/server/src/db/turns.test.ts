/** Turns at the SQLite connection: first come first served, and the event loop turns between slices. */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createDb } from './index.ts';
import { Turns } from './turns.ts';

const busy = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end) {}
};

describe('Turns', () => {
  it('hands turns out in arrival order, one at a time', async () => {
    const turns = new Turns(5);
    const order: number[] = [];
    let holding = 0;
    await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        await turns.acquire();
        holding++;
        expect(holding).toBe(1);
        order.push(i);
        await Promise.resolve();
        holding--;
        turns.release();
      }),
    );
    expect(order).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(turns.queued).toBe(0);
  });

  it('lets the event loop turn once a slice is used up', async () => {
    const turns = new Turns(5);
    let done = 0;
    let doneWhenTimerFired = -1;
    setTimeout(() => {
      doneWhenTimerFired = done;
    }, 0);
    // 100 turns of 1 ms each: 100 ms of work that would otherwise run without the loop turning.
    await Promise.all(
      Array.from({ length: 100 }, async () => {
        await turns.acquire();
        busy(1);
        done++;
        turns.release();
      }),
    );
    expect(doneWhenTimerFired).toBeGreaterThanOrEqual(0);
    expect(doneWhenTimerFired).toBeLessThan(50);
  });
});

describe('the SQLite store', () => {
  it('reads I/O and fires timers during a burst of queries, instead of after it', async () => {
    const { db } = createDb({ databaseUrl: null });
    try {
      // A query of about a millisecond: a recursive count.
      const slow = () =>
        sql<{
          n: number;
        }>`with recursive c(x) as (select 1 union all select x + 1 from c where x < 20000) select count(*) as n from c`.execute(
          db,
        );
      await slow();
      let done = 0;
      let doneWhenTimerFired = -1;
      setTimeout(() => {
        doneWhenTimerFired = done;
      }, 0);
      await Promise.all(
        Array.from({ length: 200 }, async () => {
          await slow();
          done++;
        }),
      );
      expect(doneWhenTimerFired).toBeGreaterThanOrEqual(0);
      expect(doneWhenTimerFired).toBeLessThan(200);
    } finally {
      await db.destroy();
    }
  });
});
