/**
 * The command channel: every command to a gateway or one of its devices is a job stored in the
 * database with its states, sent over `sf/gw/{sn}/down/cmd` and settled by the gateway's reply on
 * `sf/gw/{sn}/up/reply` (the reply echoes the job id). Modules use only this interface.
 *
 *   queued → sent → acknowledged → succeeded | failed
 *   queued → expired            (the gateway stayed offline past the job's expiry)
 *   queued → cancelled          (cancelled before it was sent)
 *   sent | acknowledged → timed_out (no final reply within the job's timeout)
 */
import type { CommandMessage, ReplyMessage } from '@sunfleet/contracts';

export const JOB_STATES = ['queued', 'sent', 'acknowledged', 'succeeded', 'failed', 'timed_out', 'cancelled', 'expired'] as const;
export type JobState = (typeof JOB_STATES)[number];
export const FINAL_STATES: ReadonlySet<JobState> = new Set(['succeeded', 'failed', 'timed_out', 'cancelled', 'expired']);

/** What goes to the gateway, without the envelope the channel adds (`v`, `id`, `ts`). */
export type CommandBody = Omit<CommandMessage, 'v' | 'id' | 'ts'>;

export interface SubmitCommand {
  gatewaySn: string;
  /** The device the command is about; absent for the gateway itself. */
  deviceSn?: string;
  body: CommandBody;
  /** The user who asked, for the audit record. */
  requestedBy: number;
  /** Jobs of one batch share this id. */
  batchId?: string;
  /** From sending to the final reply (default from configuration). */
  timeoutMs?: number;
  /** How long a job may wait for an offline gateway before it expires (default from configuration). */
  expiresInMs?: number;
}

export interface CommandJob {
  id: string;
  gatewaySn: string;
  deviceSn: string | null;
  batchId: string | null;
  state: JobState;
  body: CommandBody;
  /** The gateway's final reply (blocks of a read, text of a debug). */
  reply: ReplyMessage | null;
  /** The device's reason for a failure, or the channel's (timed out, expired). */
  error: string | null;
  requestedBy: number;
  /** The percent and stage the device last reported while it ran (long commands: an upgrade). */
  progress: number | null;
  stage: string | null;
  createdAt: number;
  sentAt: number | null;
  finishedAt: number | null;
}

/**
 * A job the store refused because an open job excludes it: another power command (boot,
 * shutdown) of the device is still open.
 */
export class CommandConflict extends Error {
  constructor(readonly command: SubmitCommand) {
    super(`an open ${command.body.type} job of ${command.deviceSn ?? command.gatewaySn} excludes this one`);
  }
}

export interface CommandChannel {
  /**
   * Store the job (queued) and send it at once when the gateway is online. Rejects with
   * `CommandConflict` when another power command of the device is open (checked by the store,
   * so two submits at once cannot both pass).
   */
  submit(command: SubmitCommand): Promise<CommandJob>;
  /** The job once it is final, or as it stands after `maxWaitMs`. */
  settle(jobId: string, maxWaitMs?: number): Promise<CommandJob>;
  /** submit, then settle. */
  run(command: SubmitCommand, maxWaitMs?: number): Promise<CommandJob>;
  /** Cancel a job that has not been sent; a job already sent is returned unchanged. */
  cancel(jobId: string, by: number): Promise<CommandJob>;
  get(jobId: string): Promise<CommandJob | undefined>;
  /**
   * Whether the store has the gateway online: a call that needs the answer now (a read, a debug,
   * power on/off) answers 1001 when it is not, instead of leaving a job to wait for it.
   */
  isOnline(gatewaySn: string): Promise<boolean>;
}
