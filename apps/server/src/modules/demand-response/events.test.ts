/**
 * The events as users see them, through the events service with the clock given: one event
 * across Madrid's daylight-saving change (2026-10-25, 03:00 local → 02:00; the VTN's timestamps
 * without the `T`, as the reference VTN sends them) seen by an owner in Madrid and one in New
 * York: the same instants and state at every moment, the wall-clock times in each plant's zone,
 * three hours long although Madrid's clock moves two; an event the VTN cancelled; a user without
 * an enrolment in the programme sees none of it.
 */

import { ErrorCode } from '@sunfleet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness.ts';
import { type Site, site } from '../../../test/kits/events.ts';
import type { Caller } from '../../access/caller.ts';
import { upsertEvent } from '../../demand-response/store.ts';
import { asEvent } from '../../demand-response/wire.ts';
import { getEvent, listEvents } from './events.service.ts';

let s: TestServer;
let madrid: Site;
let newYork: Site;
let stranger: Site;
const PROGRAM = 'prog-dst';
/** The events service reads only the caller's user. */
const callerOf = async (x: Site): Promise<Caller> => ({
  user: await s.db.selectFrom('users').selectAll().where('id', '=', x.owner.id).executeTakeFirstOrThrow(),
  sessionId: 'test',
  grants: new Set(),
});

async function enrol(x: Site, utility: string) {
  const t = Date.now();
  const e = await s.db
    .insertInto('dr_enrollments')
    .values({
      user_id: x.owner.id,
      program_id: PROGRAM,
      program_name: 'BESS-DR-2026',
      email: 'a@example.com',
      first_name: 'A',
      last_name: 'B',
      service_country: 'ES',
      service_region: 'M',
      service_locality: 'M',
      service_extended: null,
      service_street: 'S',
      service_postal: '1',
      mailing_country: 'ES',
      mailing_region: 'M',
      mailing_locality: 'M',
      mailing_extended: null,
      mailing_street: 'S',
      mailing_postal: '1',
      source_account: '1',
      utility_account: utility,
      station_id: x.plantId,
      state: 'accepted',
      terms_accepted_at: t,
      created_at: t,
      updated_at: t,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await s.db
    .insertInto('dr_enrollment_devices')
    .values({
      enrollment_id: e.id,
      device_id: x.inverter.id,
      sn: x.inverter.sn,
      manufacturer: 'Sunfleet',
      model: 'Hybrid',
      install_date: null,
      charge_w: 5000,
      discharge_w: 5000,
      storage_wh: 10_000,
      resource_id: 'r',
      added_at: t,
      removed_at: null,
    })
    .execute();
}

let dst: number;
let cancelled: number;
// 01:30 Madrid summer time (UTC+2) = 23:30 UTC the day before; three hours: to 02:30 UTC = 03:30 Madrid winter time.
const start = Date.UTC(2026, 9, 24, 23, 30);
const end = start + 3 * 3_600_000;

beforeAll(async () => {
  s = await startServer();
  madrid = await site(s, { timezone: 'Europe/Madrid' });
  newYork = await site(s, { timezone: 'America/New_York' });
  stranger = await site(s, { timezone: 'Europe/Madrid' });
  await enrol(madrid, 'madrid');
  await enrol(newYork, 'new_york');
  const event = asEvent({
    id: 'dst-1',
    program_id: PROGRAM,
    event_name: 'Night across the change',
    interval_period: { start: '2026-10-24 23:30:00', duration: 'PT3H' },
    intervals: [{ id: 0, interval_period: null, payloads: [{ type: 'SIMPLE', values: [2] }] }],
  })!;
  dst = (await upsertEvent(s.db, event, { ignoredReason: null, only: null }, start - 86_400_000)).row.id;
  const gone = asEvent({
    id: 'dst-2',
    programID: PROGRAM,
    eventName: 'Cancelled by the utility',
    intervalPeriod: { start: '0001-01-01', duration: 'PT0S' },
    intervals: [{ id: 0, payloads: [{ type: 'SIMPLE', values: [1] }] }],
  })!;
  cancelled = (await upsertEvent(s.db, gone, { ignoredReason: null, only: null }, start)).row.id;
});
afterAll(() => s.close());

describe('event state and times', () => {
  it('the same instants and state for both owners at every moment; wall-clock times in each plant’s zone', async () => {
    for (const [now, state] of [
      [start - 1, 'pending'],
      [start, 'active'],
      // 02:30 in Madrid twice: 00:30 UTC (summer time) and 01:30 UTC (winter time).
      [Date.UTC(2026, 9, 25, 0, 30), 'active'],
      [Date.UTC(2026, 9, 25, 1, 30), 'active'],
      [end - 1, 'active'],
      [end, 'completed'],
    ] as const) {
      for (const who of [madrid, newYork]) {
        const d = await getEvent(s.db, await callerOf(who), dst, now);
        expect(d.state, `${who === madrid ? 'Madrid' : 'New York'} at ${new Date(now).toISOString()}`).toBe(state);
      }
    }
    const m = await getEvent(s.db, await callerOf(madrid), dst, start);
    expect(m).toMatchObject({
      start: new Date(start).toISOString(),
      end: new Date(end).toISOString(),
      timezone: 'Europe/Madrid',
      localStart: '2026-10-25 01:30:00',
      localEnd: '2026-10-25 03:30:00',
      durationMinutes: 180,
      participationLevel: 2,
      name: 'Night across the change',
    });
    const n = await getEvent(s.db, await callerOf(newYork), dst, start);
    expect(n).toMatchObject({
      start: m.start,
      end: m.end,
      timezone: 'America/New_York',
      localStart: '2026-10-24 19:30:00',
      localEnd: '2026-10-24 22:30:00',
      durationMinutes: 180,
    });
  });

  it('an event the VTN shrank to nothing is cancelled; the state filter lists by state now', async () => {
    const caller = await callerOf(madrid);
    expect((await getEvent(s.db, caller, cancelled, start)).state).toBe('cancelled');
    const active = await listEvents(s.db, caller, { state: 'active' }, start + 60_000);
    expect(active.list.map((e) => e.id)).toEqual([dst]);
    const all = await listEvents(s.db, caller, {}, start + 60_000);
    expect(new Set(all.list.map((e) => e.state))).toEqual(new Set(['active', 'cancelled']));
  });

  it('a user without an enrolment in the programme sees none of its events', async () => {
    const caller = await callerOf(stranger);
    expect(await listEvents(s.db, caller, {}, start)).toEqual({ total: 0, list: [] });
    await expect(getEvent(s.db, caller, dst, start)).rejects.toMatchObject({ code: ErrorCode.notFound });
  });
});
