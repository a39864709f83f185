/**
 * A batch: one group's values to up to 200 devices, one audited job per device. The devices may
 * be of several families that have a group of that name (the single- and three-phase hybrid
 * families share theirs): each device's values are checked against its own protocol's fields,
 * and each job is recorded under its device's family. Everything is checked before anything is
 * recorded or sent: a device the caller cannot see (600) or may not operate (2), one whose
 * protocol does not support the group (601), or a value one of the devices' fields refuses (4)
 * refuses the whole batch. Then the jobs run a few at a time; a
 * device whose gateway is offline fails with 1001 and the others go on. Cancel withdraws the
 * jobs not started and the commands still waiting to be sent; what was sent finishes.
 */
import { randomUUID } from 'node:crypto';
import { ErrorCode, settingFamily } from '@sunfleet/contracts';
import type { RegisterWrite } from '@sunfleet/protocols';
import type { FastifyBaseLogger } from 'fastify';
import type { Caller } from '../../access/caller.ts';
import { fail } from '../../http/errors.ts';
import { targetOf } from './device-io.ts';
import type { SettingValue } from './fields.ts';
import { type JobContext, runJob } from './jobs.ts';
import {
  type Batch,
  batchJobs,
  cancelQueued,
  claimJob,
  finishBatch,
  getBatch,
  insertBatch,
  type NewJob,
  toBatch,
  updateJob,
} from './settings.repo.ts';
import { type Checked, checkValues, recordSettingEntry, type Supported, supportedDevice } from './settings.service.ts';

/** Jobs of one batch in flight at once. */
export const BATCH_CONCURRENCY = 8;

export interface BatchContext extends JobContext {
  log: FastifyBaseLogger;
}

export interface BatchInput {
  family: string;
  group: string;
  sns: string[];
  values: Record<string, SettingValue>;
}

async function snapshot(ctx: JobContext, id: string): Promise<Batch> {
  const batch = await getBatch(ctx.db, id);
  if (!batch) return fail(ErrorCode.notFound);
  return toBatch(batch, await batchJobs(ctx.db, id));
}

export async function startBatch(ctx: BatchContext, caller: Caller, input: BatchInput): Promise<Batch> {
  const family = settingFamily(input.family);
  if (!family?.groups.includes(input.group))
    fail(ErrorCode.validation, `group: ${input.family}/${input.group} is not a setting group`);
  const devices: Supported[] = [];
  for (const sn of input.sns) devices.push(await supportedDevice(ctx, caller, { sn }, null, [input.group], 'operate'));
  const checked = new Map<string, Checked>();
  for (const d of devices) {
    const protocolId = d.device.protocolId;
    if (!checked.has(protocolId)) checked.set(protocolId, checkValues(protocolId, input.group, input.values));
  }
  const batchId = randomUUID();
  const items: NewJob[] = devices.map((d, position) => ({
    id: randomUUID(),
    batchId,
    position,
    deviceId: d.device.id,
    sn: d.device.sn,
    family: d.family.id,
    group: input.group,
    kind: 'write',
    state: 'queued',
    requested: checked.get(d.device.protocolId)!.values,
    requestedBy: caller.user.id,
  }));
  await insertBatch(
    ctx.db,
    { id: batchId, family: input.family, group: input.group, requested: items[0]!.requested, requestedBy: caller.user.id },
    items,
  );
  for (const [i, d] of devices.entries()) {
    const item = items[i]!;
    const gatewaySn = (await targetOf(ctx.db, d.device.id)).gatewaySn;
    await recordSettingEntry(ctx.db, d, gatewaySn, caller.user.id, { ...item, batchId });
  }
  const writes = devices.map((d) => checked.get(d.device.protocolId)!.writes);
  runBatch(ctx, batchId, items, writes, caller.user.id).catch((err) => ctx.log.error({ err, batchId }, 'setting batch failed'));
  return snapshot(ctx, batchId);
}

async function runBatch(ctx: BatchContext, batchId: string, items: NewJob[], writes: RegisterWrite[][], by: number) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      const item = items[i]!;
      try {
        // Claimed only while queued: a cancelled job is never started.
        const claim = await claimJob(ctx.db, item.id, item.deviceId);
        if (claim === 'gone') continue;
        if (claim === 'busy') {
          await updateJob(ctx.db, item.id, {
            state: 'failed',
            error: 'another setting change of this device was running',
            errorCode: ErrorCode.settingBusy,
          });
          continue;
        }
        const target = await targetOf(ctx.db, item.deviceId);
        if (!ctx.channel || !target.online) {
          await updateJob(ctx.db, item.id, {
            state: 'failed',
            error: 'read before: the gateway is offline',
            errorCode: ErrorCode.deviceOffline,
          });
          continue;
        }
        await runJob(ctx, {
          jobId: item.id,
          target,
          group: item.group,
          requested: item.requested,
          writes: writes[i]!,
          requestedBy: by,
          batchId,
        });
      } catch (err) {
        ctx.log.error({ err, jobId: item.id }, 'setting job failed');
        await updateJob(ctx.db, item.id, { state: 'failed', error: 'internal error', errorCode: ErrorCode.serverError }).catch(
          () => {},
        );
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(BATCH_CONCURRENCY, items.length) }, worker));
  await finishBatch(ctx.db, batchId);
}

/** A batch of the caller's own (404 for any other id). */
async function ownBatch(ctx: JobContext, caller: Caller, id: string) {
  const batch = await getBatch(ctx.db, id);
  if (!batch || batch.requested_by !== caller.user.id) return fail(ErrorCode.notFound);
  return batch;
}

export async function getSettingBatch(ctx: JobContext, caller: Caller, id: string): Promise<Batch> {
  await ownBatch(ctx, caller, id);
  return snapshot(ctx, id);
}

export async function cancelBatch(ctx: JobContext, caller: Caller, id: string): Promise<Batch> {
  await ownBatch(ctx, caller, id);
  const started = await cancelQueued(ctx.db, id);
  // A started job whose first command still waits for its gateway is withdrawn with it.
  for (const job of started) if (job.commandJobId && ctx.channel) await ctx.channel.cancel(job.commandJobId, caller.user.id);
  return snapshot(ctx, id);
}
