/**
 * A setting group over the command channel: read its registers and decode them (the protocol's
 * `settingGroupReads` and `decodeSettingGroup`), send the register writes its values were
 * checked into (`validateSettingValues`). A command that does not succeed becomes a `DeviceError` with the catalogue code that
 * says why: 1001 the gateway is offline (or the job expired waiting for it), 1 no final answer in
 * time, 1008 the device refused (its reason kept).
 */
import { ErrorCode, hexToRegisters, registersToHex } from '@sunfleet/contracts';
import { decodeSettingGroup, type RegisterWrite, settingGroupReads } from '@sunfleet/protocols';
import type { CommandBody, CommandChannel, CommandJob } from '../../commands/channel.ts';
import type { Db } from '../../db/index.ts';
import type { ReadValues } from './fields.ts';
import { deviceTarget } from './settings.repo.ts';

/** Longest wait for one command's final state; the channel's own timeout is normally shorter. */
export const COMMAND_WAIT_MS = 60_000;

export class DeviceError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** The command was withdrawn before it was sent (a batch's cancel). */
    readonly withdrawn = false,
  ) {
    super(message);
  }
}

/** The device a command goes to: its gateway and whether that is connected now. */
export interface Target {
  deviceId: number;
  sn: string;
  unit: number | null;
  gatewaySn: string;
  online: boolean;
  protocolId: string;
}

export async function targetOf(db: Db, deviceId: number): Promise<Target> {
  const row = await deviceTarget(db, deviceId);
  return {
    deviceId: row.id,
    sn: row.sn,
    unit: row.unit,
    gatewaySn: row.gatewaySn,
    online: Number(row.online) === 1,
    protocolId: row.protocol_id,
  };
}

/** Called with each command job as it is submitted (a batch records it so that cancel can reach it). */
export type OnSubmit = (job: CommandJob) => Promise<void> | void;

export interface Io {
  channel: CommandChannel | undefined;
  requestedBy: number;
  batchId?: string;
  onSubmit?: OnSubmit;
}

async function run(io: Io, target: Target, body: CommandBody): Promise<CommandJob> {
  if (!io.channel || !target.online) throw new DeviceError(ErrorCode.deviceOffline, 'the gateway is offline');
  const submitted = await io.channel.submit({
    gatewaySn: target.gatewaySn,
    deviceSn: target.sn,
    body,
    requestedBy: io.requestedBy,
    ...(io.batchId ? { batchId: io.batchId } : {}),
  });
  await io.onSubmit?.(submitted);
  let job = await io.channel.settle(submitted.id, COMMAND_WAIT_MS);
  switch (job.state) {
    case 'succeeded':
      return job;
    case 'failed':
      throw new DeviceError(ErrorCode.deviceRefused, job.error ?? 'refused');
    case 'expired':
      throw new DeviceError(ErrorCode.deviceOffline, 'the gateway stayed offline');
    case 'cancelled':
      throw new DeviceError(ErrorCode.timeout, 'cancelled before it was sent', true);
    case 'timed_out':
      throw new DeviceError(ErrorCode.timeout, 'no answer in time');
    default:
      // Still waiting after the longest wait: withdraw it if it was never sent.
      job = await io.channel.cancel(job.id, io.requestedBy);
      throw new DeviceError(ErrorCode.timeout, job.state === 'cancelled' ? 'not sent in time' : 'no answer in time');
  }
}

const address = (target: Target) => (target.unit !== null ? { device: target.sn, unit: target.unit } : { device: target.sn });

/** Read the groups' registers in one command; the values of their fields (null where the device has none). */
export async function readGroups(io: Io, target: Target, groups: readonly string[]): Promise<Record<string, ReadValues>> {
  const ranges = settingGroupReads(target.protocolId, groups);
  if (!ranges) throw new Error(`protocol "${target.protocolId}" lacks a setting group of ${groups.join(', ')}`);
  const job = await run(io, target, {
    type: 'read',
    ...address(target),
    reads: ranges.map((r) => ({ fc: r.functionCode, addr: r.address, count: r.count })),
  });
  const blocks = (job.reply?.blocks ?? []).map((b) => ({
    functionCode: b.fc,
    address: b.addr,
    registers: hexToRegisters(b.regs),
  }));
  return Object.fromEntries(groups.map((group) => [group, decodeSettingGroup(target.protocolId, group, blocks)!]));
}

export async function readGroup(io: Io, target: Target, group: string): Promise<ReadValues> {
  return (await readGroups(io, target, [group]))[group]!;
}

/** Send the register writes of checked values. */
export async function writeGroup(io: Io, target: Target, writes: readonly RegisterWrite[]): Promise<void> {
  await run(io, target, {
    type: 'write',
    ...address(target),
    writes: writes.map((w) => ({ fc: w.functionCode, addr: w.address, regs: registersToHex(w.registers) })),
  });
}
