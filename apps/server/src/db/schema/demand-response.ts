// Row types of the store for demand response (OpenADR 3 VEN): programmes, enrolments, events,
// opt-outs, dispatches and the VTN outbox and inbox. Times are epoch milliseconds; booleans are 0/1
// (portable).
import type { Generated } from 'kysely';

// 020_demand_response: the OpenADR 3 VEN and the enrolment area.
export interface DrProgramsTable {
  /** The VTN's programme id. */
  id: string;
  name: string;
  /** The programme as the VTN sent it (normalised JSON). */
  body: string;
  seen_at: number;
  deleted_at: number | null;
}
export type DrEnrollmentState = 'invited' | 'pending' | 'accepted' | 'rejected' | 'unenrolled';
export interface DrEnrollmentsTable {
  id: Generated<number>;
  user_id: number;
  program_id: string;
  program_name: string;
  email: string;
  first_name: string;
  last_name: string;
  service_country: string | null;
  service_region: string | null;
  service_locality: string | null;
  service_extended: string | null;
  service_street: string | null;
  service_postal: string | null;
  mailing_country: string | null;
  mailing_region: string | null;
  mailing_locality: string | null;
  mailing_extended: string | null;
  mailing_street: string | null;
  mailing_postal: string | null;
  source_account: string;
  utility_account: string;
  station_id: number | null;
  state: DrEnrollmentState;
  terms_accepted_at: number;
  created_at: number;
  updated_at: number;
}
export interface DrEnrollmentDevicesTable {
  id: Generated<number>;
  enrollment_id: number;
  device_id: number;
  sn: string;
  manufacturer: string;
  model: string;
  install_date: string | null;
  charge_w: number;
  discharge_w: number;
  storage_wh: number;
  /** The VTN's resource id once registered. */
  resource_id: string | null;
  added_at: number;
  removed_at: number | null;
}
export interface DrEventsTable {
  id: Generated<number>;
  vtn_id: string;
  program_id: string;
  name: string | null;
  /** The event as the VTN sent it (normalised JSON). */
  body: string;
  start_ms: number | null;
  end_ms: number | null;
  modified: string | null;
  /** The VTN deleted it or shrank it to nothing. */
  cancelled_at: number | null;
  received_at: number;
  updated_at: number;
  reported_at: number | null;
  /** The VTN object's creation time as it sent it: with `vtn_id` the object's key (ids may be re-used). */
  vtn_created: Generated<string>;
  /** Why the VEN does not act on it (targets, programme); null when it applies. */
  ignored_reason: string | null;
  /** Why it ended before its window (the VTN no longer has it); null otherwise. */
  ended_reason: string | null;
  /** JSON array of the device SNs its targets limit it to; null: every enrolled device. */
  resource_scope: string | null;
}
export interface DrOptoutsTable {
  event_id: number;
  enrollment_id: number;
  user_id: number;
  at: number;
}
export type DrDispatchAction = 'discharge' | 'charge' | 'hold' | 'restore';
export type DrDispatchState = 'planned' | 'sending' | 'succeeded' | 'failed' | 'skipped';
export interface DrDispatchesTable {
  id: Generated<number>;
  event_id: number;
  enrollment_device_id: number;
  device_id: number;
  device_sn: string;
  interval_id: number;
  start_ms: number;
  end_ms: number;
  action: DrDispatchAction;
  target_w: number;
  setting_group: string | null;
  /** JSON: the setting values written. */
  sent_values: string | null;
  /** JSON: the group's values read before the first write (what a restore writes back). */
  previous_values: string | null;
  job_id: string | null;
  state: DrDispatchState;
  reason: string | null;
  /** A process working on it holds it until then. */
  claimed_until: number | null;
  created_at: number;
  updated_at: number;
}
export interface DrOutboxTable {
  id: Generated<number>;
  kind: 'report';
  dedupe_key: string;
  body: string;
  attempts: Generated<number>;
  next_at: number;
  last_error: string | null;
  sent_at: number | null;
  created_at: number;
  /** The VTN event object the report answers (id and creation time). */
  event_vtn_id: string | null;
  event_created: string | null;
  /** Given up for good: refused by the VTN (4xx), its event gone, or retried past the cap. */
  dead_at: number | null;
}
export interface DrInboxTable {
  id: Generated<number>;
  object_type: string;
  operation: string;
  object_id: string | null;
  body: string;
  /** 1: came with the subscription's bearer token; 0: re-read from the VTN before use. */
  verified: number;
  attempts: Generated<number>;
  next_at: number;
  last_error: string | null;
  processed_at: number | null;
  received_at: number;
}
export interface DrStateTable {
  name: string;
  value: string;
  holder: string | null;
  expires_at: number | null;
  updated_at: number;
}
