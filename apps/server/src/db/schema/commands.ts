// Row types of the store for commands sent to gateways and the setting batches built on them. Times
// are epoch milliseconds; booleans are 0/1 (portable).
import type { Generated } from 'kysely';

/** 010: a command to a gateway or one of its devices, and its audit record (commands/). */
export interface CommandJobsTable {
  id: string;
  gateway_sn: string;
  device_sn: string | null;
  batch_id: string | null;
  /** The command's `type` (boot, shutdown, debug, restart, settings, read, write, upgrade). */
  type: string;
  /** queued, sent, acknowledged, succeeded, failed, timed_out, cancelled, expired. */
  state: string;
  /** JSON: the command without its envelope. */
  body: string;
  /** JSON: the gateway's final reply. */
  reply: string | null;
  error: string | null;
  requested_by: number;
  timeout_ms: number;
  /** A queued job not sent by then expires. */
  expires_at: number;
  created_at: number;
  /** First sent; the timeout runs from here. */
  sent_at: number | null;
  /** Last sent (a resend keeps the id). */
  last_sent_at: number | null;
  sends: Generated<number>;
  acknowledged_at: number | null;
  finished_at: number | null;
  /** 014: the percent a device last reported for a long command (an upgrade), and its stage. */
  progress: number | null;
  stage: string | null;
}

/** 010: each state change of a command job. */
export interface CommandJobEventsTable {
  id: Generated<number>;
  job_id: string;
  state: string;
  at: number;
  detail: string | null;
}

/** 011: one remote-setting batch: one group's values to many devices. */
export interface SettingBatchesTable {
  id: string;
  family: string;
  group_name: string;
  /** JSON field key → value. */
  requested: string;
  requested_by: number;
  state: 'running' | 'finished' | 'cancelled';
  total: number;
  created_at: number;
  finished_at: number | null;
}

/** 011: one audited write to a device's setting group (alone, a revert, or one of a batch). */
export interface SettingChangesTable {
  id: string;
  batch_id: string | null;
  position: Generated<number>;
  device_id: number;
  device_sn: string;
  family: string;
  group_name: string;
  kind: 'write' | 'revert';
  revert_of: string | null;
  state: 'queued' | 'reading' | 'writing' | 'verifying' | 'succeeded' | 'failed' | 'cancelled';
  /** JSON field key → value: requested, read before, read back after. */
  requested: string;
  before_values: string | null;
  after_values: string | null;
  error: string | null;
  error_code: number | null;
  /** The command job in flight (a batch's cancel reaches it through the channel). */
  command_job_id: string | null;
  requested_by: number;
  created_at: number;
  /** Its last step (a job that stops moving was interrupted: housekeeping fails it). */
  updated_at: number;
  finished_at: number | null;
}
