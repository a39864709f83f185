/**
 * An event's intervals as absolute time windows with what each asks of the batteries, and the
 * event's state at a moment. OpenADR 3 timing (User Guide 7.3, 7.4): an interval's own
 * intervalPeriod overrides the event's; a missing or "0001-01-01" start means right after the
 * previous interval (the first: the event's start, or "now" when that is zero too); the event's
 * `duration` clips the span; an event whose window is "0001-01-01" and PT0S is cancelled (7.9).
 */
import { FOREVER_MS, isZeroStart, type OadrEvent, type PayloadDescriptor, parseDuration, parseInstant } from './wire.ts';

export type DispatchAction = 'discharge' | 'charge' | 'hold' | 'normal';

export interface Signal {
  action: DispatchAction;
  /** Aggregate power for the whole VEN in W; null: a share of capacity (`share`). */
  powerW: number | null;
  /** 0..1 of the enrolled capacity when `powerW` is null (SIMPLE levels). */
  share: number | null;
  /** SIMPLE level 0..3, when the event sent one. */
  level: number | null;
}

export interface AbsoluteInterval {
  id: number;
  start: number;
  end: number;
  signal: Signal;
}

const unitFactor = (units: string | null | undefined) => {
  const u = (units ?? 'KW').toUpperCase();
  if (u === 'W') return 1;
  if (u === 'MW') return 1_000_000;
  return 1000;
};

const num = (v: unknown) =>
  typeof v === 'number' && Number.isFinite(v)
    ? v
    : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))
      ? Number(v)
      : null;

/**
 * What one interval's payloads ask: DISPATCH_SETPOINT (and _RELATIVE) is the site's consumption
 * in the descriptor's units (kW by default): below zero the batteries discharge that much, above
 * zero they charge, zero holds; SIMPLE 0..3 is normal operation or a third, two thirds or all of
 * the enrolled discharge capacity. Other payload types ask nothing of a battery.
 */
export function signalOf(
  payloads: OadrEvent['intervals'][number]['payloads'],
  descriptors: readonly PayloadDescriptor[] = [],
): Signal {
  for (const p of payloads) {
    const type = String(p.type).toUpperCase();
    const value = num(p.values?.[0]);
    if (value === null) continue;
    if (type === 'DISPATCH_SETPOINT' || type === 'DISPATCH_SETPOINT_RELATIVE') {
      const d = descriptors.find((x) => String(x.payloadType).toUpperCase() === type);
      const w = value * unitFactor(d?.units);
      if (w < 0) return { action: 'discharge', powerW: -w, share: null, level: null };
      if (w > 0) return { action: 'charge', powerW: w, share: null, level: null };
      return { action: 'hold', powerW: 0, share: null, level: null };
    }
    if (type === 'SIMPLE') {
      const level = Math.max(0, Math.min(3, Math.round(value)));
      return level === 0
        ? { action: 'normal', powerW: null, share: null, level }
        : { action: 'discharge', powerW: null, share: level / 3, level };
    }
  }
  return { action: 'normal', powerW: null, share: null, level: null };
}

/** The event's intervals as absolute windows (`receivedAt` stands for "now" in a 'do it now' event). */
export function absoluteIntervals(event: OadrEvent, receivedAt: number): AbsoluteInterval[] {
  const defaults = event.intervalPeriod ?? null;
  const eventStartText = defaults?.start ?? null;
  const eventStart = eventStartText && !isZeroStart(eventStartText) ? parseInstant(eventStartText) : null;
  const defaultDuration = parseDuration(defaults?.duration ?? null);
  const out: AbsoluteInterval[] = [];
  let previousEnd: number | null = null;
  for (const interval of event.intervals) {
    const own = interval.intervalPeriod ?? null;
    const ownStart = own?.start && !isZeroStart(own.start) ? parseInstant(own.start) : null;
    const start: number = ownStart ?? previousEnd ?? eventStart ?? receivedAt;
    const duration = parseDuration(own?.duration ?? null) ?? defaultDuration ?? FOREVER_MS;
    const end: number = start + Math.max(0, Math.min(duration, FOREVER_MS));
    out.push({ id: interval.id, start, end, signal: signalOf(interval.payloads, event.payloadDescriptors ?? []) });
    previousEnd = end;
  }
  const clip = parseDuration(event.duration ?? null);
  if (clip !== null && clip > 0 && out.length > 0) {
    const until = out[0]!.start + clip;
    return out.filter((i) => i.start < until).map((i) => ({ ...i, end: Math.min(i.end, until) }));
  }
  return out;
}

/** Whether the VTN cancelled the event by shrinking its window to "0001-01-01" and PT0S. */
export function isCancelledWindow(event: OadrEvent): boolean {
  const p = event.intervalPeriod;
  const zeroWindow = (start?: string | null, duration?: string | null) =>
    isZeroStart(start) && parseDuration(duration ?? null) === 0;
  if (p && zeroWindow(p.start, p.duration)) return true;
  return (
    event.intervals.length > 0 &&
    event.intervals.every((i) => zeroWindow(i.intervalPeriod?.start ?? p?.start, i.intervalPeriod?.duration ?? p?.duration))
  );
}

export function eventSpan(intervals: readonly AbsoluteInterval[]): { start: number; end: number } | null {
  if (intervals.length === 0) return null;
  return { start: Math.min(...intervals.map((i) => i.start)), end: Math.max(...intervals.map((i) => i.end)) };
}

export type EventState = 'pending' | 'active' | 'completed' | 'cancelled';

/** The state at `now`: cancelled (by the VTN or the user's opt-out) wins, then the window. */
export function eventState(span: { start: number; end: number } | null, now: number, cancelled: boolean): EventState {
  if (cancelled || !span) return 'cancelled';
  if (now < span.start) return 'pending';
  if (now < span.end) return 'active';
  return 'completed';
}
