/** The SQL of setting jobs and batches; rows mapped to the contract's shapes. */
import type { settingsApi } from '@sunfleet/contracts';
import type { FieldDefinition } from '@sunfleet/protocols';
import { protocolPlan } from '@sunfleet/protocols';
import type { Selectable } from 'kysely';
import type { Static } from 'typebox';
import { type Db, now, parseJson } from '../../db/index.ts';
import type { SettingBatchesTable, SettingChangesTable } from '../../db/schema.ts';
import { iso } from '../../time/index.ts';
import { defineField, type ReadValues, sameValue } from './fields.ts';

export type Job = Static<typeof settingsApi.SettingJob>;
export type Batch = Static<typeof settingsApi.SettingBatch>;
export type JobRow = Selectable<SettingChangesTable> & { account: string; protocol_id: string };
export type BatchRow = Selectable<SettingBatchesTable> & { account: string };
type JobState = SettingChangesTable['state'];

const jobColumns = [
  'setting_changes.id',
  'setting_changes.batch_id',
  'setting_changes.position',
  'setting_changes.device_id',
  'setting_changes.device_sn',
  'setting_changes.family',
  'setting_changes.group_name',
  'setting_changes.kind',
  'setting_changes.revert_of',
  'setting_changes.state',
  'setting_changes.requested',
  'setting_changes.before_values',
  'setting_changes.after_values',
  'setting_changes.error',
  'setting_changes.error_code',
  'setting_changes.command_job_id',
  'setting_changes.requested_by',
  'setting_changes.created_at',
  'setting_changes.updated_at',
  'setting_changes.finished_at',
  'users.account',
  'devices.protocol_id',
] as const;

const jobs = (db: Db) =>
  db
    .selectFrom('setting_changes')
    .innerJoin('users', 'users.id', 'setting_changes.requested_by')
    .innerJoin('devices', 'devices.id', 'setting_changes.device_id')
    .select(jobColumns);

/** What a difference says of its field: label, unit, an enumeration's options (the key alone for a field the protocol no longer has). */
function fieldOf(field: FieldDefinition | undefined, key: string) {
  if (!field) return { name: { en: key, es: key }, unit: null, enumeration: null };
  const { name, unit, enumeration } = defineField(field);
  return { name, unit, enumeration };
}

export function toJob(r: JobRow): Job {
  const requested = parseJson<ReadValues>(r.requested, {});
  const before = r.before_values === null ? null : parseJson<ReadValues>(r.before_values, {});
  const after = r.after_values === null ? null : parseJson<ReadValues>(r.after_values, {});
  const plan = protocolPlan(r.protocol_id);
  const changes: Job['changes'] = [];
  const mismatches: Job['mismatches'] = [];
  for (const key of Object.keys(requested)) {
    const field = fieldOf(plan?.field(key), key);
    if (before && after && !sameValue(before[key], after[key]))
      changes.push({ key, ...field, from: before[key] ?? null, to: after[key] ?? null });
    if (after && !sameValue(requested[key], after[key]))
      mismatches.push({ key, ...field, from: requested[key] ?? null, to: after[key] ?? null });
  }
  return {
    id: r.id,
    batchId: r.batch_id,
    sn: r.device_sn,
    family: r.family,
    group: r.group_name,
    kind: r.kind,
    revertOf: r.revert_of,
    state: r.state,
    requested,
    before,
    after,
    changes,
    mismatches,
    error: r.error,
    errorCode: r.error_code,
    requestedBy: { id: r.requested_by, account: r.account },
    createdAt: iso(Number(r.created_at))!,
    finishedAt: iso(r.finished_at === null ? null : Number(r.finished_at)),
  };
}

export interface NewJob {
  id: string;
  batchId?: string;
  position?: number;
  deviceId: number;
  sn: string;
  family: string;
  group: string;
  kind: 'write' | 'revert';
  revertOf?: string;
  state: 'queued' | 'reading';
  requested: Record<string, number | string>;
  requestedBy: number;
}

const newJobRow = (j: NewJob, t: number) => ({
  id: j.id,
  batch_id: j.batchId ?? null,
  position: j.position ?? 0,
  device_id: j.deviceId,
  device_sn: j.sn,
  family: j.family,
  group_name: j.group,
  kind: j.kind,
  revert_of: j.revertOf ?? null,
  state: j.state,
  requested: JSON.stringify(j.requested),
  before_values: null,
  after_values: null,
  error: null,
  error_code: null,
  command_job_id: null,
  requested_by: j.requestedBy,
  created_at: t,
  updated_at: t,
  finished_at: null,
});

/** Whether a job of the device is reading, writing or verifying now (one at a time: a unique index holds it). */
export async function deviceBusy(db: Db, deviceId: number): Promise<boolean> {
  const row = await db
    .selectFrom('setting_changes')
    .select('id')
    .where('device_id', '=', deviceId)
    .where('state', 'in', ['reading', 'writing', 'verifying'])
    .executeTakeFirst();
  return row !== undefined;
}

/** Insert a job; false when it starts running and another job of the device already runs. */
export async function insertJob(db: Db, job: NewJob): Promise<boolean> {
  try {
    await db.insertInto('setting_changes').values(newJobRow(job, now())).execute();
    return true;
  } catch (err) {
    if (job.state !== 'queued' && (await deviceBusy(db, job.deviceId))) return false;
    throw err;
  }
}

export async function insertBatch(
  db: Db,
  batch: { id: string; family: string; group: string; requested: Record<string, number | string>; requestedBy: number },
  items: NewJob[],
): Promise<void> {
  const t = now();
  await db.transaction().execute(async (tx) => {
    await tx
      .insertInto('setting_batches')
      .values({
        id: batch.id,
        family: batch.family,
        group_name: batch.group,
        requested: JSON.stringify(batch.requested),
        requested_by: batch.requestedBy,
        state: 'running',
        total: items.length,
        created_at: t,
        finished_at: null,
      })
      .execute();
    // 200 rows × 19 columns stays under SQLite's and PostgreSQL's bound-parameter limits in chunks of 50.
    for (let i = 0; i < items.length; i += 50) {
      await tx
        .insertInto('setting_changes')
        .values(items.slice(i, i + 50).map((j) => newJobRow(j, t)))
        .execute();
    }
  });
}

export async function getJob(db: Db, id: string): Promise<JobRow | undefined> {
  return jobs(db).where('setting_changes.id', '=', id).executeTakeFirst();
}

export interface JobUpdate {
  state?: JobState;
  before?: ReadValues;
  after?: ReadValues;
  error?: string;
  errorCode?: number | null;
  commandJobId?: string | null;
}

/** Update a job; `from` limits it to jobs in those states (the number of rows changed says whether it applied). */
export async function updateJob(db: Db, id: string, u: JobUpdate, from?: readonly JobState[]): Promise<boolean> {
  const finished = u.state === 'succeeded' || u.state === 'failed' || u.state === 'cancelled';
  const t = now();
  let q = db
    .updateTable('setting_changes')
    .set({
      updated_at: t,
      ...(u.state ? { state: u.state } : {}),
      ...(u.before ? { before_values: JSON.stringify(u.before) } : {}),
      ...(u.after ? { after_values: JSON.stringify(u.after) } : {}),
      ...(u.error !== undefined ? { error: u.error.slice(0, 255) } : {}),
      ...(u.errorCode !== undefined ? { error_code: u.errorCode } : {}),
      ...(u.commandJobId !== undefined ? { command_job_id: u.commandJobId } : {}),
      ...(finished ? { finished_at: t } : {}),
    })
    .where('id', '=', id);
  if (from) q = q.where('state', 'in', from);
  const result = await q.executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Start a queued job: 'started', 'gone' when it is no longer queued (cancelled), 'busy' when
 * another job of the device runs.
 */
export async function claimJob(db: Db, id: string, deviceId: number): Promise<'started' | 'gone' | 'busy'> {
  try {
    return (await updateJob(db, id, { state: 'reading' }, ['queued'])) ? 'started' : 'gone';
  } catch (err) {
    if (await deviceBusy(db, deviceId)) return 'busy';
    throw err;
  }
}

export async function deviceJobs(db: Db, deviceId: number, page: number, size: number): Promise<{ total: number; list: Job[] }> {
  const { total } = await db
    .selectFrom('setting_changes')
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .where('device_id', '=', deviceId)
    .executeTakeFirstOrThrow();
  const rows = await jobs(db)
    .where('setting_changes.device_id', '=', deviceId)
    .orderBy('setting_changes.created_at', 'desc')
    .orderBy('setting_changes.id', 'desc')
    .limit(size)
    .offset((page - 1) * size)
    .execute();
  return { total: Number(total), list: rows.map(toJob) };
}

/** Every job of a device, newest first, in chunks (the download). */
export async function* allDeviceJobs(db: Db, deviceId: number, chunk = 500): AsyncGenerator<Job[]> {
  for (let offset = 0; ; offset += chunk) {
    const rows = await jobs(db)
      .where('setting_changes.device_id', '=', deviceId)
      .orderBy('setting_changes.created_at', 'desc')
      .orderBy('setting_changes.id', 'desc')
      .limit(chunk)
      .offset(offset)
      .execute();
    if (rows.length > 0) yield rows.map(toJob);
    if (rows.length < chunk) return;
  }
}

export async function batchJobs(db: Db, batchId: string): Promise<JobRow[]> {
  return jobs(db).where('setting_changes.batch_id', '=', batchId).orderBy('setting_changes.position').execute();
}

export async function getBatch(db: Db, id: string): Promise<BatchRow | undefined> {
  return db
    .selectFrom('setting_batches')
    .innerJoin('users', 'users.id', 'setting_batches.requested_by')
    .selectAll('setting_batches')
    .select('users.account')
    .where('setting_batches.id', '=', id)
    .executeTakeFirst();
}

export function toBatch(b: BatchRow, rows: JobRow[]): Batch {
  const list = rows.map(toJob);
  const count = (state: JobState) => list.filter((j) => j.state === state).length;
  return {
    id: b.id,
    family: b.family,
    group: b.group_name,
    requested: parseJson<ReadValues>(b.requested, {}),
    state: b.state,
    total: b.total,
    done: list.filter((j) => j.state === 'succeeded' || j.state === 'failed' || j.state === 'cancelled').length,
    succeeded: count('succeeded'),
    failed: count('failed'),
    cancelled: count('cancelled'),
    jobs: list,
    requestedBy: { id: b.requested_by, account: b.account },
    createdAt: iso(Number(b.created_at))!,
    finishedAt: iso(b.finished_at === null ? null : Number(b.finished_at)),
  };
}

export async function setBatchState(db: Db, id: string, state: 'finished' | 'cancelled', opts: { finish?: boolean } = {}) {
  let q = db
    .updateTable('setting_batches')
    .set({ state, ...(opts.finish ? { finished_at: now() } : {}) })
    .where('id', '=', id);
  // A cancelled batch stays cancelled when its last jobs finish.
  if (state === 'finished') q = q.where('state', '=', 'running');
  await q.execute();
}

export async function finishBatch(db: Db, id: string): Promise<void> {
  await setBatchState(db, id, 'finished');
  await db.updateTable('setting_batches').set({ finished_at: now() }).where('id', '=', id).execute();
}

/** Cancel the batch's jobs not started yet; the jobs already started, with their command job ids. */
export async function cancelQueued(db: Db, batchId: string): Promise<{ id: string; commandJobId: string | null }[]> {
  await db
    .updateTable('setting_changes')
    .set({ state: 'cancelled', finished_at: now(), updated_at: now(), error: 'cancelled before it was sent' })
    .where('batch_id', '=', batchId)
    .where('state', '=', 'queued')
    .execute();
  await setBatchState(db, batchId, 'cancelled');
  return db
    .selectFrom('setting_changes')
    .select(['id', 'command_job_id as commandJobId'])
    .where('batch_id', '=', batchId)
    .where('state', '=', 'reading')
    .execute();
}

/** The device a setting job reads or writes, with its gateway's SN and whether it is online. */
export const deviceTarget = (db: Db, deviceId: number) =>
  db
    .selectFrom('devices')
    .innerJoin('gateways', 'gateways.id', 'devices.gateway_id')
    .select(['devices.id', 'devices.sn', 'devices.unit', 'devices.protocol_id', 'gateways.sn as gatewaySn', 'gateways.online'])
    .where('devices.id', '=', deviceId)
    .executeTakeFirstOrThrow();
