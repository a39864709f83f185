/**
 * The list caches (list.ts `cached`): one computation for concurrent askers, fresh for 10 s,
 * then served stale while the successor is computed in the background (up to a minute), and
 * never served after this module changed devices.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Db } from '../../db/index.ts';
import { cached, devicesChanged } from './list.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('list cache', () => {
  it('shares, keeps, refreshes in the background and drops on change', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(1_000_000);
    const db = {} as Db;
    let computed = 0;
    let release: (() => void) | null = null;
    const compute = () => {
      computed++;
      const n = computed;
      return new Promise<number>((resolve) => {
        release = () => resolve(n);
      });
    };
    const a = cached(db, ['k'], compute);
    const b = cached(db, ['k'], compute);
    expect(computed).toBe(1);
    release!();
    expect([await a, await b]).toEqual([1, 1]);

    vi.setSystemTime(1_000_000 + 9_000);
    expect(await cached(db, ['k'], compute)).toBe(1);
    expect(computed).toBe(1);

    // Stale: the old value at once, the new one computed once in the background.
    vi.setSystemTime(1_000_000 + 11_000);
    expect(await cached(db, ['k'], compute)).toBe(1);
    expect(await cached(db, ['k'], compute)).toBe(1);
    expect(computed).toBe(2);
    release!();
    await Promise.resolve();
    await Promise.resolve();
    expect(await cached(db, ['k'], compute)).toBe(2);

    // Too old to serve: computed and waited for.
    vi.setSystemTime(1_000_000 + 200_000);
    const c = cached(db, ['k'], compute);
    expect(computed).toBe(3);
    release!();
    expect(await c).toBe(3);

    // A change made here is never served stale.
    devicesChanged();
    const d = cached(db, ['k'], compute);
    expect(computed).toBe(4);
    release!();
    expect(await d).toBe(4);
    expect(await cached(db, ['other'], async () => 'x')).toBe('x');
  });
});
