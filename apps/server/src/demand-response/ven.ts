/**
 * The portal's VEN: one virtual node at the VTN whose resources are the users' enrolled
 * batteries. Upkeep (one process at a time, by a lease in the store): register the VEN, a
 * resource per enrolled device (and remove those of removed devices and ended enrolments), a
 * webhook subscription when a callback URL is configured, programmes, and a poll of the events
 * of the programmes with accepted enrolments (the fallback for lost notifications). Any process
 * accepts a notification: it is stored first (the inbox), answered, then processed from the
 * store. A tick, in every process, processes what is due: the inbox, dispatch rows, reports of
 * ended events, and the outbox. Nothing the VEN owes the VTN is kept only in memory.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Logger } from 'pino';
import type { CommandChannel } from '../commands/channel.ts';
import type { OadrConfig } from '../config.ts';
import type { Db } from '../db/index.ts';
import { optOut, planEvent, runDue } from './dispatch.ts';
import { queueReport } from './reports.ts';
import {
  acceptNotification,
  cancelEvent,
  claimInbox,
  claimOutbox,
  finishInbox,
  finishOutbox,
  getState,
  releaseLease,
  savePrograms,
  setState,
  storedPrograms,
  takeLease,
  upsertEvent,
} from './store.ts';
import { VtnClient, VtnError } from './vtn-client.ts';
import { asEvent, type OadrProgram, parseNotification } from './wire.ts';

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

export class Ven {
  readonly client: VtnClient;
  readonly holder: string;
  private timers: NodeJS.Timeout[] = [];
  private ticking: Promise<void> | null = null;
  private inboxChain: Promise<void> = Promise.resolve();

  constructor(readonly opts: VenOptions) {
    this.client = new VtnClient(opts.config, opts.fetchImpl);
    this.holder = opts.holder ?? `${process.pid}-${randomBytes(4).toString('hex')}`;
  }

  get db() {
    return this.opts.db;
  }

  /** The bearer token the VTN presents on the webhook (made once, kept in the store). */
  async callbackToken(): Promise<string> {
    const stored = await getState(this.db, 'callbackToken');
    if (stored) return stored;
    await setState(this.db, 'callbackToken', randomBytes(24).toString('base64url'));
    return (await getState(this.db, 'callbackToken'))!;
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

  async venId(): Promise<string> {
    const stored = await getState(this.db, 'venId');
    if (stored) return stored;
    const name = this.opts.config.venName;
    const ven = (await this.client.findVen(name)) ?? (await this.client.createVen(name));
    await setState(this.db, 'venId', ven.id);
    return ven.id;
  }

  /** Register resources, settle enrolment states, keep the subscription, poll events. */
  async upkeep(now = Date.now()): Promise<void> {
    const venId = await this.venId();
    const { programs, live } = await this.programs();
    await this.syncResources(venId, live ? new Set(programs.map((p) => p.id)) : null, now);
    await this.ensureSubscription();
    await this.pollEvents(now);
  }

  private async syncResources(venId: string, programIds: Set<string> | null, now: number) {
    const db = this.db;
    // Devices to register: of pending or accepted enrolments, not removed, without a resource.
    const toAdd = await db
      .selectFrom('dr_enrollment_devices as d')
      .innerJoin('dr_enrollments as e', 'e.id', 'd.enrollment_id')
      .select(['d.id', 'd.sn', 'd.charge_w', 'd.discharge_w', 'e.program_id'])
      .where('e.state', 'in', ['pending', 'accepted'])
      .where('d.removed_at', 'is', null)
      .where('d.resource_id', 'is', null)
      .execute();
    for (const d of toAdd) {
      if (programIds && !programIds.has(d.program_id)) continue;
      const r = await this.client.createResource(venId, d.sn, [
        { type: 'MAX_POWER_CONSUMPTION', values: [Number(d.charge_w) / 1000] },
        { type: 'MAX_POWER_EXPORT', values: [Number(d.discharge_w) / 1000] },
      ]);
      await db.updateTable('dr_enrollment_devices').set({ resource_id: r.id }).where('id', '=', d.id).execute();
    }
    // Resources of removed devices and ended enrolments go.
    const toRemove = await db
      .selectFrom('dr_enrollment_devices as d')
      .innerJoin('dr_enrollments as e', 'e.id', 'd.enrollment_id')
      .select(['d.id', 'd.resource_id'])
      .where('d.resource_id', 'is not', null)
      .where((eb) => eb.or([eb('d.removed_at', 'is not', null), eb('e.state', 'in', ['unenrolled', 'rejected'])]))
      .execute();
    for (const d of toRemove) {
      await this.client.deleteResource(d.resource_id!);
      await db.updateTable('dr_enrollment_devices').set({ resource_id: null }).where('id', '=', d.id).execute();
    }
    // A pending enrolment is accepted once all its devices are resources at the VTN; one whose
    // programme the VTN no longer offers is rejected.
    const pending = await db.selectFrom('dr_enrollments').select(['id', 'program_id']).where('state', '=', 'pending').execute();
    for (const e of pending) {
      if (programIds && !programIds.has(e.program_id)) {
        await db.updateTable('dr_enrollments').set({ state: 'rejected', updated_at: now }).where('id', '=', e.id).execute();
        continue;
      }
      const open = await db
        .selectFrom('dr_enrollment_devices')
        .select((eb) => [eb.fn.countAll<number>().as('all'), eb.fn.count<number>('resource_id').as('registered')])
        .where('enrollment_id', '=', e.id)
        .where('removed_at', 'is', null)
        .executeTakeFirstOrThrow();
      if (Number(open.all) > 0 && Number(open.all) === Number(open.registered))
        await db
          .updateTable('dr_enrollments')
          .set({ state: 'accepted', updated_at: now })
          .where('id', '=', e.id)
          .where('state', '=', 'pending')
          .execute();
    }
  }

  /** A webhook subscription for events and programmes, when the portal has a public callback URL. */
  async ensureSubscription(): Promise<void> {
    const url = this.opts.config.callbackUrl;
    if (!url) return;
    const token = await this.callbackToken();
    const name = this.opts.config.venName;
    const existing = await this.client.subscriptions(name);
    const mine = existing.find((s) => s.objectOperations?.some((o) => o.callbackUrl === url));
    if (mine) {
      await setState(this.db, 'subscriptionId', mine.id);
      return;
    }
    try {
      const created = await this.client.createSubscription(name, url, token);
      await setState(this.db, 'subscriptionId', created.id);
    } catch (err) {
      // The VTN checks the callback (echo) before storing it; polling covers a refusal.
      this.opts.log.warn({ err: (err as Error).message }, 'demand response: subscription refused; polling only');
    }
  }

  /** Read the events of the programmes with accepted enrolments; events gone from the VTN are cancelled. */
  async pollEvents(now = Date.now()): Promise<void> {
    const programs = await this.db
      .selectFrom('dr_enrollments')
      .select('program_id')
      .distinct()
      .where('state', '=', 'accepted')
      .execute();
    for (const { program_id } of programs) {
      const events = await this.client.events(program_id);
      const seen = new Set<string>();
      for (const event of events) {
        seen.add(event.id);
        const { change, row } = await upsertEvent(this.db, event, now);
        if (change !== 'same') await planEvent(this.db, row, now);
      }
      const open = await this.db
        .selectFrom('dr_events')
        .select(['vtn_id'])
        .where('program_id', '=', program_id)
        .where('cancelled_at', 'is', null)
        .where((eb) => eb.or([eb('end_ms', '>', now), eb('end_ms', 'is', null)]))
        .execute();
      for (const e of open) if (!seen.has(e.vtn_id)) await this.eventGone(e.vtn_id, now);
    }
  }

  private async eventGone(vtnId: string, now: number) {
    const row = await cancelEvent(this.db, vtnId, now);
    if (row) await planEvent(this.db, { ...row, id: row.id }, now);
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
   * A notification from the VTN: stored (the acknowledgement the VTN gets means it is kept),
   * then processed. One without the subscription's token is kept as a hint: the object is read
   * again from the VTN before it is used. Returns false for a body that is no notification.
   */
  async notify(body: unknown, authorization: string | undefined, now = Date.now()): Promise<boolean> {
    const n = parseNotification(body);
    if (!n) return false;
    const objectId = n.object.id === undefined ? null : String(n.object.id);
    const id = await acceptNotification(
      this.db,
      {
        objectType: n.objectType,
        operation: n.operation,
        objectId,
        body: JSON.stringify(n),
        verified: await this.verifiedCaller(authorization),
      },
      now,
    );
    this.kick([id]);
    return true;
  }

  /** Process the given inbox rows now, in the background (errors stay in the row for a retry). */
  private kick(ids: number[]) {
    void this.processInbox(ids)
      .then(() => this.dispatchDue())
      .catch((err: Error) => this.opts.log.error({ err: err.message }, 'demand response: notification processing failed'));
  }

  /**
   * Process due inbox rows, one batch at a time in this process: an event's notifications are
   * planned in the order they came (a CREATE's plan never lands after its DELETE's).
   */
  processInbox(ids?: number[], now = Date.now()): Promise<void> {
    const run = this.inboxChain.then(() => this.processInboxNow(ids, now));
    this.inboxChain = run.catch(() => undefined);
    return run;
  }

  private async processInboxNow(ids: number[] | undefined, now: number): Promise<void> {
    for (const row of await claimInbox(this.db, 100, now, ids)) {
      try {
        const n = JSON.parse(row.body) as { objectType: string; operation: string; object: unknown };
        if (n.objectType === 'EVENT') {
          if (n.operation === 'DELETE') await this.eventGone(String(row.object_id), Date.now());
          else {
            const event = row.verified ? asEvent(n.object) : await this.client.event(String(row.object_id));
            if (!event) await this.eventGone(String(row.object_id), Date.now());
            else {
              const { change, row: stored } = await upsertEvent(this.db, event, Date.now());
              if (change !== 'same') await planEvent(this.db, stored, Date.now());
            }
          }
        } else if (n.objectType === 'PROGRAM') {
          await this.programs();
        }
        await finishInbox(this.db, row.id, null);
      } catch (err) {
        await finishInbox(this.db, row.id, (err as Error).message);
      }
    }
  }

  /** The user opted an enrolment out of an event: its devices go back to their settings now. */
  async optOut(eventId: number, enrollmentId: number): Promise<void> {
    await optOut(this.db, eventId, enrollmentId);
    await this.dispatchDue();
  }

  async dispatchDue(now = Date.now()): Promise<number> {
    return runDue({ db: this.db, commands: this.opts.commands, now });
  }

  /** Reports of events that ended (and that the batteries took part in) go to the outbox. */
  async queueReports(now = Date.now()): Promise<void> {
    const ended = await this.db
      .selectFrom('dr_events')
      .select('id')
      .where('reported_at', 'is', null)
      .where('end_ms', '<=', now)
      .execute();
    for (const e of ended) {
      const open = await this.db
        .selectFrom('dr_dispatches')
        .select('id')
        .where('event_id', '=', e.id)
        .where('state', 'in', ['planned', 'sending'])
        .where('action', '!=', 'restore')
        .executeTakeFirst();
      if (!open) await queueReport(this.db, e.id, this.opts.config.venName, now);
    }
  }

  /** Send what the outbox holds that is due; a failure stays for its next attempt. */
  async processOutbox(now = Date.now()): Promise<number> {
    let sent = 0;
    for (const row of await claimOutbox(this.db, 50, now)) {
      try {
        await this.client.createReport(JSON.parse(row.body));
        await finishOutbox(this.db, row.id, null);
        sent++;
      } catch (err) {
        await finishOutbox(this.db, row.id, err instanceof VtnError ? err.message : String(err));
      }
    }
    return sent;
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
