/**
 * A gateway's connection history on a time line: the online and offline periods (newest first
 * from the server) clipped to the window of the last 30 days, oldest first, as shares of the
 * window; the time before the first known period is "unknown". Also the online share of the
 * known time.
 */
import { devicesApi } from '@sunfleet/contracts';
import type { GatewayDetail } from '../shared/types.ts';

type Period = GatewayDetail['history'][number];

export interface Segment {
  state: 'online' | 'offline' | 'unknown';
  from: number;
  to: number;
  /** Share of the window, 0–1. */
  share: number;
  period: Period | null;
}

const DAY_MS = 86_400_000;

export function timeline(history: readonly Period[], now = Date.now(), days = devicesApi.GATEWAY_HISTORY_DAYS): Segment[] {
  const start = now - days * DAY_MS;
  const span = now - start;
  const periods = [...history]
    .map((p) => ({ p, from: Date.parse(p.from), to: p.to ? Date.parse(p.to) : now }))
    .filter((x) => Number.isFinite(x.from) && Number.isFinite(x.to) && x.to > start && x.from < now)
    .sort((a, b) => a.from - b.from);
  const out: Segment[] = [];
  let cursor = start;
  for (const { p, from, to } of periods) {
    const a = Math.max(from, start, cursor);
    const b = Math.min(to, now);
    if (b <= a) continue;
    if (a > cursor) out.push({ state: 'unknown', from: cursor, to: a, share: (a - cursor) / span, period: null });
    out.push({ state: p.state, from: a, to: b, share: (b - a) / span, period: p });
    cursor = b;
  }
  if (cursor < now) out.push({ state: 'unknown', from: cursor, to: now, share: (now - cursor) / span, period: null });
  return out;
}

/** Online time ÷ known time of the window (0–1); null when nothing is known. */
export function onlineShare(segments: readonly Segment[]): number | null {
  const known = segments.filter((s) => s.state !== 'unknown').reduce((n, s) => n + (s.to - s.from), 0);
  if (known <= 0) return null;
  const online = segments.filter((s) => s.state === 'online').reduce((n, s) => n + (s.to - s.from), 0);
  return online / known;
}
