/**
 * Whether an inverter is powered off, for the state its badge shows (`deviceState` of the
 * contracts): what the device last reported (its running state 'Off'), unless a power command
 * that succeeded after that reading says otherwise (a shutdown: off; a boot: on) — the reading
 * that follows a command is the device's word again.
 */
import { type DeviceStateName, deviceState } from '@sunfleet/contracts';
import { latestDeviceJob } from '../../commands/jobs.repo.ts';
import type { Db } from '../../db/index.ts';
import type { DeviceStatus } from '../../db/schema.ts';
import { num, planOf, type Values } from './fields.ts';

export interface PowerCommand {
  type: string;
  state: string;
  finishedAt: number | null;
}

/** The reading's word: true when its running state is the protocol's 'Off', null without one. */
export function reportsOff(protocolId: string, values: Values): boolean | null {
  const field = planOf(protocolId)?.field('runningState');
  const value = num(values.runningState);
  if (!field?.enum || value === null) return null;
  return field.enum[value]?.en === 'Off';
}

/** Powered off by the reading of `readAt`, or by a power command that succeeded after it. */
export function poweredOff(
  protocolId: string,
  values: Values,
  readAt: number | null,
  command: PowerCommand | undefined,
): boolean | null {
  if (command?.state === 'succeeded' && command.finishedAt !== null && (readAt === null || command.finishedAt > readAt))
    return command.type === 'shutdown';
  return reportsOff(protocolId, values);
}

/** The inverter's last power command (boot or shutdown), if any. */
export async function lastPowerCommand(db: Db, sn: string): Promise<PowerCommand | undefined> {
  const row = await latestDeviceJob(db, sn, ['boot', 'shutdown']);
  return row && { type: row.type, state: row.state, finishedAt: row.finished_at === null ? null : Number(row.finished_at) };
}

/** The state shown for an inverter of `status` with this reading and last power command. */
export function inverterState(
  status: DeviceStatus,
  protocolId: string,
  values: Values,
  readAt: number | null,
  command?: PowerCommand,
): DeviceStateName {
  return deviceState(status, poweredOff(protocolId, values, readAt, command));
}
