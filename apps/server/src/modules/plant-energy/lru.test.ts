import { describe, expect, it } from 'vitest';
import { VersionedCache } from './lru.ts';

describe('VersionedCache', () => {
  it('computes once per key and version, shares a running computation, and drops the least recently used', async () => {
    const cache = new VersionedCache<string>(2);
    let runs = 0;
    const compute = (v: string) => async () => {
      runs++;
      await new Promise((r) => setTimeout(r, 5));
      return v;
    };
    const [a, b] = await Promise.all([cache.get('a', '1', compute('a1')), cache.get('a', '1', compute('a1'))]);
    expect([a, b, runs]).toEqual(['a1', 'a1', 1]);
    expect(await cache.get('a', '1', compute('never'))).toBe('a1');
    expect(await cache.get('a', '2', compute('a2'))).toBe('a2'); // a new version computes again
    expect(runs).toBe(2);
    await cache.get('b', '1', compute('b1'));
    await cache.get('a', '2', compute('never')); // a is now the most recent
    await cache.get('c', '1', compute('c1')); // evicts b
    expect(cache.size).toBe(2);
    expect(await cache.get('b', '1', compute('b1 again'))).toBe('b1 again');
    expect(await cache.get('c', '1', compute('never'))).toBe('c1');
  });

  it('keeps nothing from a failed computation', async () => {
    const cache = new VersionedCache<number>(10);
    await expect(cache.get('k', '1', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await cache.get('k', '1', async () => 7)).toBe(7);
  });
});
