import { afterEach, describe, expect, it, vi } from 'vitest';
import { LoadingCache, LoadingCaches } from './loading-cache.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('LoadingCache', () => {
  it('computes once per key and version, shares a running computation, and drops the least recently used', async () => {
    const cache = new LoadingCache<string>({ max: 2 });
    let runs = 0;
    const compute = (v: string) => async () => {
      runs++;
      await new Promise((r) => setTimeout(r, 5));
      return v;
    };
    const [a, b] = await Promise.all([cache.get('a', compute('a1'), '1'), cache.get('a', compute('a1'), '1')]);
    expect([a, b, runs]).toEqual(['a1', 'a1', 1]);
    expect(await cache.get('a', compute('never'), '1')).toBe('a1');
    expect(await cache.get('a', compute('a2'), '2')).toBe('a2'); // a new version computes again
    expect(runs).toBe(2);
    await cache.get('b', compute('b1'), '1');
    await cache.get('a', compute('never'), '2'); // a is now the most recent
    await cache.get('c', compute('c1'), '1'); // evicts b
    expect(cache.size).toBe(2);
    expect(await cache.get('b', compute('b1 again'), '1')).toBe('b1 again');
    expect(await cache.get('c', compute('never'), '1')).toBe('c1');
  });

  it('keeps nothing from a failed computation', async () => {
    const cache = new LoadingCache<number>({ max: 10 });
    await expect(cache.get('k', async () => Promise.reject(new Error('boom')), '1')).rejects.toThrow('boom');
    expect(await cache.get('k', async () => 7, '1')).toBe(7);
  });

  it('loads again after its time to live, and forgets everything on clear', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(1_000_000);
    const cache = new LoadingCache<number>({ max: 10, ttlMs: 10_000 });
    let runs = 0;
    const load = async () => ++runs;
    expect(await cache.get('k', load)).toBe(1);
    vi.setSystemTime(1_000_000 + 9_999);
    expect(await cache.get('k', load)).toBe(1);
    vi.setSystemTime(1_000_000 + 10_000);
    expect(await cache.get('k', load)).toBe(2);
    cache.clear();
    expect(await cache.get('k', load)).toBe(3);
  });

  it('one cache per owner, all dropped by one clear', async () => {
    const caches = new LoadingCaches<object, string>({ max: 10, ttlMs: 10_000 });
    const [first, second] = [{}, {}];
    expect(await caches.of(first).get('k', async () => 'first')).toBe('first');
    expect(await caches.of(second).get('k', async () => 'second')).toBe('second');
    expect(await caches.of(first).get('k', async () => 'never')).toBe('first');
    caches.clear();
    expect(await caches.of(first).get('k', async () => 'again')).toBe('again');
    expect(await caches.of(second).get('k', async () => 'again')).toBe('again');
  });
});
