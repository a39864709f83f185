/**
 * The VEN's SQL: programmes and events as last read from the VTN, its registration state, the
 * upkeep lease, and the inbox (notifications accepted, processed from here) and outbox (reports,
 * sent from here) that survive a VTN outage or a restart. Retries back off exponentially
 * (5 s doubling to 10 min), counted in the row, so any process picks up where another stopped.
 */
import type { Db } from '../db/index.ts';
import type { DrEventsTable } from '../db/schema.ts';
import { absoluteIntervals, eventSpan, isCancelledWindow } from './intervals.ts';
import type { OadrEvent, OadrProgram } from './wire.ts';

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

export type EventRow = Pick<DrEventsTable, 'vtn_id' | 'program_id' | 'body' | 'start_ms' | 'end_ms' | 'cancelled_at'> & {
  id: number;
};

/** Store the event as the VTN has it now; 'new' | 'changed' | 'same', and the row. */
export async function upsertEvent(
  db: Db,
  event: OadrEvent,
  now = Date.now(),
): Promise<{ change: 'new' | 'changed' | 'same'; row: EventRow }> {
  const existing = await db.selectFrom('dr_events').selectAll().where('vtn_id', '=', event.id).executeTakeFirst();
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
    updated_at: now,
  };
  if (!existing) {
    const row = await db
      .insertInto('dr_events')
      .values({ vtn_id: event.id, received_at: now, ...values })
      .onConflict((oc) => oc.column('vtn_id').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (row) return { change: 'new', row: { id: row.id, vtn_id: event.id, ...values } };
    return upsertEvent(db, event, now);
  }
  if (existing.body === body && (existing.cancelled_at === null) === !cancelled) {
    return { change: 'same', row: { ...existing, id: existing.id } };
  }
  await db.updateTable('dr_events').set(values).where('id', '=', existing.id).execute();
  return { change: 'changed', row: { id: existing.id, vtn_id: event.id, ...values } };
}

/** The VTN deleted the event: it is cancelled from now. */
export async function cancelEvent(db: Db, vtnId: string, now = Date.now()): Promise<EventRow | null> {
  await db
    .updateTable('dr_events')
    .set({ cancelled_at: now, updated_at: now })
    .where('vtn_id', '=', vtnId)
    .where('cancelled_at', 'is', null)
    .execute();
  const row = await db.selectFrom('dr_events').selectAll().where('vtn_id', '=', vtnId).executeTakeFirst();
  return row ?? null;
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

export async function enqueue(db: Db, kind: 'report', dedupeKey: string, body: unknown, now = Date.now()): Promise<void> {
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
    })
    .onConflict((oc) => oc.column('dedupe_key').doNothing())
    .execute();
}

export async function claimOutbox(db: Db, limit: number, now = Date.now()) {
  const due = await db
    .selectFrom('dr_outbox')
    .selectAll()
    .where('sent_at', 'is', null)
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

export async function finishOutbox(db: Db, id: number, error: string | null, now = Date.now()) {
  await db
    .updateTable('dr_outbox')
    .set(error === null ? { sent_at: now, last_error: null } : { last_error: error.slice(0, 500) })
    .where('id', '=', id)
    .execute();
}
