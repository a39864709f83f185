/**
 * Gateway replies to command jobs, committed in groups (group.ts): the replies that arrive
 * together are applied in arrival order in one transaction. A reply is taken only from the
 * gateway its job was sent to (the broker has authenticated the sender) and only while the job
 * is sent or acknowledged: `accepted` → acknowledged, `progress` keeps it (its percent and stage
 * are stored on the job), `ok` → succeeded,
 * `error` → failed with the device's reason. Anything else is refused with its reason and
 * changes nothing.
 */
import type { ReplyMessage } from '@sunfleet/contracts';
import type { Transaction } from 'kysely';
import type { Db } from '../db/index.ts';
import type { Database } from '../db/schema.ts';
import type { JobState } from './channel.ts';
import { GroupCommit } from './group.ts';
import { applyTransition, insertEvents, type JobEventRow, type JobRow, jobsByIds, OPEN_SENT } from './jobs.repo.ts';

/** Why a reply was refused (counted per reason). */
export type RefusedReply = 'malformed' | 'unknownJob' | 'foreignGateway' | 'notOpen';

/** The job after a reply; null when the reply kept it as it was; else why it was refused. */
export type ReplyOutcome = JobRow | RefusedReply | null;

type Tx = Db | Transaction<Database>;

/** One reply within the group's transaction. */
async function applyReply(
  trx: Tx,
  jobs: Map<string, JobRow>,
  events: JobEventRow[],
  sn: string,
  reply: ReplyMessage,
  at: number,
): Promise<ReplyOutcome> {
  const row = jobs.get(reply.id);
  if (!row) return 'unknownJob';
  if (row.gateway_sn !== sn) return 'foreignGateway';
  if (!OPEN_SENT.includes(row.state as JobState)) return 'notOpen';
  let changed: JobRow | undefined;
  switch (reply.status) {
    case 'accepted':
      if (row.state === 'acknowledged') return null;
      changed = await applyTransition(trx, row.id, ['sent'], 'acknowledged', at, { acknowledged_at: at }, null, sn, events);
      break;
    case 'progress': {
      // Progress keeps the job's state (a sign that it is still alive); its percent and stage are kept.
      if (reply.progress === undefined && reply.stage === undefined) return null;
      const set = { progress: reply.progress ?? row.progress, stage: reply.stage ?? row.stage };
      const kept = await trx
        .updateTable('command_jobs')
        .set(set)
        .where('id', '=', row.id)
        .where('state', 'in', OPEN_SENT as JobState[])
        .returningAll()
        .executeTakeFirst();
      if (kept) jobs.set(kept.id, kept);
      return null;
    }
    case 'ok':
      changed = await applyTransition(
        trx,
        row.id,
        OPEN_SENT,
        'succeeded',
        at,
        { finished_at: at, reply: JSON.stringify(reply), acknowledged_at: row.acknowledged_at ?? at },
        null,
        sn,
        events,
      );
      break;
    case 'error': {
      const reason = (reply.error ?? 'failed').slice(0, 200);
      changed = await applyTransition(
        trx,
        row.id,
        OPEN_SENT,
        'failed',
        at,
        { finished_at: at, reply: JSON.stringify(reply), error: reason, ...(reply.stage ? { stage: reply.stage } : {}) },
        reason,
        sn,
        events,
      );
      break;
    }
  }
  if (changed) jobs.set(changed.id, changed);
  return changed ?? 'notOpen';
}

/** `add(sn, reply)` resolves with the reply's outcome once its group is committed. */
export function replyCommitter(db: Db, now: () => number) {
  const group = new GroupCommit<{ sn: string; reply: ReplyMessage }, ReplyOutcome>((items) =>
    db.transaction().execute(async (trx) => {
      const at = now();
      const jobs = new Map((await jobsByIds(trx, [...new Set(items.map((i) => i.reply.id))])).map((r) => [r.id, r]));
      const events: JobEventRow[] = [];
      const out: ReplyOutcome[] = [];
      for (const { sn, reply } of items) out.push(await applyReply(trx, jobs, events, sn, reply, at));
      await insertEvents(trx, events);
      return out;
    }),
  );
  return { add: (sn: string, reply: ReplyMessage) => group.add({ sn, reply }), idle: () => group.idle() };
}
