/** The throttle store: one row per key, a window from the first hit, concurrent hits each counted. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/harness.ts';
import { clearHits, hit, peek, pruneThrottles, throttleKey } from './throttle.ts';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

const minute = 60_000;

describe('throttle store', () => {
  it('counts hits in a window that starts at the first hit, and starts anew after it', async () => {
    const key = throttleKey('test', 'a');
    const t0 = 1_700_000_000_000;
    expect(await hit(s.db, key, minute, t0)).toEqual({ count: 1, windowStart: t0, lastAt: t0 });
    expect((await hit(s.db, key, minute, t0 + 10_000)).count).toBe(2);
    expect(await hit(s.db, key, minute, t0 + 59_999)).toEqual({ count: 3, windowStart: t0, lastAt: t0 + 59_999 });
    // The window has passed: a new one begins at this hit.
    expect(await hit(s.db, key, minute, t0 + minute)).toEqual({ count: 1, windowStart: t0 + minute, lastAt: t0 + minute });
  });

  it('keeps keys apart, and one row per key', async () => {
    const t = 1_700_000_100_000;
    await hit(s.db, throttleKey('test', 'b'), minute, t);
    await hit(s.db, throttleKey('test', 'b'), minute, t);
    expect((await hit(s.db, throttleKey('test', 'c'), minute, t)).count).toBe(1);
    expect((await hit(s.db, throttleKey('other', 'b'), minute, t)).count).toBe(1);
    const rows = await s.db.selectFrom('throttles').select('key').where('key', '=', throttleKey('test', 'b')).execute();
    expect(rows).toHaveLength(1);
    // The key is a hash: the subject is not stored in clear.
    expect(throttleKey('test', 'someone@example.com')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('counts concurrent hits each once', async () => {
    const key = throttleKey('test', 'burst');
    const t = Date.now();
    const counts = await Promise.all(Array.from({ length: 20 }, () => hit(s.db, key, minute, t)));
    expect(counts.map((c) => c.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });

  it('peeks without counting, forgets a key, and prunes idle rows', async () => {
    const key = throttleKey('test', 'peek');
    const t = 1_700_000_200_000;
    expect(await peek(s.db, key, minute, t)).toBeNull();
    await hit(s.db, key, minute, t);
    expect(await peek(s.db, key, minute, t + 1000)).toEqual({ count: 1, windowStart: t, lastAt: t });
    expect(await peek(s.db, key, minute, t + 1000)).toEqual({ count: 1, windowStart: t, lastAt: t });
    expect(await peek(s.db, key, minute, t + minute)).toBeNull();
    await clearHits(s.db, key);
    expect(await peek(s.db, key, minute, t + 1000)).toBeNull();

    const idle = throttleKey('test', 'idle');
    const fresh = throttleKey('test', 'fresh');
    await hit(s.db, idle, minute, t);
    await hit(s.db, fresh, minute, t + 2 * 86_400_000);
    expect(await pruneThrottles(s.db, 86_400_000, t + 2 * 86_400_000)).toBeGreaterThanOrEqual(1);
    const left = await s.db.selectFrom('throttles').select('key').where('key', 'in', [idle, fresh]).execute();
    expect(left.map((r) => r.key)).toEqual([fresh]);
  });
});
