/**
 * The SQL of command jobs: a job row is the audit record (who, when, which gateway and device,
 * the command, its states with their times, the reply, the error), `command_job_events` each
 * state change. Every transition is a conditional update (`where state in (…)`), so two
 * processes racing for one job change it once; claims of several jobs lock with
 * `FOR UPDATE SKIP LOCKED` on PostgreSQL (SQLite has one writer at a time).
 */
import type { ReplyMessage } from '@sunfleet/contracts';
import { type Insertable, type Selectable, sql, type Transaction, type Updateable } from 'kysely';
import type { Db, Dialect } from '../db/index.ts';
import { parseJson } from '../db/index.ts';
import type { CommandJobsTable, Database } from '../db/schema.ts';
import type { CommandBody, CommandJob, JobState } from './channel.ts';

type Tx = Db | Transaction<Database>;
export type JobRow = Selectable<CommandJobsTable>;
type Row = JobRow;
type RowUpdate = Updateable<CommandJobsTable>;

export const OPEN_SENT: readonly JobState[] = ['sent', 'acknowledged'];

export function toJob(r: Row): CommandJob {
  return {
    id: r.id,
    gatewaySn: r.gateway_sn,
    deviceSn: r.device_sn,
    batchId: r.batch_id,
    state: r.state as JobState,
    body: parseJson<CommandBody>(r.body, { type: r.type } as CommandBody),
    reply: parseJson<ReplyMessage | null>(r.reply, null),
    error: r.error,
    requestedBy: r.requested_by,
    progress: r.progress === null || r.progress === undefined ? null : Number(r.progress),
    stage: r.stage ?? null,
    createdAt: Number(r.created_at),
    sentAt: r.sent_at === null ? null : Number(r.sent_at),
    finishedAt: r.finished_at === null ? null : Number(r.finished_at),
  };
}

/**
 * Store new jobs (queued), with their first event, in a few statements; returns the ids stored.
 * A job the store refuses because an open job excludes it (one open power command per device,
 * `command_jobs_open_power`) is left out, and the others are stored.
 */
export async function insertJobs(db: Tx, rows: readonly Insertable<CommandJobsTable>[]): Promise<Set<string>> {
  const stored = new Set<string>();
  for (let i = 0; i < rows.length; i += 200) {
    const part = rows.slice(i, i + 200);
    const inserted = await db
      .insertInto('command_jobs')
      .values(part)
      .onConflict((oc) => oc.doNothing())
      .returning('id')
      .execute();
    for (const r of inserted) stored.add(r.id);
    const events = part.filter((r) => stored.has(r.id));
    if (events.length > 0)
      await db
        .insertInto('command_job_events')
        .values(events.map((r) => ({ job_id: r.id, state: 'queued', at: r.created_at, detail: null })))
        .execute();
  }
  return stored;
}

/** Of these gateways, those the store has online. */
export async function onlineGateways(db: Tx, sns: readonly string[]): Promise<Set<string>> {
  const out = new Set<string>();
  for (let i = 0; i < sns.length; i += 500) {
    const rows = await db
      .selectFrom('gateways')
      .select('sn')
      .where('sn', 'in', sns.slice(i, i + 500))
      .where('online', '=', 1)
      .execute();
    for (const r of rows) out.add(r.sn);
  }
  return out;
}

export async function jobById(db: Tx, id: string): Promise<Row | undefined> {
  return db.selectFrom('command_jobs').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function jobsByIds(db: Tx, ids: readonly string[]): Promise<Row[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('command_jobs').selectAll().where('id', 'in', ids).execute();
}

/** The jobs of a batch one user asked for, oldest first (then by gateway SN). */
export async function batchJobsOf(db: Tx, batchId: string, requestedBy: number): Promise<Row[]> {
  return db
    .selectFrom('command_jobs')
    .selectAll()
    .where('batch_id', '=', batchId)
    .where('requested_by', '=', requestedBy)
    .orderBy('created_at')
    .orderBy('gateway_sn')
    .execute();
}

/** Whether the store says the gateway has a live session. */
export async function gatewayOnline(db: Tx, sn: string): Promise<boolean> {
  const r = await db.selectFrom('gateways').select('online').where('sn', '=', sn).executeTakeFirst();
  return Number(r?.online ?? 0) === 1;
}

// The select builder the claim filters refine (named once, so that filters type-check).
const claimBuilder = (db: Tx) => db.selectFrom('command_jobs').select('id');
export type ClaimBuilder = ReturnType<typeof claimBuilder>;

/** Ids of open jobs in `states` that `filter` keeps, oldest first, locked for this transaction on PostgreSQL. */
async function claimIds(
  trx: Tx,
  dialect: Dialect,
  states: readonly JobState[],
  filter: (q: ClaimBuilder) => ClaimBuilder,
  limit: number,
): Promise<string[]> {
  let q = filter(claimBuilder(trx).where('state', 'in', states as JobState[]))
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit);
  if (dialect === 'postgres') q = q.forUpdate().skipLocked();
  return (await q.execute()).map((r) => r.id);
}

/**
 * Move the jobs `claim` picks from their state to `to` in one transaction, with an event row
 * each; returns the rows as they are after the change (oldest first).
 */
export async function transition(
  db: Db,
  dialect: Dialect,
  from: readonly JobState[],
  to: JobState,
  at: number,
  filter: (q: ClaimBuilder) => ClaimBuilder,
  set: RowUpdate,
  detail: string | null,
  limit = 500,
): Promise<Row[]> {
  return db.transaction().execute(async (trx) => {
    const ids = await claimIds(trx, dialect, from, filter, limit);
    if (ids.length === 0) return [];
    const changed = await trx
      .updateTable('command_jobs')
      .set({ ...set, state: to })
      .where('id', 'in', ids)
      .where('state', 'in', from as JobState[])
      .returningAll()
      .execute();
    if (changed.length > 0)
      await trx
        .insertInto('command_job_events')
        .values(changed.map((r) => ({ job_id: r.id, state: to, at, detail })))
        .execute();
    return changed.sort((a, b) => Number(a.created_at) - Number(b.created_at) || a.id.localeCompare(b.id));
  });
}

/**
 * One job from one of `from` to `to` within the caller's transaction; undefined when it was not
 * in one of them (someone else moved it).
 */
export async function applyTransition(
  trx: Tx,
  id: string,
  from: readonly JobState[],
  to: JobState,
  at: number,
  set: RowUpdate,
  detail: string | null,
): Promise<Row | undefined> {
  const row = await trx
    .updateTable('command_jobs')
    .set({ ...set, state: to })
    .where('id', '=', id)
    .where('state', 'in', from as JobState[])
    .returningAll()
    .executeTakeFirst();
  if (row) await trx.insertInto('command_job_events').values({ job_id: id, state: to, at, detail }).execute();
  return row;
}

export type JobEventRow = { job_id: string; state: string; at: number; detail: string | null };

/** Event rows of many jobs, in a few statements. */
export async function insertEvents(trx: Tx, events: readonly JobEventRow[]): Promise<void> {
  for (let i = 0; i < events.length; i += 500)
    await trx
      .insertInto('command_job_events')
      .values(events.slice(i, i + 500))
      .execute();
}

/**
 * A job's change worked out in memory (a group of replies): its row as it is to be stored, applied
 * only where the job is still in `expect` on `gatewaySn` (a sweep or another process that moved it
 * first wins, as with every transition).
 */
export interface JobChange {
  id: string;
  gatewaySn: string;
  expect: string;
  state: string;
  acknowledgedAt: number | null;
  finishedAt: number | null;
  reply: string | null;
  error: string | null;
  /** The percent and stage a long command last reported. */
  progress: number | null;
  stage: string | null;
}

/**
 * Apply many jobs' changes with one `UPDATE … FROM (VALUES …)` per 500 (one statement, both
 * stores: SQLite has `UPDATE … FROM` and `RETURNING`); returns the ids it changed.
 */
export async function applyChanges(trx: Tx, changes: readonly JobChange[]): Promise<Set<string>> {
  const applied = new Set<string>();
  for (let i = 0; i < changes.length; i += 500) {
    const values = sql.join(
      changes
        .slice(i, i + 500)
        .map(
          (c) =>
            sql`(${c.id}, ${c.gatewaySn}, ${c.expect}, ${c.state}, cast(${c.acknowledgedAt} as bigint), cast(${c.finishedAt} as bigint), cast(${c.reply} as text), cast(${c.error} as varchar(200)), cast(${c.progress} as integer), cast(${c.stage} as varchar(16)))`,
        ),
    );
    const { rows } = await sql<{
      id: string;
    }>`with v(id, gateway_sn, expect, state, acknowledged_at, finished_at, reply, error, progress, stage) as (values ${values})
      update command_jobs set state = v.state, acknowledged_at = v.acknowledged_at, finished_at = v.finished_at, reply = v.reply, error = v.error, progress = v.progress, stage = v.stage
      from v where command_jobs.id = v.id and command_jobs.gateway_sn = v.gateway_sn and command_jobs.state = v.expect
      returning command_jobs.id`.execute(trx);
    for (const r of rows) applied.add(r.id);
  }
  return applied;
}

/** `applyTransition` in a transaction of its own. */
export async function transitionOne(
  db: Db,
  id: string,
  from: readonly JobState[],
  to: JobState,
  at: number,
  set: RowUpdate,
  detail: string | null,
): Promise<Row | undefined> {
  return db.transaction().execute((trx) => applyTransition(trx, id, from, to, at, set, detail));
}

/** A resend of sent jobs: bump their send count and time (their state stays). */
export async function markResent(db: Db, ids: readonly string[], at: number): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('command_jobs')
    .set((eb) => ({ last_sent_at: at, sends: eb('sends', '+', 1) }))
    .where('id', 'in', ids)
    .execute();
}

/** Sent jobs of a gateway not final and within their timeout, oldest first (to send again). */
export async function openSentJobs(db: Tx, gatewaySn: string, at: number): Promise<Row[]> {
  const rows = await db
    .selectFrom('command_jobs')
    .selectAll()
    .where('gateway_sn', '=', gatewaySn)
    .where('state', 'in', OPEN_SENT as JobState[])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.filter((r) => Number(r.sent_at ?? at) + r.timeout_ms > at);
}

/** Sent jobs with no answer since `before`, on gateways the store has online: to send again. */
export async function unansweredJobs(db: Tx, before: number, limit = 500): Promise<Row[]> {
  return db
    .selectFrom('command_jobs')
    .innerJoin('gateways', 'gateways.sn', 'command_jobs.gateway_sn')
    .selectAll('command_jobs')
    .where('command_jobs.state', '=', 'sent')
    .where('command_jobs.last_sent_at', '<=', before)
    .where('gateways.online', '=', 1)
    .orderBy('command_jobs.created_at')
    .limit(limit)
    .execute();
}

/** Gateways the store has online that have queued jobs (the dispatcher's work). */
export async function gatewaysWithQueuedJobs(db: Tx, at: number, limit = 500): Promise<string[]> {
  const rows = await db
    .selectFrom('command_jobs')
    .innerJoin('gateways', 'gateways.sn', 'command_jobs.gateway_sn')
    .select('command_jobs.gateway_sn')
    .distinct()
    .where('command_jobs.state', '=', 'queued')
    .where('command_jobs.expires_at', '>', at)
    .where('gateways.online', '=', 1)
    .limit(limit)
    .execute();
  return rows.map((r) => r.gateway_sn);
}

/** The state changes of a job, in order. */
export async function jobEvents(db: Tx, id: string): Promise<{ state: string; at: number; detail: string | null }[]> {
  const rows = await db
    .selectFrom('command_job_events')
    .select(['state', 'at', 'detail'])
    .where('job_id', '=', id)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ state: r.state, at: Number(r.at), detail: r.detail }));
}

/** The newest job of a device of one of `types`, optionally only those still open. */
export async function latestDeviceJob(
  db: Tx,
  deviceSn: string,
  types: readonly string[],
  opts: { openOnly?: boolean } = {},
): Promise<Row | undefined> {
  let q = db
    .selectFrom('command_jobs')
    .selectAll()
    .where('device_sn', '=', deviceSn)
    .where('type', 'in', types as string[]);
  if (opts.openOnly) q = q.where('state', 'in', ['queued', 'sent', 'acknowledged']);
  return q.orderBy('created_at', 'desc').orderBy('id', 'desc').executeTakeFirst();
}

/** The newest job of a gateway itself (not of one of its devices) of `type`. */
export async function latestGatewayJob(db: Tx, gatewaySn: string, type: string): Promise<Row | undefined> {
  return db
    .selectFrom('command_jobs')
    .selectAll()
    .where('gateway_sn', '=', gatewaySn)
    .where('device_sn', 'is', null)
    .where('type', '=', type)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
}
