/**
 * Gateway replies to command jobs, committed in groups (group.ts): the replies that arrive
 * together are worked out in arrival order against the jobs as read at the start of the group's
 * transaction, then stored with one update of every job they change and one insert of their
 * events. A reply is taken only from the gateway its job was sent to (the broker has
 * authenticated the sender) and only while the job is sent or acknowledged: `accepted` →
 * acknowledged, `progress` keeps it (its percent and stage are stored on the job), `ok` →
 * succeeded, `error` → failed with the device's reason.
 * Anything else is refused with its reason and changes nothing. A job another process (or the
 * sweeper) moved between the read and the update keeps that change: its replies are `notOpen`.
 */
import type { ReplyMessage } from '@sunfleet/contracts';
import type { Db } from '../db/index.ts';
import type { JobState } from './channel.ts';
import { GroupCommit } from './group.ts';
import { applyChanges, insertEvents, type JobChange, type JobEventRow, type JobRow, jobsByIds, OPEN_SENT } from './jobs.repo.ts';

/** Why a reply was refused (counted per reason). */
export type RefusedReply = 'malformed' | 'unknownJob' | 'foreignGateway' | 'notOpen';

/** The job after a reply; null when the reply kept it as it was; else why it was refused. */
export type ReplyOutcome = JobRow | RefusedReply | null;

/** One reply against the jobs as they stand in this group (`jobs` is updated with the job after it). */
export function applyReply(
  jobs: Map<string, JobRow>,
  events: JobEventRow[],
  sn: string,
  reply: ReplyMessage,
  at: number,
): ReplyOutcome {
  const row = jobs.get(reply.id);
  if (!row) return 'unknownJob';
  if (row.gateway_sn !== sn) return 'foreignGateway';
  if (!OPEN_SENT.includes(row.state as JobState)) return 'notOpen';
  let changed: JobRow;
  let detail: string | null = null;
  switch (reply.status) {
    case 'accepted':
      if (row.state === 'acknowledged') return null;
      changed = { ...row, state: 'acknowledged', acknowledged_at: at };
      break;
    case 'progress':
      // Progress keeps the job's state (a sign that it is still alive); its percent and stage are kept.
      if (reply.progress === undefined && reply.stage === undefined) return null;
      jobs.set(row.id, { ...row, progress: reply.progress ?? row.progress, stage: reply.stage ?? row.stage });
      return null;
    case 'ok':
      changed = {
        ...row,
        state: 'succeeded',
        finished_at: at,
        reply: JSON.stringify(reply),
        acknowledged_at: row.acknowledged_at ?? at,
      };
      break;
    case 'error':
      detail = (reply.error ?? 'failed').slice(0, 200);
      changed = {
        ...row,
        state: 'failed',
        finished_at: at,
        reply: JSON.stringify(reply),
        error: detail,
        stage: reply.stage ?? row.stage,
      };
      break;
  }
  jobs.set(changed.id, changed);
  events.push({ job_id: changed.id, state: changed.state, at, detail });
  return changed;
}

/** `add(sn, reply)` resolves with the reply's outcome once its group is committed. */
export function replyCommitter(db: Db, now: () => number) {
  const group = new GroupCommit<{ sn: string; reply: ReplyMessage }, ReplyOutcome>((items) =>
    db.transaction().execute(async (trx) => {
      const at = now();
      const read = await jobsByIds(trx, [...new Set(items.map((i) => i.reply.id))]);
      const before = new Map(read.map((r) => [r.id, r]));
      const jobs = new Map(before);
      const events: JobEventRow[] = [];
      const out = items.map(({ sn, reply }) => applyReply(jobs, events, sn, reply, at));
      const changes: JobChange[] = [];
      for (const [id, r] of jobs) {
        const was = before.get(id)!;
        if (r === was) continue;
        changes.push({
          id,
          gatewaySn: was.gateway_sn,
          expect: was.state,
          state: r.state,
          acknowledgedAt: r.acknowledged_at === null ? null : Number(r.acknowledged_at),
          finishedAt: r.finished_at === null ? null : Number(r.finished_at),
          reply: r.reply,
          error: r.error,
          progress: r.progress,
          stage: r.stage,
        });
      }
      const applied = await applyChanges(trx, changes);
      await insertEvents(
        trx,
        events.filter((e) => applied.has(e.job_id)),
      );
      return out.map((o) => (o !== null && typeof o === 'object' && !applied.has(o.id) ? 'notOpen' : o));
    }),
  );
  return { add: (sn: string, reply: ReplyMessage) => group.add({ sn, reply }), idle: () => group.idle() };
}
