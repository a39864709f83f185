/**
 * What the modules read of stored command jobs, through this folder and never its SQL: jobs (not
 * rows), a job's steps, and the view of a job the API answers (`commandsApi`). The channel
 * (`channel.ts`) submits, settles and cancels them.
 */
import type { commandsApi, DataOf } from '@sunfleet/contracts';
import { iso } from '../time/index.ts';
import type { CommandJob } from './channel.ts';
import * as repo from './jobs.repo.ts';

type Tx = Parameters<typeof repo.jobEvents>[0];
export type JobView = DataOf<typeof commandsApi.inverterBoot>;
export type DebugView = DataOf<typeof commandsApi.inverterDebugReply>;

/** A job as the API shows it: the device's SN (the gateway's for a gateway job), states and times. */
export function jobView(job: CommandJob): JobView {
  return {
    jobId: job.id,
    sn: job.deviceSn ?? job.gatewaySn,
    gatewaySn: job.gatewaySn,
    type: job.body.type,
    state: job.state,
    error: job.error,
    requestedAt: new Date(job.createdAt).toISOString(),
    sentAt: iso(job.sentAt),
    finishedAt: iso(job.finishedAt),
  };
}

/** A debug job as the API shows it: the code sent and the text that came back (null until then). */
export function debugView(job: CommandJob): DebugView {
  return { ...jobView(job), code: job.body.text ?? '', text: job.reply?.text ?? null };
}

/** The device's newest job of one of `types` (only an open one with `openOnly`). */
export async function latestDeviceJob(
  db: Tx,
  deviceSn: string,
  types: readonly string[],
  opts: { openOnly?: boolean } = {},
): Promise<CommandJob | undefined> {
  const row = await repo.latestDeviceJob(db, deviceSn, types, opts);
  return row && repo.toJob(row);
}

/** The gateway's own newest job of `type` (not one of its devices'). */
export async function latestGatewayJob(db: Tx, gatewaySn: string, type: string): Promise<CommandJob | undefined> {
  const row = await repo.latestGatewayJob(db, gatewaySn, type);
  return row && repo.toJob(row);
}

/** The jobs of a batch the account asked for, oldest first. */
export async function batchJobs(db: Tx, batchId: string, requestedBy: number): Promise<CommandJob[]> {
  return (await repo.batchJobsOf(db, batchId, requestedBy)).map(repo.toJob);
}

/** A job's state changes, oldest first. */
export const jobSteps = (db: Tx, jobId: string) => repo.jobEvents(db, jobId);
