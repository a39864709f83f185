/**
 * The caller's view of the VTN's events: those of programmes the caller has an accepted (or
 * since ended) enrolment in. State now (pending, active, completed, cancelled: by the VTN or by
 * the caller's opt-out) from the event's intervals and the clock; times also as wall-clock times
 * in the zone of the caller's enrolled plant (the first one; UTC without one). The detail lists,
 * per device of the caller, each command sent, the values before, what the device answered and
 * the power it delivered.
 */
import { type demandResponseApi, ErrorCode } from '@sunfleet/contracts';
import type { Selectable } from 'kysely';
import type { Static } from 'typebox';
import type { Caller } from '../../access/caller.ts';
import type { Db } from '../../db/index.ts';
import type { DrEventsTable } from '../../db/schema.ts';
import { optOut as dropRows } from '../../demand-response/dispatch.ts';
import { absoluteIntervals, type EventState, eventState } from '../../demand-response/intervals.ts';
import { deliveredW } from '../../demand-response/reports.ts';
import { reportStates } from '../../demand-response/store.ts';
import type { Ven } from '../../demand-response/ven.ts';
import type { OadrEvent } from '../../demand-response/wire.ts';
import { fail } from '../../http/errors.ts';
import { iso, localTimeFormatter } from '../../time/index.ts';
import * as repo from './events.repo.ts';

type EventItem = Static<typeof demandResponseApi.EventItem>;
type EventDetail = Static<typeof demandResponseApi.EventDetail>;

async function zoneOf(db: Db, enrolmentIds: readonly number[]): Promise<string> {
  if (enrolmentIds.length === 0) return 'UTC';
  return (await repo.firstDeviceZone(db, enrolmentIds)) ?? 'UTC';
}

/** The columns of an event row that its list item and detail read. */
type EventRowFull = Pick<
  Selectable<DrEventsTable>,
  | 'id'
  | 'vtn_id'
  | 'program_id'
  | 'name'
  | 'body'
  | 'start_ms'
  | 'end_ms'
  | 'cancelled_at'
  | 'received_at'
  | 'ignored_reason'
  | 'ended_reason'
>;

function toItem(r: EventRowFull, programName: string | null, optedOut: boolean, zone: string, now: number): EventItem {
  const event = JSON.parse(r.body) as OadrEvent;
  const intervals = absoluteIntervals(event, Number(r.received_at));
  const start = r.start_ms === null ? null : Number(r.start_ms);
  const end = r.end_ms === null ? null : Number(r.end_ms);
  const state: EventState = eventState(
    start === null || end === null ? null : { start, end },
    now,
    r.cancelled_at !== null || optedOut,
  );
  const first = intervals[0]?.signal;
  const discharge = intervals.find((i) => i.signal.action === 'discharge' && i.signal.powerW !== null)?.signal.powerW ?? null;
  const local = localTimeFormatter(zone);
  return {
    id: r.id,
    vtnEventId: r.vtn_id,
    programId: r.program_id,
    programName,
    name: r.name,
    state,
    optedOut,
    participationLevel: first?.level ?? null,
    powerDischarge: discharge === null ? null : Math.round(discharge / 10) / 100,
    start: iso(start),
    end: iso(end),
    localStart: start === null ? null : local(start),
    localEnd: end === null ? null : local(end),
    timezone: zone,
    durationMinutes: start === null || end === null ? null : Math.round((end - start) / 60_000),
    ignoredReason: r.ignored_reason,
    endedReason: r.ended_reason,
  };
}

export async function listEvents(db: Db, caller: Caller, q: { page?: number; size?: number; state?: string }, now = Date.now()) {
  const mine = await repo.myEnrolments(db, caller.user.id);
  const programs = [...new Set(mine.map((e) => e.program_id))];
  if (programs.length === 0) return { total: 0, list: [] };
  const rows = (await repo.eventsOfPrograms(db, programs)) as EventRowFull[];
  const optouts = new Set(await repo.optedOutEvents(db, caller.user.id));
  const zone = await zoneOf(
    db,
    mine.map((e) => e.id),
  );
  const names = new Map(mine.map((e) => [e.program_id, e.program_name]));
  let items = rows.map((r) => toItem(r, names.get(r.program_id) ?? null, optouts.has(r.id), zone, now));
  if (q.state) items = items.filter((i) => i.state === q.state);
  const page = q.page ?? 1;
  const size = q.size ?? 10;
  return { total: items.length, list: items.slice((page - 1) * size, page * size) };
}

export async function getEvent(db: Db, caller: Caller, id: number, now = Date.now()): Promise<EventDetail> {
  const mine = await repo.myEnrolments(db, caller.user.id);
  const r = (await repo.eventById(db, id)) as EventRowFull | undefined;
  const ofProgram = mine.filter((e) => e.program_id === r?.program_id);
  if (!r || ofProgram.length === 0) return fail(ErrorCode.notFound);
  const opted = await repo.optedOut(db, id, caller.user.id);
  const zone = await zoneOf(
    db,
    ofProgram.map((e) => e.id),
  );
  const item = toItem(r, ofProgram[0]!.program_name, opted, zone, now);
  const event = JSON.parse(r.body) as OadrEvent;
  const intervals = absoluteIntervals(event, Number(r.received_at));
  const rows = await repo.dispatchesOf(
    db,
    id,
    ofProgram.map((e) => e.id),
  );
  const dispatches = [];
  for (const x of rows) {
    const ended = Number(x.end_ms) <= now && x.action !== 'restore' && x.state === 'succeeded';
    const w = ended ? await deliveredW(db, x.device_id, Number(x.start_ms), Number(x.end_ms)) : null;
    dispatches.push({
      sn: x.device_sn,
      intervalId: x.interval_id,
      action: x.action,
      targetPower: Math.round(Number(x.target_w) / 10) / 100,
      start: iso(Number(x.start_ms))!,
      end: iso(Number(x.end_ms))!,
      state: x.state,
      sent: x.sent_values ? (JSON.parse(x.sent_values) as Record<string, number>) : null,
      previous: x.previous_values ? (JSON.parse(x.previous_values) as Record<string, number>) : null,
      settingGroup: x.setting_group,
      jobId: x.job_id,
      reason: x.reason,
      deliveredPower: w === null ? null : Math.round(w / 10) / 100,
    });
  }
  return {
    ...item,
    intervals: intervals.map((i) => ({
      id: i.id,
      start: iso(i.start)!,
      end: iso(i.end)!,
      action: i.signal.action,
      power: i.signal.powerW === null ? null : Math.round(i.signal.powerW / 10) / 100,
      level: i.signal.level,
    })),
    dispatches,
    report: await eventReport(db, r),
  };
}

/** The report owed for the event row: waiting (with its last error), sent, or given up and why. */
async function eventReport(db: Db, r: EventRowFull & { vtn_created?: string }): Promise<EventDetail['report']> {
  const rows = await reportStates(db, [r.vtn_id]);
  const mine = rows.find((x) => (x.event_created ?? '') === (r.vtn_created ?? ''));
  if (!mine) return null;
  const state = mine.sent_at !== null ? 'sent' : mine.dead_at !== null ? 'given-up' : 'waiting';
  return {
    state,
    attempts: Number(mine.attempts),
    lastError: mine.last_error,
    madeAt: iso(Number(mine.created_at))!,
    at: iso(mine.sent_at ?? mine.dead_at ?? null),
  };
}

/** Opt out: the caller's accepted enrolments of the event's programme leave it; their devices are restored. */
export async function optOut(db: Db, ven: Ven | null, caller: Caller, id: number, now = Date.now()): Promise<EventDetail> {
  const detail = await getEvent(db, caller, id, now);
  if (detail.state === 'completed' || detail.state === 'cancelled')
    fail(ErrorCode.stateBlocksAction, `the event is ${detail.state}`);
  const mine = (await repo.myEnrolments(db, caller.user.id)).filter(
    (e) => e.program_id === detail.programId && e.state === 'accepted',
  );
  for (const e of mine) {
    await repo.insertOptOut(db, id, e.id, caller.user.id, now);
    if (ven) await ven.optOut(id, e.id);
    else await dropRows(db, id, e.id, now);
  }
  return getEvent(db, caller, id);
}
