/**
 * Fault notifications by e-mail (the jobs role). Ingest and the offline job open events; this
 * polls for new fault events (`events.id` past a stored cursor), finds the users who enabled
 * alarm notifications (`user/notify`), hold event.view and can see the event's plant, and mails
 * each of them once per fault:
 *
 * - de-duplicated per (user, device SN, code) within `dedupeMs` (6 h): a flapping device, whose
 *   fault opens and closes again and again, mails once;
 * - rate-limited per user to `perHour` (10) mails in any rolling hour; what comes after is held,
 *   and summed up in one "more faults" digest when the hour has room again (at most one digest
 *   an hour; while faults are held, new ones join them);
 * - persisted: every mail, held fault and digest is a row of event_notifications, and the cursor
 *   is stored after each event, so a restart neither resends nor skips. A mail is marked before
 *   it is sent (at most once); a failed one is retried twice within the hour.
 *
 * Events raised before the notifier first ran are not mailed (the cursor starts at the newest).
 * One notifier per deployment: two would each mail. main.ts runs it in the leader only
 * (cluster/leader.ts: one process of all, by a PostgreSQL advisory lock).
 */
import { type Language, toLanguage } from '@sunfleet/contracts';
import type { Caller } from '../../access/caller.ts';
import { grantsFor } from '../../access/grants.ts';
import type { Db } from '../../db/index.ts';
import type { EventLevel } from '../../db/schema.ts';
import { type PeriodicJob, type PeriodicOptions, startPeriodic } from '../../jobs/periodic.ts';
import { type Logger, silentLogger } from '../../log.ts';
import { type FaultMailEvent, faultDigestMail, faultMail } from '../../mail/fault-mail.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { localTimeFormatter } from '../../time/index.ts';
import { suggestedAction } from './catalogue.ts';
import { eventText } from './mapper.ts';
import type { FaultRow } from './notifier.repo.ts';
import * as repo from './notifier.repo.ts';

const CURSOR = 'faults';
const HOUR = 3_600_000;
const MAX_ATTEMPTS = 3;

export interface NotifierOptions {
  db: Db;
  mailer: Mailer;
  log?: Logger;
  now?: () => number;
  /** Same device and code again within this: no mail (default 6 h). */
  dedupeMs?: number;
  /** Mails per user in any rolling hour, digests included (default 10). */
  perHour?: number;
  /** Events read per poll (default 500). */
  batch?: number;
  /** Events younger than this wait for the next poll, so that a slower transaction with a lower id is not skipped (default 10 s). */
  graceMs?: number;
  /** A link to the portal in the mails, when known. */
  portalUrl?: string | null;
}

export interface NotifierRun {
  events: number;
  mailed: number;
  held: number;
  deduplicated: number;
  digests: number;
  failed: number;
}

export type EventNotifier = PeriodicJob<NotifierRun>;

interface Recipient {
  id: number;
  email: string;
  lan: Language;
}

function mailEvent(r: FaultRow, lan: Language): FaultMailEvent {
  const time = (t: number) => `${localTimeFormatter(r.timezone)(t)} (${r.timezone})`;
  const gateway = r.device_id === null;
  return {
    plantName: r.plant_name,
    sn: r.sn,
    alias: gateway ? r.gateway_alias : r.device_alias,
    code: r.code,
    text: eventText(r, lan),
    action: suggestedAction(r.code, r.level as EventLevel, lan, gateway ? 'gateway' : 'device'),
    startedAt: time(Number(r.started_at)),
    endedAt: r.ended_at === null ? null : time(Number(r.ended_at)),
  };
}

export function createEventNotifier(opts: NotifierOptions) {
  const { db, mailer } = opts;
  const log = opts.log ?? silentLogger;
  const clock = opts.now ?? Date.now;
  const dedupeMs = opts.dedupeMs ?? 6 * HOUR;
  const perHour = opts.perHour ?? 10;
  const batch = opts.batch ?? 500;
  const graceMs = opts.graceMs ?? 10_000;
  const portalUrl = opts.portalUrl ?? null;

  const readCursor = (t: number) => repo.readCursor(db, CURSOR, t);
  const writeCursor = (id: number, t: number) => repo.writeCursor(db, CURSOR, id, t);
  const mailsInLastHour = (userId: number, t: number) => repo.mailsInLastHour(db, userId, t);

  /** Who gets mail about each plant: notifications on, event.view, the plant visible. */
  async function recipients(plantIds: number[]): Promise<Map<number, Recipient[]>> {
    const byPlant = new Map<number, Recipient[]>();
    const users = await repo.notifiedUsers(db);
    for (const user of users) {
      const grants = await grantsFor(db, user);
      if (!grants.has('event.view')) continue;
      const caller: Caller = { user, sessionId: '', grants };
      const visible = await repo.visiblePlantIds(db, caller, plantIds);
      for (const p of visible) {
        const list = byPlant.get(p.id) ?? [];
        list.push({ id: user.id, email: user.notify_email ?? user.account, lan: toLanguage(user.language) });
        byPlant.set(p.id, list);
      }
    }
    return byPlant;
  }

  /**
   * Mark, send, record: a mail is never sent twice, even if the process dies or the store goes
   * away in between (the row stays 'sending'). Only a refused mail is marked 'failed' for a retry.
   */
  async function sendMarked(id: number, send: () => Promise<void>, t: number, run: NotifierRun) {
    try {
      await send();
    } catch (err) {
      log.error({ err, notification: id }, 'fault notification mail failed');
      await repo.markFailed(db, id);
      run.failed++;
      return false;
    }
    await repo.markSent(db, id, t);
    return true;
  }

  async function notify(user: Recipient, r: FaultRow, t: number, run: NotifierRun, budget: Map<number, number>) {
    const duplicate = await repo.notifiedSince(db, user.id, r.sn, r.code, t - dedupeMs);
    if (duplicate) {
      run.deduplicated++;
      return;
    }
    let used = budget.get(user.id);
    if (used === undefined) {
      used = (await repo.hasHeld(db, user.id)) ? perHour : await mailsInLastHour(user.id, t);
      budget.set(user.id, used);
    }
    const row = { user_id: user.id, event_id: r.id, plant_id: r.plant_id, sn: r.sn, code: r.code, created_at: t };
    if (used >= perHour) {
      await repo.insertHeld(db, row);
      run.held++;
      return;
    }
    const marked = await repo.insertSending(db, row, t);
    budget.set(user.id, used + 1);
    if (await sendMarked(marked, () => mailer.send(faultMail(user.email, user.lan, mailEvent(r, user.lan), portalUrl)), t, run)) {
      run.mailed++;
    }
  }

  /** Failed mails of the last hour, while attempts last and the user's hour has room. */
  async function retryFailed(t: number, run: NotifierRun, budget: Map<number, number>) {
    const failed = await repo.failedToRetry(db, t, MAX_ATTEMPTS);
    for (const f of failed) {
      if (f.event_id === null || f.notify_enabled !== 1) continue;
      const used = budget.get(f.user_id) ?? (await mailsInLastHour(f.user_id, t));
      if (used >= perHour) continue;
      const event = await repo.faultById(db, f.event_id);
      if (!event) continue;
      await repo.markRetrying(db, f.id, t);
      budget.set(f.user_id, used + 1);
      const lan = toLanguage(f.language);
      const to = f.notify_email ?? f.account;
      if (await sendMarked(f.id, () => mailer.send(faultMail(to, lan, mailEvent(event, lan), portalUrl)), t, run)) {
        run.mailed++;
      }
    }
  }

  /** One digest per user with held faults, when their hour has room and no digest went in it. */
  async function sendDigests(t: number, run: NotifierRun) {
    const users = await repo.usersWithHeld(db);
    for (const u of users) {
      if (u.notify_enabled !== 1 || u.enabled !== 1) {
        // Turned off meanwhile: nothing to send.
        await repo.dropHeld(db, u.id);
        continue;
      }
      if ((await mailsInLastHour(u.id, t)) >= perHour) continue;
      if (await repo.digestSince(db, u.id, t - HOUR)) continue;
      const rows = await repo.heldOf(db, u.id);
      const lan = toLanguage(u.language);
      const listed = rows.slice(0, 20).flatMap((r) => (r.event_id === null ? [] : [r.event_id]));
      const events = listed.length > 0 ? await repo.faultsByIds(db, listed) : [];
      const marked = await repo.insertDigest(db, u.id, t);
      await repo.setStates(
        db,
        rows.map((r) => r.id),
        'digested',
      );
      const mail = faultDigestMail(
        u.notify_email ?? u.account,
        lan,
        events.map((e) => mailEvent(e, lan)),
        rows.length,
        perHour,
        portalUrl,
      );
      try {
        await mailer.send(mail);
        await repo.markDigestSent(db, marked);
        run.digests++;
      } catch (err) {
        // Held again; the next poll tries again.
        log.error({ err, user: u.id }, 'fault digest mail failed');
        await repo.deleteNotification(db, marked);
        await repo.setStates(
          db,
          rows.map((r) => r.id),
          'held',
        );
        run.failed++;
      }
    }
  }

  async function runOnce(): Promise<NotifierRun> {
    const t = clock();
    const run: NotifierRun = { events: 0, mailed: 0, held: 0, deduplicated: 0, digests: 0, failed: 0 };
    const cursor = await readCursor(t);
    const budget = new Map<number, number>();
    if (cursor !== null) {
      const rows = await repo.faultRows(db, cursor, batch);
      const ready: FaultRow[] = [];
      for (const r of rows) {
        if (Number(r.created_at) > t - graceMs) break;
        ready.push(r);
      }
      if (ready.length > 0) {
        const who = await recipients([...new Set(ready.map((r) => r.plant_id as number))]);
        for (const r of ready) {
          for (const user of who.get(r.plant_id as number) ?? []) await notify(user, r, t, run, budget);
          await writeCursor(r.id, t);
          run.events++;
        }
      }
    }
    await retryFailed(t, run, budget);
    await sendDigests(t, run);
    return run;
  }

  return { runOnce };
}

/** Poll every `intervalMs` (default 30 s); polls never overlap; `when`: only in the leader. */
export function startEventNotifier(opts: NotifierOptions & PeriodicOptions & { intervalMs?: number }): EventNotifier {
  const log = opts.log ?? silentLogger;
  const notifier = createEventNotifier(opts);
  return startPeriodic(
    () => notifier.runOnce(),
    opts.intervalMs ?? 30_000,
    (r) => {
      if (r.mailed + r.digests + r.held + r.failed > 0) log.info({ ...r }, 'fault notifications');
    },
    (err) => log.error({ err }, 'fault notifier failed'),
    { when: opts.when },
  );
}
