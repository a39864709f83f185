/**
 * What real VTNs send, read as the spec means it: the reference VTN's captured program, event,
 * VEN and webhook body (/work/shared/data/openadr3/reference-vtn-samples: timestamps without the
 * `T`, a webhook body that is a JSON-encoded string of a snake_case object); durations; an
 * event's intervals, signals and state across zones and a daylight-saving change.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { localTimeFormatter } from '../time/index.ts';
import { absoluteIntervals, eventSpan, eventState, isCancelledWindow, signalOf } from './intervals.ts';
import { asEvent, asProgram, decodeBody, FOREVER_MS, parseDuration, parseInstant, parseNotification } from './wire.ts';

const samples = path.resolve(import.meta.dirname, '../../../../../shared/data/openadr3/reference-vtn-samples');
const sample = (f: string) => fs.readFileSync(path.join(samples, f), 'utf8');

describe('timestamps and durations', () => {
  it('reads RFC 3339 and the reference VTN’s space-separated timestamps (UTC without an offset)', () => {
    expect(parseInstant('2026-11-21 21:42:26')).toBe(Date.UTC(2026, 10, 21, 21, 42, 26));
    expect(parseInstant('2026-11-21T21:42:26Z')).toBe(Date.UTC(2026, 10, 21, 21, 42, 26));
    expect(parseInstant('2026-11-21T22:42:26+01:00')).toBe(Date.UTC(2026, 10, 21, 21, 42, 26));
    expect(parseInstant('2026-11-21T21:42:26.500Z')).toBe(Date.UTC(2026, 10, 21, 21, 42, 26, 500));
    expect(parseInstant('0001-01-01')).toBe(Number.MIN_SAFE_INTEGER);
    expect(parseInstant('yesterday')).toBeNull();
  });

  it('reads ISO 8601 durations, P9999Y as for ever', () => {
    expect(parseDuration('PT2H')).toBe(7_200_000);
    expect(parseDuration('PT1H30M')).toBe(5_400_000);
    expect(parseDuration('P1D')).toBe(86_400_000);
    expect(parseDuration('P1W')).toBe(7 * 86_400_000);
    expect(parseDuration('PT0S')).toBe(0);
    expect(parseDuration('P9999Y')).toBe(FOREVER_MS);
    expect(parseDuration('2 hours')).toBeNull();
  });
});

describe('the reference VTN’s objects', () => {
  it('reads its program and event', () => {
    const program = asProgram(JSON.parse(sample('ri-program-created.json')));
    expect(program).toMatchObject({ id: '0', programName: 'BESS-DR-2026' });
    const event = asEvent(JSON.parse(sample('ri-event-created.json')))!;
    expect(event.programID).toBe('0');
    const intervals = absoluteIntervals(event, 0);
    expect(intervals).toEqual([
      {
        id: 0,
        start: Date.UTC(2026, 11, 1, 17),
        end: Date.UTC(2026, 11, 1, 19),
        signal: { action: 'discharge', powerW: 3500, share: null, level: null },
      },
    ]);
  });

  it('reads its webhook body: a JSON-encoded string of a snake_case notification', () => {
    const line = sample('ri-webhook-notification.txt').trim();
    const body = line.slice(line.indexOf(' ') + 1);
    // As Fastify hands it over: the JSON text parsed once is still a string.
    const n = parseNotification(JSON.parse(body))!;
    expect(n).toMatchObject({ objectType: 'EVENT', operation: 'CREATE' });
    const event = asEvent(n.object)!;
    expect(event).toMatchObject({ id: '3', programID: '0', eventName: 'evt-3' });
    expect(event.modificationDateTime).toBe('2026-11-21 21:42:39');
    expect(absoluteIntervals(event, 0)).toEqual([
      {
        id: 0,
        start: Date.UTC(2026, 11, 3, 17),
        end: Date.UTC(2026, 11, 3, 18),
        signal: { action: 'discharge', powerW: null, share: 2 / 3, level: 2 },
      },
    ]);
    // The raw text too (a body sent as text/plain), and an object as the spec sends it.
    expect(parseNotification(body)?.objectType).toBe('EVENT');
    expect(parseNotification({ objectType: 'EVENT', operation: 'DELETE', object: { id: '3', programID: '0' } })?.operation).toBe(
      'DELETE',
    );
    expect(parseNotification('{"not":"one"}')).toBeNull();
    expect(parseNotification('not json')).toBeNull();
  });

  it('keeps payload values as data (points are not renamed)', () => {
    expect(decodeBody({ payloads: [{ type: 'CURVE', values: [{ x_axis: 1 }] }] })).toEqual({
      payloads: [{ type: 'CURVE', values: [{ x_axis: 1 }] }],
    });
  });
});

describe('intervals and signals', () => {
  const base = { id: 'e', programID: 'p' };
  it('chains intervals without their own start after the previous one, clipped by event.duration', () => {
    const event = asEvent({
      ...base,
      intervalPeriod: { start: '2026-06-01T10:00:00Z', duration: 'PT1H' },
      duration: 'PT2H30M',
      intervals: [
        { id: 0, payloads: [{ type: 'SIMPLE', values: [1] }] },
        { id: 1, payloads: [{ type: 'SIMPLE', values: [3] }] },
        { id: 2, payloads: [{ type: 'SIMPLE', values: [0] }] },
      ],
    })!;
    const i = absoluteIntervals(event, 0);
    expect(i.map((x) => [x.id, new Date(x.start).toISOString(), new Date(x.end).toISOString()])).toEqual([
      [0, '2026-06-01T10:00:00.000Z', '2026-06-01T11:00:00.000Z'],
      [1, '2026-06-01T11:00:00.000Z', '2026-06-01T12:00:00.000Z'],
      [2, '2026-06-01T12:00:00.000Z', '2026-06-01T12:30:00.000Z'],
    ]);
    expect(i.map((x) => x.signal.action)).toEqual(['discharge', 'discharge', 'normal']);
  });

  it('a "do it now" event starts when it was received', () => {
    const event = asEvent({
      ...base,
      intervalPeriod: { start: '0001-01-01', duration: 'PT15M' },
      intervals: [{ id: 0, payloads: [] }],
    })!;
    expect(absoluteIntervals(event, 1_000_000)[0]).toMatchObject({ start: 1_000_000, end: 1_000_000 + 900_000 });
  });

  it('DISPATCH_SETPOINT in W, kW and MW; positive charges, zero holds', () => {
    const d = (units: string) => [{ payloadType: 'DISPATCH_SETPOINT', units }];
    expect(signalOf([{ type: 'DISPATCH_SETPOINT', values: [-1500] }], d('W'))).toMatchObject({
      action: 'discharge',
      powerW: 1500,
    });
    expect(signalOf([{ type: 'DISPATCH_SETPOINT', values: [2] }], d('KW'))).toMatchObject({ action: 'charge', powerW: 2000 });
    expect(signalOf([{ type: 'DISPATCH_SETPOINT', values: [-0.5] }], d('MW'))).toMatchObject({
      action: 'discharge',
      powerW: 500_000,
    });
    expect(signalOf([{ type: 'DISPATCH_SETPOINT', values: [0] }])).toMatchObject({ action: 'hold' });
    expect(signalOf([{ type: 'PRICE', values: [0.3] }])).toMatchObject({ action: 'normal' });
  });

  it('an event shrunk to 0001-01-01 and PT0S is cancelled', () => {
    const event = asEvent({
      ...base,
      intervalPeriod: { start: '0001-01-01T00:00:00', duration: 'PT0S' },
      intervals: [{ id: 0, payloads: [] }],
    })!;
    expect(isCancelledWindow(event)).toBe(true);
    expect(
      isCancelledWindow(
        asEvent({ ...base, intervalPeriod: { start: '2026-01-01T00:00:00Z', duration: 'PT1H' }, intervals: [] })!,
      ),
    ).toBe(false);
  });
});

describe('event state across zones and a daylight-saving change', () => {
  // Europe/Madrid leaves summer time on 2026-10-25 at 03:00 local (01:00 UTC): 02:00–03:00 happens twice.
  const event = asEvent({
    id: 'dst',
    programID: 'p',
    intervalPeriod: { start: '2026-10-25T01:30:00+02:00', duration: 'PT3H' },
    intervals: [{ id: 0, payloads: [{ type: 'SIMPLE', values: [2] }] }],
  })!;
  const span = eventSpan(absoluteIntervals(event, 0))!;

  it('lasts three hours although the wall clock in Madrid moves two', () => {
    expect(span.end - span.start).toBe(3 * 3_600_000);
    expect(localTimeFormatter('Europe/Madrid')(span.start)).toBe('2026-10-25 01:30:00');
    expect(localTimeFormatter('Europe/Madrid')(span.end)).toBe('2026-10-25 03:30:00');
    expect(localTimeFormatter('America/New_York')(span.start)).toBe('2026-10-24 19:30:00');
    expect(localTimeFormatter('Asia/Kolkata')(span.end)).toBe('2026-10-25 08:00:00');
  });

  it('is pending, active, completed by the instant, whatever the zone; cancelled wins', () => {
    expect(eventState(span, span.start - 1, false)).toBe('pending');
    expect(eventState(span, span.start, false)).toBe('active');
    // The repeated hour: 02:30 local the second time is still inside the event.
    expect(eventState(span, Date.UTC(2026, 9, 25, 1, 30), false)).toBe('active');
    expect(eventState(span, span.end - 1, false)).toBe('active');
    expect(eventState(span, span.end, false)).toBe('completed');
    expect(eventState(span, span.start + 1, true)).toBe('cancelled');
    expect(eventState(null, 0, false)).toBe('cancelled');
  });
});
