/**
 * The audited write: read the group (before), write the requested values, read the group back
 * (after). Each step is recorded as it happens, so a job can be watched while it runs and
 * history shows where one stopped. A value read back that differs from the one requested fails
 * the job with the differing fields named; a refused or unanswered write still reads back, so
 * the record shows what the device holds.
 */
import type { RegisterWrite } from '@sunfleet/protocols';
import type { CommandChannel } from '../../commands/channel.ts';
import type { Db } from '../../db/index.ts';
import { DeviceError, type Io, readGroup, type Target, writeGroup } from './device-io.ts';
import { type ReadValues, type SettingValue, sameValue } from './fields.ts';
import { updateJob } from './settings.repo.ts';

export interface JobContext {
  db: Db;
  channel: CommandChannel | undefined;
}

export interface JobRun {
  jobId: string;
  target: Target;
  group: string;
  requested: Readonly<Record<string, SettingValue>>;
  /** The register writes the requested values were checked into. */
  writes: readonly RegisterWrite[];
  requestedBy: number;
  batchId?: string;
}

async function failed(db: Db, jobId: string, err: unknown, step: string, after?: ReadValues): Promise<void> {
  if (!(err instanceof DeviceError)) throw err;
  await updateJob(db, jobId, {
    state: err.withdrawn && step === 'read before' ? 'cancelled' : 'failed',
    error: `${step}: ${err.message}`,
    errorCode: err.code,
    ...(after ? { after } : {}),
  });
}

export async function runJob(ctx: JobContext, run: JobRun): Promise<void> {
  const { db } = ctx;
  const io: Io = {
    channel: ctx.channel,
    requestedBy: run.requestedBy,
    ...(run.batchId ? { batchId: run.batchId } : {}),
    onSubmit: async (job) => {
      await updateJob(db, run.jobId, { commandJobId: job.id });
    },
  };
  let before: ReadValues;
  try {
    before = await readGroup(io, run.target, run.group);
  } catch (err) {
    return failed(db, run.jobId, err, 'read before');
  }
  await updateJob(db, run.jobId, { state: 'writing', before });
  let writeError: unknown = null;
  try {
    await writeGroup(io, run.target, run.writes);
  } catch (err) {
    writeError = err;
  }
  if (writeError === null) await updateJob(db, run.jobId, { state: 'verifying' });
  let after: ReadValues;
  try {
    after = await readGroup(io, run.target, run.group);
  } catch (err) {
    return failed(db, run.jobId, writeError ?? err, writeError ? 'write' : 'read back');
  }
  if (writeError !== null) return failed(db, run.jobId, writeError, 'write', after);
  const differing = Object.keys(run.requested).filter((key) => !sameValue(run.requested[key], after[key]));
  if (differing.length > 0) {
    await updateJob(db, run.jobId, {
      state: 'failed',
      after,
      error: `read back differs: ${differing.join(', ')}`,
      errorCode: null,
      commandJobId: null,
    });
    return;
  }
  await updateJob(db, run.jobId, { state: 'succeeded', after, commandJobId: null });
}
