/**
 * Sending an event's rows: due rows are claimed (a conditional update, so one process sends
 * each) and sent through the command channel. The first write of an event to a device reads
 * every setting group the device's control may write (one read) and keeps those values; a
 * command writes all the groups of its action at once; the restore (at the end, on an opt-out or
 * when the VTN cancels) writes back every field the event changed, in every group. A row due for
 * a battery at its reserve (discharge) or full (charge) is skipped, saying why.
 */
import { hexToRegisters, registersToHex } from '@sunfleet/contracts';
import { decodeSettingGroup, type RegisterWrite, settingGroupReads, validateSettingValues } from '@sunfleet/protocols';
import type { CommandChannel, CommandJob } from '../commands/channel.ts';
import type { Db } from '../db/index.ts';
import { deviceLatest } from '../energy/latest.ts';
import {
  type ControlAction,
  controlGroups,
  controlValues,
  FULL_SOC,
  type GroupValues,
  groupOfFields,
  RESERVE_SOC,
} from './controls.ts';
import { socOf } from './plan.ts';

const CLAIM_MS = 120_000;
const COMMAND_WAIT_MS = 60_000;

interface DeviceTarget {
  sn: string;
  unit: number | null;
  gatewaySn: string;
  protocolId: string;
  ratedW: number | null;
}

async function targetOf(db: Db, deviceId: number): Promise<DeviceTarget | null> {
  const r = await db
    .selectFrom('devices')
    .innerJoin('gateways', 'gateways.id', 'devices.gateway_id')
    .select(['devices.sn', 'devices.unit', 'devices.protocol_id', 'devices.rated_power_w', 'gateways.sn as gatewaySn'])
    .where('devices.id', '=', deviceId)
    .where('devices.deleted_at', 'is', null)
    .executeTakeFirst();
  return r ? { sn: r.sn, unit: r.unit, gatewaySn: r.gatewaySn, protocolId: r.protocol_id, ratedW: r.rated_power_w } : null;
}

export interface RunOptions {
  db: Db;
  commands: CommandChannel;
  /** The account recorded as the requester of the commands; by default the enrolled user (the VEN acts for them). */
  requestedBy?: (enrollmentDeviceId: number) => Promise<number>;
  now?: number;
  /** Rows sent at once. */
  concurrency?: number;
}

/** Claim and send every due row; returns how many were handled. */
export async function runDue(opts: RunOptions): Promise<number> {
  const { db } = opts;
  const now = opts.now ?? Date.now();
  const due = await db
    .selectFrom('dr_dispatches')
    .select(['id'])
    .where('state', '=', 'planned')
    .where('start_ms', '<=', now)
    .orderBy('start_ms')
    .orderBy('id')
    .limit(5000)
    .execute();
  if (due.length === 0) return 0;
  const ids = due.map((d) => d.id);
  const claimed: number[] = [];
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    const rows = await db
      .updateTable('dr_dispatches')
      .set({ state: 'sending', claimed_until: now + CLAIM_MS, updated_at: now })
      .where('id', 'in', chunk)
      .where('state', '=', 'planned')
      .returning('id')
      .execute();
    claimed.push(...rows.map((r) => r.id));
  }
  let next = 0;
  const worker = async () => {
    while (next < claimed.length) {
      const id = claimed[next++]!;
      await sendOne(opts, id).catch(async (err: Error) => {
        await db
          .updateTable('dr_dispatches')
          .set({ state: 'failed', reason: err.message.slice(0, 255), updated_at: Date.now() })
          .where('id', '=', id)
          .execute();
      });
    }
  };
  await Promise.all(Array.from({ length: Math.min(opts.concurrency ?? 200, claimed.length) }, worker));
  return claimed.length;
}

const address = (t: DeviceTarget) => (t.unit !== null ? { device: t.sn, unit: t.unit } : { device: t.sn });

async function command(
  opts: RunOptions,
  t: DeviceTarget,
  requestedBy: number,
  body: Parameters<CommandChannel['submit']>[0]['body'],
): Promise<CommandJob> {
  const job = await opts.commands.submit({ gatewaySn: t.gatewaySn, deviceSn: t.sn, body, requestedBy });
  return opts.commands.settle(job.id, COMMAND_WAIT_MS);
}

/** Every group's values as the device holds them now, flat by field (one read command for all groups). */
async function readGroups(
  opts: RunOptions,
  t: DeviceTarget,
  groups: readonly string[],
  by: number,
): Promise<Record<string, number> | string> {
  // Each group's own reads, in one command (a device answers the reads of a group as its map lays them out).
  const perGroup = groups.map((g) => settingGroupReads(t.protocolId, g));
  if (perGroup.some((r) => r === null)) return `no ${groups.join(', ')} group`;
  const ranges = perGroup.flatMap((r) => r!);
  const job = await command(opts, t, by, {
    type: 'read',
    ...address(t),
    reads: ranges.map((r) => ({ fc: r.functionCode, addr: r.address, count: r.count })),
  });
  if (job.state !== 'succeeded') return `read ${job.state}${job.error ? `: ${job.error}` : ''}`;
  const blocks = (job.reply?.blocks ?? []).map((b) => ({
    functionCode: b.fc,
    address: b.addr,
    registers: hexToRegisters(b.regs),
  }));
  const values: Record<string, number> = {};
  for (const group of groups)
    for (const [k, v] of Object.entries(decodeSettingGroup(t.protocolId, group, blocks) ?? {}))
      if (typeof v === 'number') values[k] = v;
  return values;
}

async function finish(
  db: Db,
  id: number,
  patch: {
    state: 'succeeded' | 'failed' | 'skipped';
    reason?: string | null;
    jobId?: string | null;
    sent?: Record<string, number> | null;
    previous?: Record<string, number> | null;
    group?: string | null;
  },
) {
  await db
    .updateTable('dr_dispatches')
    .set({
      state: patch.state,
      reason: patch.reason ?? null,
      ...(patch.jobId !== undefined ? { job_id: patch.jobId } : {}),
      ...(patch.sent !== undefined ? { sent_values: patch.sent ? JSON.stringify(patch.sent) : null } : {}),
      ...(patch.previous !== undefined ? { previous_values: patch.previous ? JSON.stringify(patch.previous) : null } : {}),
      ...(patch.group !== undefined ? { setting_group: patch.group } : {}),
      claimed_until: null,
      updated_at: Date.now(),
    })
    .where('id', '=', id)
    .execute();
}

async function sendOne(opts: RunOptions, id: number): Promise<void> {
  const { db } = opts;
  // The row with what decides whether it is still wanted, in one read: the event cancelled, the
  // enrolment's state and user, the device removed, an opt-out of the event.
  const row = await db
    .selectFrom('dr_dispatches as x')
    .innerJoin('dr_enrollment_devices as d', 'd.id', 'x.enrollment_device_id')
    .innerJoin('dr_enrollments as e', 'e.id', 'd.enrollment_id')
    .leftJoin('dr_events as ev', 'ev.id', 'x.event_id')
    .selectAll('x')
    .select((eb) => [
      'ev.cancelled_at',
      'd.removed_at',
      'e.state as enrollment_state',
      'e.user_id',
      eb
        .exists(
          eb
            .selectFrom('dr_optouts as o')
            .select('o.event_id')
            .whereRef('o.event_id', '=', 'x.event_id')
            .whereRef('o.enrollment_id', '=', 'd.enrollment_id'),
        )
        .as('opted'),
    ])
    .where('x.id', '=', id)
    .executeTakeFirstOrThrow();
  const t = await targetOf(db, row.device_id);
  if (!t) return finish(db, id, { state: 'skipped', reason: 'the device no longer exists' });
  if (row.action !== 'restore') {
    // The event may have been cancelled, the enrolment opted out or ended, or the device removed since the row was planned.
    if (row.cancelled_at !== null) return finish(db, id, { state: 'skipped', reason: 'the event was cancelled' });
    if (row.opted && Number(row.opted) !== 0) return finish(db, id, { state: 'skipped', reason: 'opted out' });
    if (row.removed_at !== null || row.enrollment_state !== 'accepted')
      return finish(db, id, { state: 'skipped', reason: 'left the programme' });
  }
  const by = opts.requestedBy ? await opts.requestedBy(row.enrollment_device_id) : row.user_id;
  const earlier = await db
    .selectFrom('dr_dispatches')
    .select(['previous_values', 'sent_values', 'setting_group'])
    .where('event_id', '=', row.event_id)
    .where('device_id', '=', row.device_id)
    .where('id', '!=', id)
    .where('action', '!=', 'restore')
    .orderBy('id')
    .execute();
  const previous = earlier.find((e) => e.previous_values)?.previous_values;

  const groups = controlGroups(t.protocolId) ?? [];
  if (row.action === 'restore') {
    if (!previous) return finish(db, id, { state: 'skipped', reason: 'nothing was changed' });
    const before = JSON.parse(previous) as Record<string, number>;
    const changed = new Set(earlier.flatMap((e) => (e.sent_values ? Object.keys(JSON.parse(e.sent_values) as object) : [])));
    // Every changed field back to its value before, in its own group.
    const groupOf = groupOfFields(t.protocolId, groups);
    const values: GroupValues = {};
    for (const [k, v] of Object.entries(before)) {
      const group = groupOf.get(k);
      if (!changed.has(k) || !group) continue;
      values[group] = { ...values[group], [k]: v };
    }
    if (Object.keys(values).length === 0) return finish(db, id, { state: 'skipped', reason: 'nothing was changed' });
    return write(opts, t, row.id, values, null, by);
  }

  const soc = socOf(await deviceLatest(db, row.device_id));
  if (row.action === 'discharge' && soc !== null && soc <= RESERVE_SOC)
    return finish(db, id, { state: 'skipped', reason: `state of charge ${soc}% at or below the ${RESERVE_SOC}% reserve` });
  if (row.action === 'charge' && soc !== null && soc >= FULL_SOC)
    return finish(db, id, { state: 'skipped', reason: `state of charge ${soc}%: full` });

  if (groups.length === 0) return finish(db, id, { state: 'skipped', reason: 'the device takes no dispatch' });
  // Before the event's first write: every group the control may write, kept for the restore.
  let before: Record<string, number> | null = null;
  if (!previous) {
    const read = await readGroups(opts, t, groups, by);
    if (typeof read === 'string') return finish(db, id, { state: 'failed', reason: read, group: groups.join(',') });
    before = read;
  }
  const control = controlValues(
    t.protocolId,
    row.action as ControlAction,
    Number(row.target_w),
    t.ratedW ?? Number(row.target_w),
    before ?? (JSON.parse(previous!) as Record<string, number>),
  );
  if (!control) return finish(db, id, { state: 'skipped', reason: 'the device takes no dispatch' });
  return write(opts, t, row.id, control, before, by);
}

/** One command with the writes of every group, each checked by the protocol first. */
async function write(
  opts: RunOptions,
  t: DeviceTarget,
  id: number,
  values: GroupValues,
  before: Record<string, number> | null,
  by: number,
) {
  const group = Object.keys(values).join(',');
  const writes: RegisterWrite[] = [];
  const sent: Record<string, number> = {};
  for (const [g, v] of Object.entries(values)) {
    const checked = validateSettingValues(t.protocolId, g, v);
    if (!checked.ok)
      return finish(opts.db, id, {
        state: 'failed',
        reason: checked.problems.map((p) => p.message).join('; '),
        group,
        previous: before,
      });
    writes.push(...checked.writes);
    Object.assign(sent, checked.values);
  }
  const job = await command(opts, t, by, {
    type: 'write',
    ...address(t),
    writes: writes.map((w) => ({ fc: w.functionCode, addr: w.address, regs: registersToHex(w.registers) })),
  });
  const ok = job.state === 'succeeded';
  return finish(opts.db, id, {
    state: ok ? 'succeeded' : 'failed',
    reason: ok ? null : `${job.state}${job.error ? `: ${job.error}` : ''}`,
    jobId: job.id,
    sent,
    previous: before,
    group,
  });
}
