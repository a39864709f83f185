/**
 * The VEN's SQL: programmes and events as last read from the VTN, its registration state, the
 * upkeep lease, and the inbox (notifications accepted, processed from here) and outbox (reports,
 * sent from here) that survive a VTN outage or a restart. Retries back off exponentially
 * (5 s doubling to 10 min), counted in the row, so any process picks up where another stopped.
 */
import type { Db } from '../db/index.ts';
import type { DrEventsTable } from '../db/schema.ts';
import { absoluteIntervals, eventSpan, isCancelledWindow } from './intervals.ts';
import { type OadrEvent, type OadrProgram, parseInstant } from './wire.ts';

export const backoffMs = (attempts: number) => Math.min(600_000, 5000 * 2 ** Math.max(0, attempts - 1));

export async function getState(db: Db, name: string): Promise<string | null> {
  const row = await db.selectFrom('dr_state').select('value').where('name', '=', name).executeTakeFirst();
  return row?.value ?? null;
}

export async function setState(db: Db, name: string, value: string): Promise<void> {
  const t = Date.now();
  await db
    .insertInto('dr_state')
    .values({ name, value, holder: null, expires_at: null, updated_at: t })
    .onConflict((oc) => oc.column('name').doUpdateSet({ value, updated_at: t }))
    .execute();
}

/**
 * Take or renew the named lease for `holder` until now + ttl; true when this holder has it.
 * A claimed row rather than an advisory lock: the same statement on SQLite and PostgreSQL, and
 * a holder that dies loses it when it expires.
 */
export async function takeLease(db: Db, name: string, holder: string, ttlMs: number, now = Date.now()): Promise<boolean> {
  const key = `lease:${name}`;
  await db
    .insertInto('dr_state')
    .values({ name: key, value: '', holder, expires_at: now + ttlMs, updated_at: now })
    .onConflict((oc) =>
      oc
        .column('name')
        .doUpdateSet({ holder, expires_at: now + ttlMs, updated_at: now })
        .where((eb) =>
          eb.or([eb('dr_state.holder', '=', holder), eb('dr_state.expires_at', '<', now), eb('dr_state.holder', 'is', null)]),
        ),
    )
    .execute();
  const row = await db.selectFrom('dr_state').select('holder').where('name', '=', key).executeTakeFirst();
  return row?.holder === holder;
}

export async function releaseLease(db: Db, name: string, holder: string): Promise<void> {
  await db
    .updateTable('dr_state')
    .set({ holder: null, expires_at: null, updated_at: Date.now() })
    .where('name', '=', `lease:${name}`)
    .where('holder', '=', holder)
    .execute();
}

export async function savePrograms(db: Db, programs: readonly OadrProgram[], now = Date.now()): Promise<void> {
  for (const p of programs) {
    const body = JSON.stringify(p);
    await db
      .insertInto('dr_programs')
      .values({ id: p.id, name: p.programName, body, seen_at: now, deleted_at: null })
      .onConflict((oc) => oc.column('id').doUpdateSet({ name: p.programName, body, seen_at: now, deleted_at: null }))
      .execute();
  }
  const ids = programs.map((p) => p.id);
  let q = db.updateTable('dr_programs').set({ deleted_at: now }).where('deleted_at', 'is', null);
  if (ids.length > 0) q = q.where('id', 'not in', ids);
  await q.execute();
}

export async function storedPrograms(db: Db): Promise<OadrProgram[]> {
  const rows = await db.selectFrom('dr_programs').select('body').where('deleted_at', 'is', null).orderBy('name').execute();
  return rows.map((r) => JSON.parse(r.body) as OadrProgram);
}

export type EventRow = Pick<
  DrEventsTable,
  'vtn_id' | 'program_id' | 'body' | 'start_ms' | 'end_ms' | 'cancelled_at' | 'ignored_reason' | 'resource_scope'
> & {
  id: number;
};

/** The VTN object's creation time, one spelling however the VTN wrote it ('' when it gave none). */
export function createdKey(event: Pick<OadrEvent, 'createdDateTime'>): string {
  const ms = parseInstant(event.createdDateTime ?? null);
  return ms === null || ms === Number.MIN_SAFE_INTEGER ? (event.createdDateTime ?? '') : new Date(ms).toISOString();
}

/** What the VEN decided about an event: acted on (for all or some devices) or ignored, and why. */
export interface Verdict {
  ignoredReason: string | null;
  only: string[] | null;
}

export const GONE = 'the VTN no longer has this event';

/**
 * Store the event as the VTN has it now; 'new' | 'changed' | 'same', and the row. The row is the
 * VTN object of this id and creation time: an object of a re-used id (a VTN that lost its state)
 * is a new row, never merged into the old one, and the old one, if still open, ends
 * (`superseded`: the rows whose devices go back to their settings).
 */
export async function upsertEvent(
  db: Db,
  event: OadrEvent,
  verdict: Verdict,
  now = Date.now(),
): Promise<{ change: 'new' | 'changed' | 'same'; row: EventRow; superseded: EventRow[] }> {
  const created = createdKey(event);
  const sameId = await db.selectFrom('dr_events').selectAll().where('vtn_id', '=', event.id).execute();
  const existing = sameId.find((r) => r.vtn_created === created);
  const superseded: EventRow[] = [];
  for (const old of sameId)
    if (old !== existing && old.cancelled_at === null) {
      const ended = await endRow(db, old.id, GONE, now);
      if (ended) superseded.push(ended);
    }
  const receivedAt = existing ? Number(existing.received_at) : now;
  const span = eventSpan(absoluteIntervals(event, receivedAt));
  const cancelled = isCancelledWindow(event);
  const body = JSON.stringify(event);
  const values = {
    program_id: event.programID,
    name: event.eventName ?? null,
    body,
    start_ms: span?.start ?? null,
    end_ms: span?.end ?? null,
    modified: event.modificationDateTime ?? null,
    cancelled_at: cancelled ? (existing?.cancelled_at ?? now) : null,
    ignored_reason: verdict.ignoredReason,
    resource_scope: verdict.only ? JSON.stringify(verdict.only) : null,
    updated_at: now,
  };
  if (!existing) {
    const row = await db
      .insertInto('dr_events')
      .values({ vtn_id: event.id, vtn_created: created, received_at: now, ended_reason: null, ...values })
      .onConflict((oc) => oc.columns(['vtn_id', 'vtn_created']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (row) return { change: 'new', row: { id: row.id, vtn_id: event.id, ...values }, superseded };
    return upsertEvent(db, event, verdict, now);
  }
  // An event the VTN no longer had stays ended: its id and creation time came back only by chance.
  if (existing.ended_reason !== null) return { change: 'same', row: existing, superseded };
  if (
    existing.body === body &&
    (existing.cancelled_at === null) === !cancelled &&
    existing.ignored_reason === values.ignored_reason &&
    existing.resource_scope === values.resource_scope
  )
    return { change: 'same', row: existing, superseded };
  await db.updateTable('dr_events').set(values).where('id', '=', existing.id).execute();
  return { change: 'changed', row: { id: existing.id, vtn_id: event.id, ...values }, superseded };
}

async function endRow(db: Db, id: number, reason: string, now: number): Promise<EventRow | null> {
  await db
    .updateTable('dr_events')
    .set({ cancelled_at: now, ended_reason: reason, updated_at: now })
    .where('id', '=', id)
    .where('cancelled_at', 'is', null)
    .execute();
  return (await db.selectFrom('dr_events').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
}

/** The VTN no longer has the event (deleted, or lost): its open rows end now, with the reason. */
export async function cancelEvent(db: Db, vtnId: string, now = Date.now(), reason = GONE): Promise<EventRow[]> {
  const open = await db
    .selectFrom('dr_events')
    .select('id')
    .where('vtn_id', '=', vtnId)
    .where('cancelled_at', 'is', null)
    .execute();
  const out: EventRow[] = [];
  for (const r of open) {
    const row = await endRow(db, r.id, reason, now);
    if (row) out.push(row);
  }
  return out;
}

/** Programmes with an accepted enrolment: the only ones whose events the VEN acts on. */
export async function acceptedPrograms(db: Db): Promise<Set<string>> {
  const rows = await db.selectFrom('dr_enrollments').select('program_id').distinct().where('state', '=', 'accepted').execute();
  return new Set(rows.map((r) => r.program_id));
}

/** Open events (not ended) whose window has not passed. */
export async function openEvents(db: Db, now: number) {
  return db
    .selectFrom('dr_events')
    .select(['id', 'vtn_id', 'vtn_created', 'program_id'])
    .where('cancelled_at', 'is', null)
    .where((eb) => eb.or([eb('end_ms', '>', now), eb('end_ms', 'is', null)]))
    .execute();
}

// ——— inbox ———

export async function acceptNotification(
  db: Db,
  n: { objectType: string; operation: string; objectId: string | null; body: string; verified: boolean },
  now = Date.now(),
): Promise<number> {
  const row = await db
    .insertInto('dr_inbox')
    .values({
      object_type: n.objectType,
      operation: n.operation,
      object_id: n.objectId,
      body: n.body,
      verified: n.verified ? 1 : 0,
      next_at: now,
      last_error: null,
      processed_at: null,
      received_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Claim due inbox rows: each claimed row's next attempt is pushed out by its back-off first, so
 * another process does not take it meanwhile; processing marks it done.
 */
export async function claimInbox(db: Db, limit: number, now = Date.now(), ids?: number[]) {
  let q = db.selectFrom('dr_inbox').selectAll().where('processed_at', 'is', null).where('next_at', '<=', now);
  if (ids) q = q.where('id', 'in', ids);
  const due = await q.orderBy('id').limit(limit).execute();
  const claimed = [];
  for (const row of due) {
    const attempts = Number(row.attempts) + 1;
    const res = await db
      .updateTable('dr_inbox')
      .set({ attempts, next_at: now + backoffMs(attempts) })
      .where('id', '=', row.id)
      .where('attempts', '=', Number(row.attempts))
      .where('processed_at', 'is', null)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 1) claimed.push({ ...row, attempts });
  }
  return claimed;
}

export async function finishInbox(db: Db, id: number, error: string | null, now = Date.now()) {
  await db
    .updateTable('dr_inbox')
    .set(error === null ? { processed_at: now, last_error: null } : { last_error: error.slice(0, 500) })
    .where('id', '=', id)
    .execute();
}

// ——— outbox ———

/** A report is retried for at most this long after it was made; then it is given up (dead letter). */
export const REPORT_RETRY_CAP_MS = 24 * 3_600_000;

export async function enqueue(
  db: Db,
  kind: 'report',
  dedupeKey: string,
  body: unknown,
  answers: { vtnId: string; created: string },
  now = Date.now(),
): Promise<void> {
  await db
    .insertInto('dr_outbox')
    .values({
      kind,
      dedupe_key: dedupeKey,
      body: JSON.stringify(body),
      next_at: now,
      last_error: null,
      sent_at: null,
      created_at: now,
      event_vtn_id: answers.vtnId,
      event_created: answers.created,
      dead_at: null,
    })
    .onConflict((oc) => oc.column('dedupe_key').doNothing())
    .execute();
}

export async function claimOutbox(db: Db, limit: number, now = Date.now()) {
  const due = await db
    .selectFrom('dr_outbox')
    .selectAll()
    .where('sent_at', 'is', null)
    .where('dead_at', 'is', null)
    .where('next_at', '<=', now)
    .orderBy('id')
    .limit(limit)
    .execute();
  const claimed = [];
  for (const row of due) {
    const attempts = Number(row.attempts) + 1;
    const res = await db
      .updateTable('dr_outbox')
      .set({ attempts, next_at: now + backoffMs(attempts) })
      .where('id', '=', row.id)
      .where('attempts', '=', Number(row.attempts))
      .where('sent_at', 'is', null)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 1) claimed.push({ ...row, attempts });
  }
  return claimed;
}

/** The attempt's outcome: sent, failed for now (retried after its back-off), or given up for good. */
export async function finishOutbox(
  db: Db,
  id: number,
  outcome: { sent: true } | { sent: false; error: string; dead: boolean },
  now = Date.now(),
) {
  await db
    .updateTable('dr_outbox')
    .set(
      outcome.sent
        ? { sent_at: now, last_error: null }
        : { last_error: outcome.error.slice(0, 500), ...(outcome.dead ? { dead_at: now } : {}) },
    )
    .where('id', '=', id)
    .execute();
}

/** The report of each of these events: sent, waiting (with its last error) or given up, and why. */
export async function reportStates(db: Db, vtnIds: readonly string[]) {
  if (vtnIds.length === 0) return [];
  return db
    .selectFrom('dr_outbox')
    .select(['event_vtn_id', 'event_created', 'attempts', 'last_error', 'sent_at', 'dead_at', 'created_at'])
    .where('event_vtn_id', 'in', vtnIds)
    .execute();
}
