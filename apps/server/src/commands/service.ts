/**
 * The command channel (channel.ts says what a module sees). Nothing another process needs lives
 * in memory: a job is a row, and every state change is a conditional update of it, so any
 * process may send it, take its reply, time it out or expire it, and a `settle` in one process
 * sees a reply another process took (it is woken in-process, and polls the store otherwise).
 *
 * - submit: the job is stored `queued`; this process sends it at once when it can publish and
 *   reaches the gateway (a session on its embedded broker; with a shared broker, the store has
 *   the gateway online). Each process sends only to the gateways it reaches. Submits and replies that arrive together are committed
 *   together (group.ts): a burst of a thousand is a few transactions.
 * - dispatch: a gateway's queued jobs are claimed (`sent`) and published in order when it says it
 *   is online (`up/state`), and by the sweeper for every online gateway with queued jobs (jobs
 *   submitted by a process that cannot publish, or while the gateway was offline).
 * - replies: accepted only from the gateway the job was sent to, for a job `sent` or
 *   `acknowledged`; anything else is refused and counted, never changes a job. The MQTT message
 *   is acknowledged once the change is committed.
 * - the sweeper: queued past expiry → `expired`; sent past timeout → `timed_out`; sent without
 *   an answer for `resendMs` → sent again with the same id (the gateway answers a repeated id
 *   from its memory, never runs it twice); this also covers a server restart between sending
 *   and the reply, and a command lost on the way.
 */
import { type CommandMessage, PROTOCOL_VERSION, type ReplyMessage, ReplyPayload, topics } from '@sunfleet/contracts';
import { Compile } from 'typebox/compile';
import type { Db, Dialect } from '../db/index.ts';
import type { Logger } from '../log.ts';
import type { CommandChannel, CommandJob, JobState, SubmitCommand } from './channel.ts';
import { CommandConflict, FINAL_STATES } from './channel.ts';
import { GroupCommit } from './group.ts';
import { newJobId } from './job-id.ts';
import {
  gatewayOnline,
  gatewaysWithQueuedJobs,
  insertJobs,
  type JobRow,
  jobById,
  jobsByIds,
  markResent,
  OPEN_SENT,
  onlineGateways,
  openSentJobs,
  toJob,
  transition,
  transitionOne,
  unansweredJobs,
} from './jobs.repo.ts';
import { type RefusedReply, replyCommitter } from './replies.ts';
import { SettleWaiters } from './settle-waiters.ts';

export type Publish = (topic: string, payload: string, opts: { qos: 0 | 1 | 2 }) => Promise<void>;

export interface CommandStats {
  submitted: number;
  /** Publishes of a job, first sends and resends. */
  sent: number;
  resent: number;
  /** Replies that changed a job (or kept it, for progress). */
  replies: number;
  repliesRefused: Record<RefusedReply, number>;
  /** Final states reached in this process. */
  finished: Partial<Record<JobState, number>>;
}

export interface CommandChannelOptions {
  db: Db;
  dialect: Dialect;
  log: Logger;
  defaults: { timeoutMs: number; expiryMs: number; resendMs: number };
  /** How often `settle` looks at the store when no reply woke it here. */
  pollMs?: number;
  now?: () => number;
}

export interface CommandService extends CommandChannel {
  /**
   * The process can publish from now on (its MQTT side is up). `reaches`: the gateways its
   * publishes get to. An embedded broker reaches only the gateways with a session on it: the
   * process sends to those alone and leaves the others to the process that holds their session
   * (a publish into a broker the gateway is not on is lost, and the job waits for a resend).
   * Without it (one broker shared by every process) it sends to every gateway the store has online.
   */
  attach(publish: Publish, reaches?: (sn: string) => boolean): void;
  /** A reply from gateway `sn` (already authenticated): `ack` once it is settled. */
  reply(sn: string, payload: Buffer, ack?: () => void): void;
  /** Gateway `sn` said it is online: send again what it has not answered, then its queued jobs. */
  gatewayOnline(sn: string): Promise<void>;
  /** One sweep: expire, time out, resend, dispatch. Returns how many jobs each touched. */
  sweep(): Promise<{ expired: number; timedOut: number; resent: number; dispatched: number }>;
  stats(): CommandStats;
  /** Stop taking replies; settle waiters return the job as it stands. */
  close(): Promise<void>;
}

/** Gateways whose commands are published in one turn of the event loop. */
const PUBLISH_SLICE = 50;
const checkReply = Compile(ReplyPayload);
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

export function createCommandChannel(opts: CommandChannelOptions): CommandService {
  const { db, dialect, log, defaults } = opts;
  const now = opts.now ?? Date.now;
  const pollMs = opts.pollMs ?? 250;
  let publish: Publish | null = null;
  let reaches: ((sn: string) => boolean) | null = null;
  let closed = false;
  const waiters = new SettleWaiters(db, pollMs, log);
  /** Replies being committed (close waits for them). */
  const pending = new Set<Promise<void>>();
  const stats: CommandStats = {
    submitted: 0,
    sent: 0,
    resent: 0,
    replies: 0,
    repliesRefused: { malformed: 0, unknownJob: 0, foreignGateway: 0, notOpen: 0 },
    finished: {},
  };

  /** Until the job's own deadline: its expiry while queued, its timeout once sent. */
  function untilDeadline(row: JobRow): number {
    const at = now();
    if (row.state === 'queued') return Number(row.expires_at) - at;
    if (row.sent_at !== null) return Number(row.sent_at) + row.timeout_ms - at;
    return Number.POSITIVE_INFINITY;
  }

  function finished(rows: readonly JobRow[]): void {
    for (const r of rows) {
      if (FINAL_STATES.has(r.state as JobState))
        stats.finished[r.state as JobState] = (stats.finished[r.state as JobState] ?? 0) + 1;
      waiters.wake(r.id, r);
    }
  }

  /**
   * Publish jobs: each gateway's in the order given, one after another; gateways side by side (a
   * publish waits for the broker, and a burst for many gateways must not queue behind itself).
   * A failure leaves the job to the resend.
   */
  async function publishJobs(rows: readonly JobRow[], resend: boolean): Promise<void> {
    if (!publish) return;
    const send = publish;
    const perGateway = new Map<string, JobRow[]>();
    for (const r of rows) {
      const list = perGateway.get(r.gateway_sn);
      if (list) list.push(r);
      else perGateway.set(r.gateway_sn, [r]);
    }
    // In slices, with a turn of the event loop between them, so that a burst does not hold
    // ingest's batches and acknowledgements back for its whole length.
    const lists = [...perGateway.values()];
    const sending: Promise<void>[] = [];
    for (let i = 0; i < lists.length; i += PUBLISH_SLICE) {
      if (i > 0) await new Promise((resolve) => setImmediate(resolve));
      sending.push(
        ...lists.slice(i, i + PUBLISH_SLICE).map(async (list) => {
          for (const r of list) {
            const body = JSON.parse(r.body) as Omit<CommandMessage, 'v' | 'id' | 'ts'>;
            const message: CommandMessage = { v: PROTOCOL_VERSION, id: r.id, ts: now(), ...body };
            try {
              await send(topics.down(r.gateway_sn), JSON.stringify(message), { qos: 1 });
              stats.sent++;
              if (resend) stats.resent++;
            } catch (err) {
              log.warn({ err, job: r.id, gateway: r.gateway_sn }, 'command publish failed; it is sent again later');
            }
          }
        }),
      );
    }
    await Promise.all(sending);
  }

  /**
   * Publishes one after another (a gateway's jobs go out in the order they were claimed, also
   * when a claim is made while an earlier one is still being published); a failure leaves its
   * jobs to the resend.
   */
  let publishing: Promise<void> = Promise.resolve();
  function publishInOrder(rows: readonly JobRow[], resend: boolean): Promise<void> {
    if (rows.length === 0) return publishing;
    publishing = publishing.then(() => publishJobs(rows, resend)).catch(() => undefined);
    return publishing;
  }

  /**
   * Claim these gateways' queued jobs (not expired) and publish them, each gateway's in order:
   * the claimed rows at once, `sent` when they are published.
   */
  async function claimAndSend(sns: readonly string[]): Promise<{ rows: JobRow[]; sent: Promise<void> }> {
    const claimed: JobRow[] = [];
    let sent: Promise<void> = Promise.resolve();
    if (!publish || sns.length === 0) return { rows: claimed, sent };
    for (let i = 0; i < sns.length; i += 500) {
      const part = sns.slice(i, i + 500);
      for (;;) {
        const at = now();
        const rows = await transition(
          db,
          dialect,
          ['queued'],
          'sent',
          at,
          (q) => q.where('gateway_sn', 'in', part).where('expires_at', '>', at),
          { sent_at: at, last_sent_at: at, sends: 1 },
          null,
          1000,
        );
        sent = publishInOrder(rows, false);
        claimed.push(...rows);
        if (rows.length < 1000) break;
      }
    }
    return { rows: claimed, sent };
  }

  /** Claim and publish these gateways' queued jobs; how many, once published. */
  async function dispatch(sns: readonly string[]): Promise<number> {
    const { rows, sent } = await claimAndSend(sns);
    await sent;
    return rows.length;
  }

  /**
   * Store submitted jobs together, then claim those whose gateway is online; the group is done
   * then, and the next one is stored while this one is being published (each submit resolves
   * once its job is published). A job the store refused (an open power command of its device)
   * comes back null, and the rest of the group is stored.
   */
  const submits = new GroupCommit<SubmitCommand, { row: JobRow; sent: Promise<void> } | null>(async (commands) => {
    const at = now();
    const rows: JobRow[] = commands.map((command) => ({
      id: newJobId(at),
      gateway_sn: command.gatewaySn,
      device_sn: command.deviceSn ?? null,
      batch_id: command.batchId ?? null,
      type: command.body.type,
      state: 'queued',
      body: JSON.stringify(command.body),
      reply: null,
      error: null,
      requested_by: command.requestedBy,
      timeout_ms: command.timeoutMs ?? defaults.timeoutMs,
      expires_at: at + (command.expiresInMs ?? defaults.expiryMs),
      created_at: at,
      sent_at: null,
      last_sent_at: null,
      sends: 0,
      acknowledged_at: null,
      finished_at: null,
      progress: null,
      stage: null,
    }));
    const ids = await db.transaction().execute((trx) => insertJobs(trx, rows));
    const kept = rows.filter((r) => ids.has(r.id));
    stats.submitted += kept.length;
    let sent: Promise<void> = Promise.resolve();
    const current = new Map<string, JobRow>();
    if (publish && kept.length > 0) {
      const sns = [...new Set(kept.map((r) => r.gateway_sn))];
      const claim = await claimAndSend(reaches ? sns.filter(reaches) : [...(await onlineGateways(db, sns))]);
      sent = claim.sent;
      for (const r of claim.rows) current.set(r.id, r);
    }
    // Those not claimed here may have been sent by another process meanwhile: as the store has them.
    const unclaimed = kept.filter((r) => !current.has(r.id)).map((r) => r.id);
    for (const r of await jobsByIds(db, unclaimed)) current.set(r.id, r);
    return rows.map((r) => {
      const row = current.get(r.id);
      return row ? { row, sent } : null;
    });
  });

  async function resendOpen(sn: string): Promise<number> {
    if (!publish) return 0;
    const at = now();
    const rows = await openSentJobs(db, sn, at);
    await markResent(
      db,
      rows.map((r) => r.id),
      at,
    );
    await publishInOrder(rows, true);
    return rows.length;
  }

  /** A job past its deadline is settled here too (the sweeper may run in another process, or later). */
  async function lapse(row: JobRow): Promise<JobRow | undefined> {
    const at = now();
    if (row.state === 'queued' && Number(row.expires_at) <= at) {
      const r = await transitionOne(db, row.id, ['queued'], 'expired', at, { finished_at: at, error: 'expired' }, null);
      if (r) finished([r]);
      return r;
    }
    if (OPEN_SENT.includes(row.state as JobState) && row.sent_at !== null && Number(row.sent_at) + row.timeout_ms <= at) {
      const r = await transitionOne(db, row.id, OPEN_SENT, 'timed_out', at, { finished_at: at, error: 'timed out' }, null);
      if (r) finished([r]);
      return r;
    }
    return undefined;
  }

  const replies = replyCommitter(db, now);

  /** Those this process's publishes get to. */
  function reachable<T>(items: T[], sn: (item: T) => string): T[] {
    const r = reaches;
    return r ? items.filter((item) => r(sn(item))) : items;
  }

  async function handleReply(sn: string, reply: ReplyMessage): Promise<void> {
    const result = await replies.add(sn, reply);
    if (typeof result === 'string') {
      stats.repliesRefused[result]++;
      log.warn({ gateway: sn, job: reply.id, reason: result, status: reply.status }, 'command reply refused');
      return;
    }
    stats.replies++;
    if (result) finished([result]);
  }

  /** Reads of single jobs that come together (the settles of a burst) are one query. */
  const reads = new GroupCommit<string, JobRow | undefined>(async (ids) => {
    const found = new Map((await jobsByIds(db, [...new Set(ids)])).map((r) => [r.id, r]));
    return ids.map((id) => found.get(id));
  });
  const channel: CommandService = {
    attach(p, r) {
      publish = p;
      reaches = r ?? null;
    },

    async submit(command: SubmitCommand): Promise<CommandJob> {
      const stored = await submits.add(command);
      if (!stored) throw new CommandConflict(command);
      await stored.sent;
      return toJob(stored.row);
    },

    async settle(jobId, maxWaitMs) {
      let row = await reads.add(jobId);
      if (!row) throw new Error(`no command job ${jobId}`);
      const wait = maxWaitMs ?? row.timeout_ms + pollMs;
      const deadline = now() + wait;
      for (;;) {
        if (FINAL_STATES.has(row.state as JobState)) return toJob(row);
        row = (await lapse(row)) ?? row;
        if (FINAL_STATES.has(row.state as JobState)) return toJob(row);
        const left = deadline - now();
        if (left <= 0 || closed) return toJob(row);
        const woken = await waiters.wait(jobId, row.state, Math.max(1, Math.min(left, untilDeadline(row))));
        row = woken ?? (await reads.add(jobId))!;
      }
    },

    async run(command, maxWaitMs) {
      const job = await channel.submit(command);
      return channel.settle(job.id, maxWaitMs);
    },

    async cancel(jobId, by) {
      const at = now();
      const r = await transitionOne(
        db,
        jobId,
        ['queued'],
        'cancelled',
        at,
        { finished_at: at, error: 'cancelled' },
        `by user ${by}`,
      );
      if (r) {
        finished([r]);
        return toJob(r);
      }
      const row = await jobById(db, jobId);
      if (!row) throw new Error(`no command job ${jobId}`);
      return toJob(row);
    },

    isOnline: (gatewaySn) => gatewayOnline(db, gatewaySn),

    async get(jobId) {
      const row = await reads.add(jobId);
      return row ? toJob(row) : undefined;
    },

    reply(sn, payload, ack) {
      let msg: unknown;
      try {
        msg = JSON.parse(payload.toString('utf8'));
      } catch {
        msg = undefined;
      }
      if (!checkReply.Check(msg)) {
        stats.repliesRefused.malformed++;
        log.warn({ gateway: sn }, 'command reply refused: not a valid reply payload');
        ack?.();
        return;
      }
      const work = (async () => {
        // Retried while the store refuses (the acknowledgement, and the gateway's next ones, wait).
        for (let attempt = 0; !closed || attempt === 0; attempt++) {
          try {
            await handleReply(sn, msg as ReplyMessage);
            ack?.();
            return;
          } catch (err) {
            log.error({ err, gateway: sn, attempt }, 'command reply could not be stored; retrying');
            await sleep(Math.min(5000, 25 * 2 ** Math.min(attempt, 8)));
          }
        }
      })();
      pending.add(work);
      void work.finally(() => pending.delete(work));
    },

    async gatewayOnline(sn) {
      if (!publish || closed) return;
      await resendOpen(sn);
      await dispatch([sn]);
    },

    async sweep() {
      const at = now();
      const expired = await transition(
        db,
        dialect,
        ['queued'],
        'expired',
        at,
        (q) => q.where('expires_at', '<=', at),
        { finished_at: at, error: 'expired' },
        null,
      );
      finished(expired);
      const timedOut = await transition(
        db,
        dialect,
        OPEN_SENT,
        'timed_out',
        at,
        (q) => q.where((eb) => eb(eb('sent_at', '+', eb.ref('timeout_ms')), '<=', at)),
        { finished_at: at, error: 'timed out' },
        null,
      );
      finished(timedOut);
      let resent = 0;
      let dispatched = 0;
      if (publish) {
        const unanswered = reachable(await unansweredJobs(db, at - defaults.resendMs), (r) => r.gateway_sn);
        await markResent(
          db,
          unanswered.map((r) => r.id),
          at,
        );
        await publishInOrder(unanswered, true);
        resent = unanswered.length;
        dispatched = await dispatch(reachable(await gatewaysWithQueuedJobs(db, at), (sn) => sn));
      }
      return { expired: expired.length, timedOut: timedOut.length, resent, dispatched };
    },

    stats: () => ({ ...stats, repliesRefused: { ...stats.repliesRefused }, finished: { ...stats.finished } }),

    async close() {
      closed = true;
      waiters.close();
      await Promise.all(pending);
      await submits.idle();
      await publishing;
    },
  };
  return channel;
}
