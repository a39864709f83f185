import { describe, expect, it } from 'vitest';
import { onlineShare, timeline } from './history.ts';

const NOW = Date.parse('2026-05-31T00:00:00.000Z');
const iso = (daysAgo: number) => new Date(NOW - daysAgo * 86_400_000).toISOString();

describe('gateway connection time line', () => {
  it('orders the periods oldest first, clips them to 30 days and marks the unknown start', () => {
    const history = [
      { state: 'online' as const, from: iso(2), to: null, durationS: 2 * 86_400 },
      { state: 'offline' as const, from: iso(3), to: iso(2), durationS: 86_400 },
      { state: 'online' as const, from: iso(40), to: iso(3), durationS: 37 * 86_400 },
    ];
    const segs = timeline(history, NOW, 30);
    expect(segs.map((s) => s.state)).toEqual(['online', 'offline', 'online']);
    expect(segs.map((s) => Math.round(s.share * 30))).toEqual([27, 1, 2]);
    expect(onlineShare(segs)).toBeCloseTo(29 / 30, 5);

    const late = timeline([{ state: 'online' as const, from: iso(6), to: null, durationS: 6 * 86_400 }], NOW, 30);
    expect(late.map((s) => [s.state, Math.round(s.share * 30)])).toEqual([
      ['unknown', 24],
      ['online', 6],
    ]);
    expect(onlineShare(late)).toBe(1);
    expect(onlineShare(timeline([], NOW, 30))).toBeNull();
  });
});
