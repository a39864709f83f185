/**
 * Power and diagnostics over the command channel: inverter boot and shutdown, inverter and
 * gateway debug, gateway restart (one, several, a batch) and the gateway setting switch.
 *
 * Rules:
 * - the object first, through the resolver: an inverter the caller cannot see is 600, a gateway
 *   305; one they see but may not operate (a plant visitor, a read-only account) is 2;
 * - boot, shutdown and debug need the answer now: an offline gateway is 1001 and nothing is
 *   stored; no final answer within the timeout is 1;
 * - a power command while the inverter is upgrading, or while another power command of it is
 *   still open, is 1005; the store holds one open power job per device (a unique index), so of
 *   two requests at once one is stored and the other is 1005;
 * - a restart batch is checked whole before anything is stored: one gateway the caller may not
 *   operate refuses it all; an offline gateway's restart waits for it until the job expires;
 * - every power command, debug and restart is written to the maintenance log once its job is stored, and its
 *   entry settled when this module sees the job end (the log reads the job's end otherwise);
 * - a restart batch is read back only by the account that asked for it (another's answers 404,
 *   like a missing one);
 * - a setting switch is validated against the setting's range (4) and waits for an offline
 *   gateway like a restart.
 */
import { randomUUID } from 'node:crypto';
import { type commandsApi, type DataOf, ErrorCode, type GatewaySettingName, gatewaySettings, limits } from '@sunfleet/contracts';
import type { Caller } from '../../access/caller.ts';
import { deviceFor, gatewayFor } from '../../access/resolve.ts';
import { CommandConflict, type CommandJob } from '../../commands/channel.ts';
import { batchJobs, type DebugView, debugView, type JobView, jobView, latestDeviceJob } from '../../commands/reads.ts';
import type { Deps } from '../../deps.ts';
import { fail } from '../../http/errors.ts';
import { devicesChanged } from '../devices/list.ts';
import { finishMaintenance, recordMaintenance, resultOfJob } from '../loggers/maintenance.repo.ts';
import { gatewaySnById } from './operations.repo.ts';

type Ops = Pick<Deps, 'db' | 'commands' | 'config'>;

/** Settle the job's maintenance entry once the job has ended (what came back goes into its detail). */
async function settleEntry(deps: Ops, job: CommandJob) {
  const result = resultOfJob(job.state);
  if (!result) return;
  const detail = job.body.type === 'debug' ? { text: job.reply?.text ?? null, error: job.error } : { error: job.error };
  await finishMaintenance(deps.db, job.id, result, detail);
}

/** The SN of the gateway an inverter the caller may operate is behind. */
async function inverterToOperate(deps: Ops, caller: Caller, sn: string) {
  const device = await deviceFor(deps.db, caller, { sn }, { kind: 'inverter', need: 'operate' });
  return { device, gatewaySn: await gatewaySnById(deps.db, device.gatewayId) };
}

/** Inverter power on (`on`) or off: waits for the device's answer. */
export async function powerInverter(deps: Ops, caller: Caller, sn: string, on: boolean): Promise<JobView> {
  const { device, gatewaySn } = await inverterToOperate(deps, caller, sn);
  if (device.status === 'upgrading') fail(ErrorCode.stateBlocksAction);
  if (await latestDeviceJob(deps.db, device.sn, ['boot', 'shutdown'], { openOnly: true })) fail(ErrorCode.stateBlocksAction);
  if (!(await deps.commands.isOnline(gatewaySn))) fail(ErrorCode.deviceOffline);
  const submitted = await deps.commands
    .submit({
      gatewaySn,
      deviceSn: device.sn,
      body: { type: on ? 'boot' : 'shutdown', device: device.sn },
      requestedBy: caller.user.id,
    })
    .catch((err: unknown) => (err instanceof CommandConflict ? fail(ErrorCode.stateBlocksAction) : Promise.reject(err)));
  await recordMaintenance(deps.db, {
    kind: 'power',
    deviceSn: device.sn,
    gatewaySn,
    plantId: device.plantId,
    userId: caller.user.id,
    jobId: submitted.id,
    detail: { power: on ? 'on' : 'off' },
  });
  const job = await deps.commands.settle(submitted.id);
  await settleEntry(deps, job);
  // Powered on or off: the device lists' cached counts and orders by state start afresh.
  if (job.state === 'succeeded') devicesChanged();
  if (job.state === 'timed_out') fail(ErrorCode.timeout);
  return jobView(job);
}

/** Send a debug code to an inverter; its reply is read with `inverterDebugReply`. */
export async function debugInverter(deps: Ops, caller: Caller, sn: string, code: string): Promise<DebugView> {
  const { device, gatewaySn } = await inverterToOperate(deps, caller, sn);
  if (device.status === 'upgrading') fail(ErrorCode.stateBlocksAction);
  if (!(await deps.commands.isOnline(gatewaySn))) fail(ErrorCode.deviceOffline);
  const job = await deps.commands.submit({
    gatewaySn,
    deviceSn: device.sn,
    body: { type: 'debug', device: device.sn, text: code },
    requestedBy: caller.user.id,
  });
  await recordMaintenance(deps.db, {
    kind: 'debug',
    deviceSn: device.sn,
    gatewaySn,
    plantId: device.plantId,
    userId: caller.user.id,
    jobId: job.id,
    detail: { code },
  });
  return debugView(job);
}

/** An inverter's debug job (the latest without `jobId`), after waiting up to `waitMs` for it to finish; 404 when none. */
export async function inverterDebugReply(
  deps: Ops,
  caller: Caller,
  sn: string,
  jobId: string | undefined,
  waitMs: number,
): Promise<DebugView> {
  const device = await deviceFor(deps.db, caller, { sn }, { kind: 'inverter', need: 'operate' });
  let job: CommandJob | undefined;
  if (jobId === undefined) {
    job = await latestDeviceJob(deps.db, device.sn, ['debug']);
  } else {
    job = await deps.commands.get(jobId);
    // Another device's job answers as missing.
    if (job && (job.deviceSn !== device.sn || job.body.type !== 'debug')) job = undefined;
  }
  if (!job) return fail(ErrorCode.notFound);
  if (waitMs > 0) job = await deps.commands.settle(job.id, waitMs);
  await settleEntry(deps, job);
  return debugView(job);
}

/** Send a debug code to a gateway and wait for its diagnostic text. */
export async function debugGateway(deps: Ops, caller: Caller, sn: string, code: string): Promise<DebugView> {
  const gateway = await gatewayFor(deps.db, caller, { sn }, { need: 'operate' });
  if (!(await deps.commands.isOnline(gateway.sn))) fail(ErrorCode.deviceOffline);
  const submitted = await deps.commands.submit({
    gatewaySn: gateway.sn,
    body: { type: 'debug', text: code },
    requestedBy: caller.user.id,
  });
  await recordMaintenance(deps.db, {
    kind: 'debug',
    deviceSn: gateway.sn,
    gatewaySn: gateway.sn,
    plantId: gateway.plantId,
    userId: caller.user.id,
    jobId: submitted.id,
    detail: { code },
  });
  const job = await deps.commands.settle(submitted.id);
  await settleEntry(deps, job);
  if (job.state === 'timed_out') fail(ErrorCode.timeout);
  return debugView(job);
}

/**
 * Restart gateways as one batch: every SN is resolved first (305 for one the caller cannot see,
 * 2 for one they may not operate), and only then is a job stored for each.
 */
export async function restartGateways(
  deps: Ops,
  caller: Caller,
  sns: readonly string[],
): Promise<DataOf<typeof commandsApi.restartGateways>> {
  const unique = [...new Set(sns)];
  if (unique.length === 0 || unique.length > limits.batchRestartMax)
    fail(ErrorCode.validation, `sns: 1 to ${limits.batchRestartMax} gateway SNs`);
  const gateways = [];
  for (const sn of unique) gateways.push(await gatewayFor(deps.db, caller, { sn }, { need: 'operate' }));
  const batchId = randomUUID();
  // Submitted together: the channel stores them in one transaction.
  const jobs: CommandJob[] = await Promise.all(
    gateways.map((g) =>
      deps.commands.submit({ gatewaySn: g.sn, batchId, body: { type: 'restart' }, requestedBy: caller.user.id }),
    ),
  );
  for (const [i, job] of jobs.entries())
    await recordMaintenance(deps.db, {
      kind: 'restart',
      deviceSn: job.gatewaySn,
      gatewaySn: job.gatewaySn,
      plantId: gateways[i]!.plantId,
      userId: caller.user.id,
      jobId: job.id,
      detail: { batchId },
    });
  return { batchId, jobs: jobs.map(jobView) };
}

/** A restart batch as it stands: its jobs, when the caller asked for it; 404 otherwise. */
export async function restartProgress(
  deps: Ops,
  caller: Caller,
  batchId: string,
): Promise<DataOf<typeof commandsApi.restartProgress>> {
  const jobs = (await batchJobs(deps.db, batchId, caller.user.id)).filter((j) => j.body.type === 'restart');
  if (jobs.length === 0) return fail(ErrorCode.notFound);
  for (const job of jobs) await settleEntry(deps, job);
  return { batchId, jobs: jobs.map(jobView) };
}

/** The SNs of `gateway/{gsns}/restart`: one, or several separated by commas. */
export function parseGatewaySns(gsns: string): string[] {
  const sns = gsns
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  if (sns.length === 0 || sns.some((s) => !/^[A-Za-z0-9_-]{1,32}$/.test(s)))
    fail(ErrorCode.validation, 'gsns: gateway SNs separated by commas (A–Z a–z 0–9 _ -, at most 32 each)');
  return sns;
}

/** How long the setting switch waits for the gateway's answer before it returns the job as it stands. */
const SWITCH_WAIT_MS = 5000;

/** Switch one of the gateway's own settings (validated against its range first). */
export async function switchGatewaySetting(
  deps: Ops,
  caller: Caller,
  sn: string,
  name: GatewaySettingName,
  value: number,
): Promise<JobView> {
  const range = gatewaySettings[name];
  if (value < range.min || value > range.max)
    fail(ErrorCode.validation, `value: ${name} must be within ${range.min}..${range.max}`);
  const gateway = await gatewayFor(deps.db, caller, { sn }, { need: 'operate' });
  const command = {
    gatewaySn: gateway.sn,
    body: { type: 'settings', setting: { name, value } },
    requestedBy: caller.user.id,
  } as const;
  // An offline gateway gets it when it comes back: nothing to wait for now.
  const job = (await deps.commands.isOnline(gateway.sn))
    ? await deps.commands.run(command, Math.min(SWITCH_WAIT_MS, deps.config.commands.timeoutMs))
    : await deps.commands.submit(command);
  return jobView(job);
}
