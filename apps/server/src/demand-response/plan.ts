/**
 * Planning an event: its intervals split over the enrolled devices of the programme's accepted
 * enrolments that did not opt out, in proportion to their discharge (or charge) capacity and
 * never above it, one dispatch row per device and interval plus one restore row per device at
 * the event's end. A battery at or below its reserve gets no discharge share, a full one no
 * charge share. Opt-outs and devices leaving make their restores due now.
 */
import type { Expression, ExpressionBuilder, Insertable, SqlBool } from 'kysely';
import type { Db } from '../db/index.ts';
import type { Database, DrDispatchAction, DrDispatchesTable } from '../db/schema.ts';
import { latestBySn, num } from '../energy/latest.ts';
import { FULL_SOC, RESERVE_SOC } from './controls.ts';
import { absoluteIntervals } from './intervals.ts';
import type { EventRow } from './store.ts';
import type { OadrEvent } from './wire.ts';

export { FULL_SOC, RESERVE_SOC };

const RESTORE_INTERVAL = -1;

/** The state of charge (%) in a device's latest values, null when it has none. */
export const socOf = (latest: { values: Record<string, unknown> } | null) =>
  num(latest?.values.batterySoc) ?? num(latest?.values.soc);

export interface Participant {
  enrollmentDeviceId: number;
  deviceId: number;
  sn: string;
  chargeW: number;
  dischargeW: number;
}

/**
 * The devices taking part in an event: accepted enrolments of its programme, devices not removed,
 * no opt-out; `only` (device SNs the event's targets name) limits them further.
 */
export async function participants(
  db: Db,
  eventId: number,
  programId: string,
  only: readonly string[] | null = null,
): Promise<Participant[]> {
  let q = db
    .selectFrom('dr_enrollment_devices as d')
    .innerJoin('dr_enrollments as e', 'e.id', 'd.enrollment_id')
    .innerJoin('devices', 'devices.id', 'd.device_id')
    .select(['d.id', 'd.device_id', 'd.sn', 'd.charge_w', 'd.discharge_w'])
    .where('e.program_id', '=', programId)
    .where('e.state', '=', 'accepted')
    .where('d.removed_at', 'is', null)
    .where('devices.deleted_at', 'is', null)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('dr_optouts as o')
            .select('o.event_id')
            .whereRef('o.enrollment_id', '=', 'e.id')
            .where('o.event_id', '=', eventId),
        ),
      ),
    )
    .orderBy('d.id');
  if (only) q = q.where('d.sn', 'in', only.length > 0 ? only : ['']);
  const rows = await q.execute();
  return rows.map((r) => ({
    enrollmentDeviceId: r.id,
    deviceId: r.device_id,
    sn: r.sn,
    chargeW: Number(r.charge_w),
    dischargeW: Number(r.discharge_w),
  }));
}

/** Split `totalW` over capacities, each share at most its capacity (water filling). */
export function allocate(totalW: number, capacities: readonly number[]): number[] {
  const out = capacities.map(() => 0);
  let remaining = Math.max(0, totalW);
  let open = capacities.map((c, i) => ({ i, room: Math.max(0, c) })).filter((x) => x.room > 0);
  while (remaining > 1e-6 && open.length > 0) {
    const sum = open.reduce((s, x) => s + x.room, 0);
    const next: typeof open = [];
    let used = 0;
    for (const x of open) {
      const give = Math.min(x.room, (remaining * x.room) / sum);
      out[x.i]! += give;
      used += give;
      if (x.room - give > 1e-6) next.push({ i: x.i, room: x.room - give });
    }
    remaining -= used;
    if (used < 1e-6) break;
    open = next;
  }
  return out;
}

/**
 * (Re)plan an event: rows not yet sent are replaced by the plan for the event as it is now; rows
 * already sent stay as the record. A cancelled event plans nothing but the restores, due now.
 */
export async function planEvent(db: Db, row: EventRow, now = Date.now()): Promise<void> {
  const event = JSON.parse(row.body) as OadrEvent;
  await db
    .deleteFrom('dr_dispatches')
    .where('event_id', '=', row.id)
    .where('state', '=', 'planned')
    .where('action', '!=', 'restore')
    .execute();
  const people = await participants(
    db,
    row.id,
    row.program_id,
    row.resource_scope ? (JSON.parse(row.resource_scope) as string[]) : null,
  );
  // States of charge in one read per 500 devices (a battery without any counts as half full).
  const latest = await latestBySn(
    db,
    people.map((p) => p.sn),
  );
  const socs = people.map((p) => socOf(latest.get(p.sn) ?? null) ?? 50);
  const cancelled = row.cancelled_at !== null;
  const intervals = cancelled ? [] : absoluteIntervals(event, now).filter((i) => i.end > now && i.signal.action !== 'normal');
  // What the devices were already sent (an update of the event re-plans it): the same command for
  // the same interval is not sent again; the record keeps the interval's end as it now is.
  const already = new Map(
    (
      await db
        .selectFrom('dr_dispatches')
        .select(['device_id', 'interval_id', 'action', 'target_w'])
        .where('event_id', '=', row.id)
        .where('action', '!=', 'restore')
        .where('state', 'in', ['sending', 'succeeded'])
        .execute()
    ).map((r) => [`${r.device_id}:${r.interval_id}`, `${r.action}:${Number(r.target_w)}`]),
  );
  for (const i of intervals)
    await db
      .updateTable('dr_dispatches')
      .set({ end_ms: i.end, updated_at: now })
      .where('event_id', '=', row.id)
      .where('interval_id', '=', i.id)
      .where('action', '!=', 'restore')
      .where('state', 'in', ['sending', 'succeeded'])
      .where('end_ms', '!=', i.end)
      .execute();
  const values: Array<Insertable<DrDispatchesTable> & { state: 'planned' }> = [];
  for (const interval of intervals) {
    const { action, powerW, share } = interval.signal;
    // A battery at its reserve gets no discharge share, a full one no charge share: the others take it.
    const caps = people.map((p, i) =>
      action === 'charge'
        ? socs[i]! >= FULL_SOC
          ? 0
          : p.chargeW
        : action === 'discharge' && socs[i]! <= RESERVE_SOC
          ? 0
          : p.dischargeW,
    );
    const targets =
      action === 'hold' ? caps.map(() => 0) : powerW !== null ? allocate(powerW, caps) : caps.map((c) => c * (share ?? 0));
    people.forEach((p, i) => {
      if (action !== 'hold' && targets[i]! <= 0) return;
      if (already.get(`${p.deviceId}:${interval.id}`) === `${action}:${Math.round(targets[i]!)}`) return;
      values.push({
        event_id: row.id,
        enrollment_device_id: p.enrollmentDeviceId,
        device_id: p.deviceId,
        device_sn: p.sn,
        interval_id: interval.id,
        start_ms: Math.max(interval.start, now),
        end_ms: interval.end,
        action: action as DrDispatchAction,
        target_w: Math.round(targets[i]!),
        state: 'planned',
        created_at: now,
        updated_at: now,
      });
    });
  }
  const end = intervals.length > 0 ? Math.max(...intervals.map((i) => i.end)) : now;
  // One restore per device the event commands (or commanded): at the end, or now when cancelled.
  const commanded = new Set(already.keys());
  const devices = new Map<number, { device_sn: string; enrollment_device_id: number }>(
    values.map((v) => [v.device_id, { device_sn: v.device_sn, enrollment_device_id: v.enrollment_device_id }]),
  );
  for (const interval of intervals)
    for (const p of people)
      if (commanded.has(`${p.deviceId}:${interval.id}`) && !devices.has(p.deviceId))
        devices.set(p.deviceId, { device_sn: p.sn, enrollment_device_id: p.enrollmentDeviceId });
  const sent = await db
    .selectFrom('dr_dispatches')
    .select(['device_id', 'device_sn', 'enrollment_device_id'])
    .where('event_id', '=', row.id)
    .where('action', '!=', 'restore')
    .where('state', 'in', ['sending', 'succeeded', 'failed'])
    .execute();
  for (const s of sent) if (!devices.has(s.device_id)) devices.set(s.device_id, s);
  const restores = await db
    .selectFrom('dr_dispatches')
    .select(['id', 'device_id', 'state'])
    .where('event_id', '=', row.id)
    .where('action', '=', 'restore')
    .execute();
  // A restore planned for a device the event no longer commands and never did is dropped.
  const stale = restores.filter((r) => r.state === 'planned' && !devices.has(r.device_id)).map((r) => r.id);
  for (let i = 0; i < stale.length; i += 500)
    await db
      .deleteFrom('dr_dispatches')
      .where('id', 'in', stale.slice(i, i + 500))
      .execute();
  // The planned restores move to the (new) end in one statement; an opted-out enrolment's stay due now.
  await db
    .updateTable('dr_dispatches')
    .set({ start_ms: end, end_ms: end, updated_at: now })
    .where('event_id', '=', row.id)
    .where('action', '=', 'restore')
    .where('state', '=', 'planned')
    .where('start_ms', '!=', end)
    .where('enrollment_device_id', 'not in', (eb) =>
      eb
        .selectFrom('dr_enrollment_devices as od')
        .innerJoin('dr_optouts as o', 'o.enrollment_id', 'od.enrollment_id')
        .select('od.id')
        .where('o.event_id', '=', row.id),
    )
    .execute();
  const hasRestore = new Set(restores.map((r) => r.device_id));
  for (const [deviceId, d] of devices) {
    if (hasRestore.has(deviceId)) continue;
    values.push({
      event_id: row.id,
      enrollment_device_id: d.enrollment_device_id,
      device_id: deviceId,
      device_sn: d.device_sn,
      interval_id: RESTORE_INTERVAL,
      start_ms: end,
      end_ms: end,
      action: 'restore',
      target_w: 0,
      state: 'planned',
      created_at: now,
      updated_at: now,
    });
  }
  for (let i = 0; i < values.length; i += 200)
    await db
      .insertInto('dr_dispatches')
      .values(values.slice(i, i + 200))
      .execute();
}

/** An enrolment opted out of the event: its devices' rows not sent are dropped and their restores made due now. */
export async function optOut(db: Db, eventId: number, enrollmentId: number, now = Date.now()): Promise<void> {
  const mine = db.selectFrom('dr_enrollment_devices').select('id').where('enrollment_id', '=', enrollmentId);
  await releaseRows(db, (eb) => eb.and([eb('event_id', '=', eventId), eb('enrollment_device_id', 'in', mine)]), 'opted out', now);
}

/**
 * Devices that left their programme (removed from the enrolment, or the enrolment ended): in
 * every event, their rows not sent are dropped and their restores made due now, so a battery
 * does not stay commanded for a programme it is no longer in.
 */
export async function devicesLeft(db: Db, enrollmentDeviceIds: readonly number[], now = Date.now()): Promise<void> {
  for (let i = 0; i < enrollmentDeviceIds.length; i += 500) {
    const ids = enrollmentDeviceIds.slice(i, i + 500);
    await releaseRows(db, (eb) => eb('enrollment_device_id', 'in', ids), 'left the programme', now);
  }
}

/**
 * The planned rows of `scope`: commands not sent are dropped (`reason`), restores not yet due are
 * made due now (a restore's start and end are one instant).
 */
async function releaseRows(
  db: Db,
  scope: (eb: ExpressionBuilder<Database, 'dr_dispatches'>) => Expression<SqlBool>,
  reason: string,
  now: number,
): Promise<void> {
  await db
    .updateTable('dr_dispatches')
    .set({ state: 'skipped', reason, updated_at: now })
    .where(scope)
    .where('state', '=', 'planned')
    .where('action', '!=', 'restore')
    .execute();
  await db
    .updateTable('dr_dispatches')
    .set({ start_ms: now, end_ms: now, updated_at: now })
    .where(scope)
    .where('state', '=', 'planned')
    .where('action', '=', 'restore')
    .where('start_ms', '>', now)
    .execute();
}
