/**
 * Reading the maintenance log and the gateway's debug reply.
 *
 * Rules:
 * - a plant or SN a request names is loaded through the resolver first: a plant the caller
 *   cannot see is 700, an inverter 600, any other SN (device or gateway) 404, and nothing is
 *   listed;
 * - lists hold only entries of plants the caller sees (the plant at the time of the action);
 * - an entry still 'running' whose command job has ended shows the job's end (failed for a job
 *   that timed out or expired), except an upgrade, which its own module settles; a setting write
 *   or revert shows its setting job's end;
 * - a time range is startTime inclusive to endTime exclusive; one that ends before it starts is 4.
 */
import { type DataOf, ErrorCode, type loggersApi, type MaintenanceResult } from '@sunfleet/contracts';
import type { Caller } from '../../access/caller.ts';
import { deviceFor, gatewayFor, plantFor, subjectFor } from '../../access/resolve.ts';
import type { CommandJob } from '../../commands/channel.ts';
import { type DebugView, debugView, jobSteps, latestGatewayJob } from '../../commands/reads.ts';
import type { Db } from '../../db/index.ts';
import { parseJson } from '../../db/index.ts';
import type { Deps } from '../../deps.ts';
import { fail } from '../../http/errors.ts';
import { iso } from '../../time/index.ts';
import {
  finishMaintenance,
  type MaintenanceFilter,
  type MaintenanceRow,
  maintenanceRow,
  maintenanceRows,
  resultOfJob,
  resultOfSettingJob,
} from './maintenance.repo.ts';

type Entry = DataOf<typeof loggersApi.logPage>['list'][number];
type DebugSession = DataOf<typeof loggersApi.debugSessions>['list'][number];

export interface LogQuery {
  page?: number;
  size?: number;
  kind?: MaintenanceFilter['kind'];
  startTime?: string;
  endTime?: string;
}

function toEntry(r: MaintenanceRow): Entry {
  // An upgrade's command job ends before the upgrade does (the device still flashes and reboots):
  // the upgrades settle their own entries.
  // A setting write or revert ends when its setting job does (its own steps are several commands).
  const setting = r.kind === 'setting' || r.kind === 'revert';
  const fromJob =
    r.result !== 'running' || r.kind === 'upgrade'
      ? undefined
      : setting
        ? r.setting_state
          ? resultOfSettingJob(r.setting_state)
          : undefined
        : r.job_state
          ? resultOfJob(r.job_state)
          : undefined;
  const result: MaintenanceResult = fromJob ?? r.result;
  const finishedAt = r.finished_at ?? (fromJob ? (setting ? r.setting_finished_at : r.job_finished_at) : null);
  const detail = parseJson<Record<string, unknown>>(r.detail, {});
  if (setting && fromJob && r.setting_error && detail.error === undefined) detail.error = r.setting_error;
  return {
    id: r.id,
    kind: r.kind,
    sn: r.device_sn,
    gatewaySn: r.gateway_sn,
    plantId: r.plant_id,
    plantName: r.plant_name ?? null,
    user: r.nickname || r.account || '',
    jobId: r.job_id,
    result,
    detail,
    createdAt: iso(r.created_at)!,
    finishedAt: iso(finishedAt),
  };
}

function range(q: LogQuery): Pick<MaintenanceFilter, 'from' | 'to'> {
  const from = q.startTime === undefined ? undefined : Date.parse(q.startTime);
  const to = q.endTime === undefined ? undefined : Date.parse(q.endTime);
  if (from !== undefined && to !== undefined && to < from) fail(ErrorCode.validation, 'endTime: must not be before startTime');
  return { ...(from !== undefined ? { from } : {}), ...(to !== undefined ? { to } : {}) };
}

async function page(db: Db, caller: Caller, q: LogQuery, f: MaintenanceFilter) {
  const size = q.size ?? 10;
  const { total, rows } = await maintenanceRows(db, caller, { ...f, ...range(q) }, q.page ?? 1, size);
  return { total, list: rows.map(toEntry) };
}

const kindOf = (q: LogQuery) => (q.kind ? { kind: q.kind } : {});

/** The log across the plants the caller sees, optionally of one plant or one SN. */
export async function logPage(db: Db, caller: Caller, q: LogQuery & { plantId?: number; sn?: string }) {
  const f: MaintenanceFilter = kindOf(q);
  if (q.plantId !== undefined) f.plantId = (await plantFor(db, caller, q.plantId)).id;
  if (q.sn !== undefined) f.sn = (await subjectFor(db, caller, q.sn)).sn;
  return page(db, caller, q, f);
}

/** One device's or gateway's log (404 when the caller does not see it). */
export async function deviceLog(db: Db, caller: Caller, q: LogQuery & { sn: string }) {
  const subject = await subjectFor(db, caller, q.sn);
  return page(db, caller, q, { ...kindOf(q), sn: subject.sn });
}

/** One inverter's log (600 when the caller does not see it). */
export async function inverterLog(db: Db, caller: Caller, sn: string, q: LogQuery) {
  const device = await deviceFor(db, caller, { sn }, { kind: 'inverter' });
  return page(db, caller, q, { ...kindOf(q), sn: device.sn });
}

/** One plant's log (700 when the caller does not see it). */
export async function plantLog(db: Db, caller: Caller, q: LogQuery & { plantId: number }) {
  const plant = await plantFor(db, caller, q.plantId);
  return page(db, caller, q, { ...kindOf(q), plantId: plant.id });
}

/** One entry with its job's steps (404 when the caller does not see it). */
export async function logContent(db: Db, caller: Caller, id: number) {
  const row = await maintenanceRow(db, caller, id);
  if (!row) return fail(ErrorCode.notFound);
  const steps = row.job_id ? await jobSteps(db, row.job_id) : [];
  return { ...toEntry(row), steps: steps.map((s) => ({ state: s.state, at: iso(s.at)!, detail: s.detail })) };
}

function debugSession(r: MaintenanceRow): DebugSession {
  const entry = toEntry(r);
  const body = parseJson<{ text?: string }>(r.job_body, {});
  const reply = parseJson<{ text?: string } | null>(r.job_reply, null);
  const code = body.text ?? (typeof entry.detail.code === 'string' ? entry.detail.code : '');
  return { ...entry, code, text: reply?.text ?? null };
}

/** Debug sessions, newest first: of one plant or SN, or of every plant the caller sees. */
export async function debugSessions(db: Db, caller: Caller, q: LogQuery & { plantId?: number; sn?: string }) {
  const f: MaintenanceFilter = { kind: 'debug' };
  if (q.plantId !== undefined) f.plantId = (await plantFor(db, caller, q.plantId)).id;
  if (q.sn !== undefined) f.sn = (await subjectFor(db, caller, q.sn)).sn;
  const { total, rows } = await maintenanceRows(db, caller, { ...f, ...range(q) }, q.page ?? 1, q.size ?? 10);
  return { total, list: rows.map(debugSession) };
}

/**
 * The gateway's own debug job (the latest without `jobId`) after waiting up to `waitMs` for it to
 * finish; its maintenance entry is settled once it has. 305 for a gateway the caller cannot see,
 * 404 when it has no such job.
 */
export async function gatewayDebugReply(
  deps: Pick<Deps, 'db' | 'commands'>,
  caller: Caller,
  sn: string,
  jobId: string | undefined,
  waitMs: number,
): Promise<DebugView> {
  const gateway = await gatewayFor(deps.db, caller, { sn }, { need: 'operate' });
  let job: CommandJob | undefined;
  if (jobId === undefined) {
    job = await latestGatewayJob(deps.db, gateway.sn, 'debug');
  } else {
    job = await deps.commands.get(jobId);
    // Another gateway's job, or one of its devices', answers as missing.
    if (job && (job.gatewaySn !== gateway.sn || job.deviceSn !== null || job.body.type !== 'debug')) job = undefined;
  }
  if (!job) return fail(ErrorCode.notFound);
  if (waitMs > 0) job = await deps.commands.settle(job.id, waitMs);
  const result = resultOfJob(job.state);
  if (result) await finishMaintenance(deps.db, job.id, result, { text: job.reply?.text ?? null, error: job.error });
  return debugView(job);
}
