/**
 * The portal's VEN: one virtual node at the VTN whose resources are the users' enrolled
 * batteries. Upkeep (one process at a time, by a lease in the store): check the registration
 * (ven object, resources, granted targets, webhook subscription; made again when the VTN lost
 * them), programmes, and a poll of the events of the programmes with accepted enrolments.
 *
 * What the VEN trusts: only what the VTN answers to its own authenticated requests. A webhook
 * call must carry the bearer token the VEN gave in its subscription (else 401, not stored); even
 * then its body is only a hint to look again: the event is read back (`GET /events/{id}`, 404 =
 * gone) before anything is planned or restored. An event is acted on only when its programme is
 * one the portal is enrolled in and its targets are this VEN's or its resources' (`targets.ts`);
 * what was ignored is stored with the reason. A tick, in every process, processes what is due:
 * the inbox, dispatch rows, reports of closed events, and the outbox.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Logger } from 'pino';
import type { CommandChannel } from '../commands/channel.ts';
import type { OadrConfig } from '../config.ts';
import type { Db } from '../db/index.ts';
import { optOut, planEvent, runDue } from './dispatch.ts';
import { processOutbox } from './outbox.ts';
import {
  ensureSubscription,
  followProgrammes,
  reconcileResources,
  reconcileVen,
  recordPoll,
  storedGrants,
  syncResources,
} from './registration.ts';
import { queueReport } from './reports.ts';
import { venStats } from './stats.ts';
import {
  acceptedPrograms,
  acceptNotification,
  cancelEvent,
  claimInbox,
  type EventRow,
  finishInbox,
  getState,
  openEvents,
  releaseLease,
  savePrograms,
  storedPrograms,
  takeLease,
  upsertEvent,
} from './store.ts';
import { applicability, type Grants } from './targets.ts';
import { VtnClient } from './vtn-client.ts';
import { type OadrEvent, type OadrProgram, parseNotification } from './wire.ts';

const LEASE = 'ven-upkeep';

export interface VenOptions {
  db: Db;
  config: OadrConfig;
  commands: CommandChannel;
  log: Pick<Logger, 'info' | 'warn' | 'error'>;
  fetchImpl?: typeof fetch;
  /** This process's name in the lease. */
  holder?: string;
}

/** What the webhook made of a call: refused (no valid bearer token, or not a notification) or stored. */
export type NotifyOutcome = 'unauthorized' | 'malformed' | 'accepted';

/** What the VEN needs to decide about an event: the programmes it is enrolled in and its granted targets. */
interface Standing {
  programs: Set<string>;
  grants: Grants;
}

export class Ven {
  readonly client: VtnClient;
  readonly holder: string;
  private timers: NodeJS.Timeout[] = [];
  private ticking: Promise<void> | null = null;
  private inboxChain: Promise<void> = Promise.resolve();
  /** The callback token never changes once made: read once per process. */
  private token: string | null = null;

  constructor(readonly opts: VenOptions) {
    this.client = new VtnClient(opts.config, opts.fetchImpl);
    this.holder = opts.holder ?? `${process.pid}-${randomBytes(4).toString('hex')}`;
  }

  get db() {
    return this.opts.db;
  }

  private get ctx() {
    return { db: this.db, client: this.client, config: this.opts.config, log: this.opts.log };
  }

  /** The bearer token the VTN presents on the webhook (made once, kept in the store). */
  async callbackToken(): Promise<string> {
    if (this.token) return this.token;
    let stored = await getState(this.db, 'callbackToken');
    if (!stored) {
      await this.db
        .insertInto('dr_state')
        .values({
          name: 'callbackToken',
          value: randomBytes(24).toString('base64url'),
          holder: null,
          expires_at: null,
          updated_at: Date.now(),
        })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
      stored = (await getState(this.db, 'callbackToken'))!;
    }
    this.token = stored;
    return stored;
  }

  /** Programmes from the VTN (stored); when it does not answer, the ones read last. */
  async programs(): Promise<{ programs: OadrProgram[]; live: boolean }> {
    try {
      const programs = await this.client.programs();
      await savePrograms(this.db, programs);
      return { programs, live: true };
    } catch (err) {
      this.opts.log.warn({ err: (err as Error).message }, 'demand response: programmes not read from the VTN');
      return { programs: await storedPrograms(this.db), live: false };
    }
  }

  /** The VEN's id at the VTN, registered (again) when the VTN does not have it. */
  async venId(now = Date.now()): Promise<string> {
    return reconcileVen(this.ctx, now);
  }

  /**
   * Check the registration against the VTN and make again what it lost, settle enrolment states,
   * keep the subscription, poll events. The outcome (or the error) is recorded for the enrolment page.
   */
  async upkeep(now = Date.now()): Promise<void> {
    try {
      const venId = await reconcileVen(this.ctx, now);
      const { programs, live } = await this.programs();
      if (live) await followProgrammes(this.db, programs, now);
      await reconcileResources(this.ctx, venId, now);
      await syncResources(this.ctx, venId, live ? new Set(programs.map((p) => p.id)) : null, now);
      if (live) await reconcileResources(this.ctx, venId, now);
      await ensureSubscription(this.ctx, await this.callbackToken());
      await this.pollEvents(now);
      await recordPoll(this.db, now, null);
    } catch (err) {
      await recordPoll(this.db, now, (err as Error).message.slice(0, 300)).catch(() => undefined);
      throw err;
    }
  }

  private async standing(): Promise<Standing> {
    return { programs: await acceptedPrograms(this.db), grants: await storedGrants(this.db, this.opts.config.venName) };
  }

  /**
   * Take the event as the VTN answered it: stored with what the VEN decided (acted on, or ignored
   * and why), then planned. An event of a programme no user is enrolled in is not stored at all.
   */
  private async takeEvent(event: OadrEvent, standing: Standing, now: number): Promise<void> {
    const verdict = applicability(event, standing.programs, standing.grants);
    if (!verdict.applies) {
      const programme = !standing.programs.has(event.programID);
      venStats.eventsIgnored[programme ? 'programme' : 'targets']++;
      const known = await this.db.selectFrom('dr_events').select('id').where('vtn_id', '=', event.id).executeTakeFirst();
      if (programme && !known) return;
    }
    const { change, row, superseded } = await upsertEvent(
      this.db,
      event,
      verdict.applies ? { ignoredReason: null, only: verdict.only } : { ignoredReason: verdict.reason, only: null },
      now,
    );
    for (const old of superseded) await this.plan(old, now);
    if (change !== 'same') await this.plan(row, now);
  }

  /** Plan an event row; one the VEN ignores plans only the restores of what it already commanded. */
  private plan(row: EventRow, now: number): Promise<void> {
    return planEvent(this.db, row.ignored_reason === null ? row : { ...row, cancelled_at: row.cancelled_at ?? now }, now);
  }

  /**
   * Read the events of the programmes with accepted enrolments (the VTN's programme filter is not
   * relied on). Open events the VTN no longer lists end, and their batteries go back to their
   * settings; an open event of another programme (its enrolments ended, or its programme made
   * again under a new id) is read by its id.
   */
  async pollEvents(now = Date.now()): Promise<void> {
    const standing = await this.standing();
    const seen = new Set<string>();
    for (const programId of standing.programs)
      for (const event of await this.client.events(programId)) {
        seen.add(event.id);
        await this.takeEvent(event, standing, now);
      }
    for (const e of await openEvents(this.db, now)) {
      if (seen.has(e.vtn_id)) continue;
      if (standing.programs.has(e.program_id)) await this.eventGone(e.vtn_id, now);
      else await this.lookAgain(e.vtn_id, standing);
    }
  }

  private async eventGone(vtnId: string, now: number) {
    for (const row of await cancelEvent(this.db, vtnId, now)) await planEvent(this.db, row, now);
  }

  /** Whether the Authorization header carries the subscription's bearer token. */
  async verifiedCaller(authorization: string | undefined): Promise<boolean> {
    if (!authorization) return false;
    const token = await this.callbackToken();
    const given = Buffer.from(authorization.replace(/^Bearer\s+/i, ''));
    const want = Buffer.from(token);
    return given.length === want.length && timingSafeEqual(given, want);
  }

  /**
   * A webhook call. Without the subscription's bearer token it is refused and nothing is stored;
   * with it, it is stored (the VTN's 200 means it is kept) as a hint to read the object again, and
   * processed in the background.
   */
  async notify(body: unknown, authorization: string | undefined, now = Date.now()): Promise<NotifyOutcome> {
    if (!(await this.verifiedCaller(authorization))) {
      venStats.webhookRefused.unauthorized++;
      return 'unauthorized';
    }
    const n = parseNotification(body);
    if (!n) {
      venStats.webhookRefused.malformed++;
      return 'malformed';
    }
    const objectId = n.object.id === undefined ? null : String(n.object.id);
    const id = await acceptNotification(
      this.db,
      { objectType: n.objectType, operation: n.operation, objectId, body: JSON.stringify(n), verified: true },
      now,
    );
    this.kick([id]);
    return 'accepted';
  }

  /** Process the given inbox rows now, in the background (errors stay in the row for a retry). */
  private kick(ids: number[]) {
    void this.processInbox(ids)
      .then(() => this.dispatchDue())
      .catch((err: Error) => this.opts.log.error({ err: err.message }, 'demand response: notification processing failed'));
  }

  /**
   * Process due inbox rows, one batch at a time in this process: an event's notifications are
   * taken in the order they came.
   */
  processInbox(ids?: number[], now = Date.now()): Promise<void> {
    const run = this.inboxChain.then(() => this.processInboxNow(ids, now));
    this.inboxChain = run.catch(() => undefined);
    return run;
  }

  /**
   * A notification says only which object to look at: its body (operation, intervals, even its
   * programme) is never used. The event is read from the VTN (404: gone); one read serves every
   * notification of the batch about the same event.
   */
  private async processInboxNow(ids: number[] | undefined, now: number): Promise<void> {
    const rows = await claimInbox(this.db, 100, now, ids);
    if (rows.length === 0) return;
    const standing = await this.standing();
    const looked = new Map<string, Promise<void>>();
    for (const row of rows) {
      try {
        if (row.object_type === 'EVENT' && row.object_id !== null) {
          const vtnId = row.object_id;
          let lookup = looked.get(vtnId);
          if (!lookup) {
            lookup = this.lookAgain(vtnId, standing);
            looked.set(vtnId, lookup);
          }
          await lookup;
        } else if (row.object_type === 'PROGRAM') {
          await this.programs();
        }
        await finishInbox(this.db, row.id, null);
      } catch (err) {
        await finishInbox(this.db, row.id, (err as Error).message);
      }
    }
  }

  private async lookAgain(vtnId: string, standing: Standing): Promise<void> {
    const event = await this.client.event(vtnId);
    if (!event) await this.eventGone(vtnId, Date.now());
    else await this.takeEvent(event, standing, Date.now());
  }

  /** The user opted an enrolment out of an event: its devices go back to their settings now. */
  async optOut(eventId: number, enrollmentId: number): Promise<void> {
    await optOut(this.db, eventId, enrollmentId);
    await this.dispatchDue();
  }

  async dispatchDue(now = Date.now()): Promise<number> {
    return runDue({ db: this.db, commands: this.opts.commands, now });
  }

  /**
   * Reports of events whose window has closed (ended, cancelled, or no longer at the VTN) and
   * whose batteries have all been sent what was due go to the outbox.
   */
  async queueReports(now = Date.now()): Promise<void> {
    const closed = await this.db
      .selectFrom('dr_events')
      .select('id')
      .where('reported_at', 'is', null)
      .where((eb) => eb.or([eb('end_ms', '<=', now), eb('cancelled_at', 'is not', null)]))
      .execute();
    for (const e of closed) {
      const open = await this.db
        .selectFrom('dr_dispatches')
        .select('id')
        .where('event_id', '=', e.id)
        .where('state', 'in', ['planned', 'sending'])
        .where('start_ms', '<=', now)
        .executeTakeFirst();
      if (!open) await queueReport(this.db, e.id, this.opts.config.venName, now);
    }
  }

  /** Send what the outbox holds that is due; returns how many were sent. */
  processOutbox(now = Date.now()): Promise<number> {
    return processOutbox(this.ctx, now);
  }

  /** Everything due in this process: inbox, dispatch rows, reports, outbox. */
  async tick(now = Date.now()): Promise<void> {
    await this.processInbox(undefined, now);
    await this.dispatchDue(now);
    await this.queueReports(now);
    await this.processOutbox(now);
  }

  /** Upkeep when this process holds the lease. */
  async leaderUpkeep(): Promise<boolean> {
    const ttl = this.opts.config.pollSeconds * 3000;
    if (!(await takeLease(this.db, LEASE, this.holder, ttl))) return false;
    await this.upkeep();
    return true;
  }

  start(): void {
    const guard = (what: string, fn: () => Promise<unknown>) => () => {
      if (this.ticking) return;
      this.ticking = fn()
        .then(() => undefined)
        .catch((err: Error) => this.opts.log.warn({ err: err.message }, `demand response: ${what} failed`))
        .finally(() => {
          this.ticking = null;
        });
    };
    const upkeep = guard('upkeep', () => this.leaderUpkeep());
    this.timers.push(setInterval(upkeep, this.opts.config.pollSeconds * 1000));
    this.timers.push(
      setInterval(
        guard('tick', () => this.tick()),
        1000,
      ),
    );
    for (const t of this.timers) t.unref();
    upkeep();
  }

  async stop(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    await this.ticking;
    await releaseLease(this.db, LEASE, this.holder).catch(() => undefined);
  }
}
