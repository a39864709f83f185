/**
 * Remote settings of one device: which groups it supports, reading a group from it, writing a
 * group as an audited job, reverting a job, and its history.
 *
 * Order of refusals: the device (600 when the caller cannot see it, 2 when they may not operate
 * it), the group (601 when the device's protocol does not support it), the values (4 naming each
 * bad field and what it allows), the gateway (1001 offline), another setting change of the
 * device running (1009). Nothing is recorded or sent before all of them pass.
 */
import { randomUUID } from 'node:crypto';
import { ErrorCode, type SettingFamily, settingFamily } from '@sunfleet/contracts';
import { type RegisterWrite, validateSettingValues } from '@sunfleet/protocols';
import type { Caller } from '../../access/caller.ts';
import { type DeviceAccess, deviceFor } from '../../access/resolve.ts';
import { BusinessError, fail } from '../../http/errors.ts';
import { iso } from '../../time/index.ts';
import { finishMaintenance, recordMaintenance, resultOfSettingJob } from '../loggers/maintenance.repo.ts';
import { DeviceError, readGroups, type Target, targetOf } from './device-io.ts';
import { defineGroups, describeGroup, type SettingValue, supportOf } from './fields.ts';
import { type JobContext, runJob } from './jobs.ts';
import { deviceJobs, getJob, insertJob, type Job, type JobRow, toJob } from './settings.repo.ts';

export interface Supported {
  device: DeviceAccess;
  family: SettingFamily;
}

/**
 * The device, and its family when that is `familyId` (null: any family) and has every group
 * named (else 601).
 */
export async function supportedDevice(
  ctx: JobContext,
  caller: Caller,
  by: { sn: string } | { id: number },
  familyId: string | null,
  groups: readonly string[],
  need: 'view' | 'operate',
): Promise<Supported> {
  const device = await deviceFor(ctx.db, caller, by, { kind: 'inverter', need });
  const support = supportOf(device.protocolId);
  if (!support || (familyId !== null && support.family.id !== familyId) || groups.some((g) => !support.groups.includes(g)))
    return fail(ErrorCode.inverterUnsupported);
  return { device, family: support.family };
}

export async function support(ctx: JobContext, caller: Caller, sn: string) {
  const device = await deviceFor(ctx.db, caller, { sn }, { kind: 'inverter' });
  const s = supportOf(device.protocolId);
  return {
    sn: device.sn,
    family: s?.family.id ?? null,
    path: s ? `/api/v1/${s.family.path.replace('{sn}', device.sn)}` : null,
    groups: s?.groups ?? [],
    wholeRead: !!s?.family.wholeRead,
    definitions: s ? defineGroups(device.protocolId, s.groups) : [],
  };
}

const asBusiness = (err: unknown): never => {
  if (err instanceof DeviceError) throw new BusinessError(err.code, err.message);
  throw err;
};

async function onlineTarget(ctx: JobContext, s: Supported): Promise<Target> {
  const target = await targetOf(ctx.db, s.device.id);
  if (!ctx.channel || !target.online) fail(ErrorCode.deviceOffline);
  return target;
}

/** Read one group, or (group null) every group of a family read whole, from the device. */
export async function readSettings(ctx: JobContext, caller: Caller, familyId: string, group: string | null, sn: string) {
  const family = settingFamily(familyId)!;
  const device = await deviceFor(ctx.db, caller, { sn }, { kind: 'inverter' });
  const supported = supportOf(device.protocolId);
  const groups = group === null ? (supported?.family.id === familyId ? supported.groups : []) : [group];
  if (groups.length === 0) fail(ErrorCode.inverterUnsupported);
  const s = await supportedDevice(ctx, caller, { id: device.id }, family.id, groups, 'view');
  const target = await onlineTarget(ctx, s);
  const values = await readGroups({ channel: ctx.channel, requestedBy: caller.user.id }, target, groups).catch(asBusiness);
  return {
    sn: device.sn,
    family: family.id,
    groups: groups.map((g) => ({
      group: g,
      fields: describeGroup(device.protocolId, g, values[g]!),
    })),
    readAt: iso(Date.now())!,
  };
}

/** Values checked against their fields, with the register writes they make. */
export interface Checked {
  values: Record<string, number>;
  writes: RegisterWrite[];
}

/**
 * Check every value against its field of a group the protocol supports (check support first):
 * refused with 4 naming each bad field and what it allows.
 */
export function checkValues(protocolId: string, group: string, values: Readonly<Record<string, unknown>>): Checked {
  const result = validateSettingValues(protocolId, group, values);
  if (!result.ok) return fail(ErrorCode.validation, result.problems.map((p) => p.message).join('; '));
  return { values: result.values, writes: result.writes };
}

/** Every setting write and revert is in the maintenance log, its job id the setting job's. */
export async function recordSettingEntry(
  db: JobContext['db'],
  s: Supported,
  gatewaySn: string | null,
  userId: number,
  job: { id: string; group: string; requested: Readonly<Record<string, unknown>>; revertOf?: string; batchId?: string },
): Promise<void> {
  await recordMaintenance(db, {
    kind: job.revertOf ? 'revert' : 'setting',
    deviceSn: s.device.sn,
    gatewaySn,
    plantId: s.device.plantId,
    userId,
    jobId: job.id,
    detail: {
      family: s.family.id,
      group: job.group,
      requested: job.requested,
      ...(job.revertOf ? { revertOf: job.revertOf } : {}),
      ...(job.batchId ? { batchId: job.batchId } : {}),
    },
  });
}

/** Settle a setting job's maintenance entry with how the job ended (and its error). */
async function settleSettingEntry(db: JobContext['db'], job: Job): Promise<void> {
  const result = resultOfSettingJob(job.state);
  if (result) await finishMaintenance(db, job.id, result, job.error ? { error: job.error } : {});
}

async function startJob(
  ctx: JobContext,
  caller: Caller,
  s: Supported,
  group: string,
  checked: Checked,
  revertOf?: string,
): Promise<Job> {
  const requested = checked.values;
  const target = await onlineTarget(ctx, s);
  const id = randomUUID();
  const started = await insertJob(ctx.db, {
    id,
    deviceId: s.device.id,
    sn: s.device.sn,
    family: s.family.id,
    group,
    kind: revertOf ? 'revert' : 'write',
    ...(revertOf ? { revertOf } : {}),
    state: 'reading',
    requested,
    requestedBy: caller.user.id,
  });
  if (!started) fail(ErrorCode.settingBusy);
  await recordSettingEntry(ctx.db, s, target.gatewaySn, caller.user.id, {
    id,
    group,
    requested,
    ...(revertOf ? { revertOf } : {}),
  });
  await runJob(ctx, { jobId: id, target, group, requested, writes: checked.writes, requestedBy: caller.user.id });
  const job = toJob((await getJob(ctx.db, id))!);
  await settleSettingEntry(ctx.db, job);
  return job;
}

/** Check every value, then run the audited write; the job as it ended. */
export async function writeSettings(
  ctx: JobContext,
  caller: Caller,
  familyId: string,
  group: string,
  sn: string,
  values: Readonly<Record<string, SettingValue>>,
): Promise<Job> {
  const s = await supportedDevice(ctx, caller, { sn }, familyId, [group], 'operate');
  return startJob(ctx, caller, s, group, checkValues(s.device.protocolId, group, values));
}

/** A job of a device the caller can see (404 for any other id). */
async function visibleJob(ctx: JobContext, caller: Caller, id: string, need: 'view' | 'operate'): Promise<JobRow> {
  const row = await getJob(ctx.db, id);
  if (!row) return fail(ErrorCode.notFound);
  try {
    await deviceFor(ctx.db, caller, { id: row.device_id }, { kind: 'inverter', need });
  } catch (err) {
    if (err instanceof BusinessError && err.code === ErrorCode.inverterMissing) fail(ErrorCode.notFound);
    throw err;
  }
  return row;
}

export async function getSettingJob(ctx: JobContext, caller: Caller, id: string): Promise<Job> {
  return toJob(await visibleJob(ctx, caller, id, 'view'));
}

/** Write a finished job's before-values of the fields it requested, as a new job. */
export async function revertJob(ctx: JobContext, caller: Caller, id: string): Promise<Job> {
  const row = await visibleJob(ctx, caller, id, 'operate');
  const original = toJob(row);
  if (original.before === null || (original.state !== 'succeeded' && original.state !== 'failed'))
    fail(ErrorCode.validation, 'the job has no values read before it to write back');
  const requested: Record<string, SettingValue> = {};
  for (const key of Object.keys(original.requested)) {
    const value = original.before![key];
    if (value !== null && value !== undefined) requested[key] = value;
  }
  const s = await supportedDevice(ctx, caller, { id: row.device_id }, row.family, [row.group_name], 'operate');
  return startJob(ctx, caller, s, row.group_name, checkValues(s.device.protocolId, row.group_name, requested), row.id);
}

export async function history(ctx: JobContext, caller: Caller, sn: string, page: number, size: number) {
  const device = await deviceFor(ctx.db, caller, { sn }, { kind: 'inverter' });
  return deviceJobs(ctx.db, device.id, page, size);
}
