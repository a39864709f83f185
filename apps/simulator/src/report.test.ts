import { describe, expect, it } from 'vitest';
import type { FleetStats } from './fleet.ts';
import { type ReportTimers, startReporter, summaryLine } from './report.ts';

const stats = (over: Partial<FleetStats> = {}): FleetStats => ({
  gateways: 12,
  online: 12,
  devices: 40,
  readings: 0,
  sent: 0,
  published: 0,
  events: 0,
  replies: 0,
  failed: 0,
  dropped: 0,
  queued: 0,
  inflight: 0,
  reconnects: 0,
  now: Date.parse('2026-05-20T10:00:00Z'),
  ...over,
});

/** A fake wall clock with interval timers that fire when it is advanced. */
function fakeTimers() {
  let now = 0;
  const timers = new Map<number, { fn: () => void; ms: number; next: number }>();
  let ids = 0;
  const api: ReportTimers = {
    now: () => now,
    setInterval(fn, ms) {
      timers.set(++ids, { fn, ms, next: now + ms });
      return ids;
    },
    clearInterval(handle) {
      timers.delete(handle as number);
    },
  };
  const advance = (ms: number) => {
    const end = now + ms;
    for (;;) {
      const due = [...timers.values()].filter((t) => t.next <= end).sort((a, b) => a.next - b.next)[0];
      if (!due) break;
      now = due.next;
      due.next += due.ms;
      due.fn();
    }
    now = end;
  };
  return { api, advance, count: () => timers.size };
}

describe('fleet progress log', () => {
  it('writes one line a minute for the whole fleet, not one every 10 s', () => {
    const clock = fakeTimers();
    const lines: string[] = [];
    let current = stats();
    const reporter = startReporter({ stats: () => current, write: (l) => lines.push(l), timers: clock.api });
    clock.advance(59_000);
    expect(lines).toHaveLength(0);
    current = stats({ sent: 24, published: 20, events: 2, queued: 1, inflight: 1, reconnects: 1, now: current.now + 60_000 });
    clock.advance(1_000);
    expect(lines).toEqual([
      '[2026-05-20T10:01:00Z] 12/12 gateways online; first 60 s: 24 frames sent, 22 acknowledged, 1 reconnects; 2 pending',
    ]);
    clock.advance(10 * 60_000);
    expect(lines).toHaveLength(11);
    reporter.stop();
    expect(clock.count()).toBe(0);
    clock.advance(5 * 60_000);
    expect(lines).toHaveLength(11);
  });

  it('counts each line from the one before; a line on demand (start, stop) restarts the count', () => {
    const clock = fakeTimers();
    const lines: string[] = [];
    let current = stats({ sent: 100, published: 100 });
    const reporter = startReporter({ stats: () => current, write: (l) => lines.push(l), timers: clock.api });
    reporter.report();
    expect(lines[0]).toContain('first 0 s: 100 frames sent, 100 acknowledged, 0 reconnects; 0 pending');
    current = stats({ online: 11, sent: 160, published: 150, dropped: 3, queued: 9, reconnects: 2 });
    clock.advance(60_000);
    expect(lines[1]).toContain(
      '11/12 gateways online; last 60 s: 60 frames sent, 50 acknowledged, 2 reconnects, 3 dropped; 9 pending',
    );
    clock.advance(30_000);
    reporter.report();
    expect(lines[2]).toContain('last 30 s: 0 frames sent');
    reporter.stop();
  });

  it('the line names the simulated time', () => {
    expect(summaryLine(stats({ now: Date.parse('2026-01-02T03:04:05.678Z') }), null, 0)).toMatch(/^\[2026-01-02T03:04:05Z\]/);
  });
});
