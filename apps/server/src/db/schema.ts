/** Row types of the store. Times are epoch milliseconds; booleans are 0/1 (portable). */
import type { companyApi } from '@sunfleet/contracts';
import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

export type AccountKind = 'sysadmin' | 'company_admin' | 'company_user' | 'end_user';

export interface UsersTable {
  id: Generated<number>;
  account: string;
  password_hash: string;
  kind: AccountKind;
  company_id: number | null;
  role_id: number | null;
  nickname: string | null;
  name: string | null;
  gender: 'male' | 'female' | null;
  phone: string | null;
  avatar: string | null;
  temperature_unit: Generated<string>;
  language: Generated<string>;
  read_only: Generated<number>;
  notify_enabled: Generated<number>;
  notify_email: string | null;
  personalized: Generated<string>;
  agent_company_id: number | null;
  enabled: Generated<number>;
  created_at: number;
  updated_at: number;
}

export interface CompaniesTable {
  id: Generated<number>;
  name: string;
  contact_name: string | null;
  email: string | null;
  phone: string | null;
  address: string | null;
  logo_url: string | null;
  icon_url: string | null;
  theme_color: string | null;
  customer_type_id: number | null;
  /** 018: the customer company that serves this one as its agent (one level: an agent has no agent). */
  agent_company_id: number | null;
  /** JSON array of permission names the company holds (its roles grant a subset). */
  permissions: Generated<string>;
  created_at: number;
  updated_at: number;
}

export interface CustomerTypesTable {
  id: Generated<number>;
  name: string;
  remark: string | null;
  permissions: Generated<string>;
  created_at: number;
  /** 018: the parent type of a subtype (one level: a subtype has no subtypes). */
  parent_id: number | null;
}

export interface CompanyRolesTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  permissions: Generated<string>;
  created_at: number;
}

export interface SessionsTable {
  id: string;
  user_id: number;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
  last_seen_at: number;
  user_agent: string | null;
  ip: string | null;
}

export interface RefreshTokensTable {
  token_hash: string;
  session_id: string;
  created_at: number;
  used_at: number | null;
}

export interface VerificationCodesTable {
  id: Generated<number>;
  account: string;
  purpose: string;
  code_hash: string;
  expires_at: number;
  attempts: Generated<number>;
  used_at: number | null;
  created_at: number;
}

export interface ThrottlesTable {
  key: string;
  window_start: number;
  count: number;
  last_at: number;
}

export interface PendingUploadsTable {
  id: Generated<number>;
  url: string;
  user_id: number;
  created_at: number;
}

export interface PlantsTable {
  id: Generated<number>;
  name: string;
  type: Generated<number>;
  capacity: Generated<number>;
  owner_user_id: number | null;
  company_id: number | null;
  timezone: Generated<string>;
  currency: string | null;
  latitude: number | null;
  longitude: number | null;
  address: string | null;
  status: Generated<string>;
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
  // 004_plants
  commissioning_date: string | null;
  valuation_method: Generated<'constant' | 'tou' | 'generation'>;
  price: number | null;
  /** JSON [{ start: 'HH:mm', end: 'HH:mm', price }]. */
  price_segments: Generated<string>;
  picture_url: string | null;
  thumbnail_url: string | null;
  alias: string | null;
  total_investment: number | null;
  contact_name: string | null;
  contact_phone: string | null;
  /** Manual income adjustment. */
  income_total: number | null;
  /** Latest values (modules/plants/summary.ts): power now, energy of `energy_day` (plant-local), total. */
  power_w: number | null;
  energy_day: string | null;
  energy_today_wh: Generated<number>;
  energy_total_wh: Generated<number>;
  last_data_at: number | null;
  /** The meter the plant's grid import/export come from; null: all its meters. */
  master_meter_id: number | null;
}

export type ShareRole = 'manager' | 'visitor';
export interface PlantSharesTable {
  plant_id: number;
  user_id: number;
  role: ShareRole;
  created_at: number;
}

export type DeviceKind = 'inverter' | 'battery' | 'meter' | 'weather';
export type DeviceStatus = 'normal' | 'offline' | 'warning' | 'fault' | 'upgrading';
export type EventLevel = 'fault' | 'warning' | 'info';

export interface GatewaysTable {
  id: Generated<number>;
  sn: string;
  /** SHA-256 of the device secret (machine-made, 256 bits: a fast hash is enough). */
  secret_hash: string;
  /** SHA-256 of the label key a user types to bind the gateway to a plant. */
  claim_key_hash: string;
  alias: string | null;
  plant_id: number | null;
  /** The customer or agent company the gateway was sold through. */
  company_id: number | null;
  sw_version: string | null;
  hw_version: string | null;
  comm_type: string | null;
  rssi: number | null;
  online: Generated<number>;
  last_online_at: number | null;
  last_seen_at: number | null;
  upload_interval_s: Generated<number>;
  /** 009: when it joined its current plant (0: all its history is the plant's). */
  bound_at: Generated<number>;
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
  /** 019: the protocol id it polls its devices with (null: none set; optional on insert). */
  protocol_id: Generated<string | null>;
}

/** 009: a device's past time in a plant it has left: [bound_at, unbound_at). */
export interface DeviceBindingsTable {
  device_id: number;
  plant_id: number;
  bound_at: number;
  unbound_at: number;
}

export interface DevicesTable {
  id: Generated<number>;
  sn: string;
  gateway_id: number;
  plant_id: number | null;
  kind: DeviceKind;
  protocol_id: string;
  unit: number | null;
  alias: string | null;
  device_type: number | null;
  rated_power_w: number | null;
  master_device_id: number | null;
  status: Generated<DeviceStatus>;
  last_ts: number | null;
  /**
   * 009: when it joined its current plant: the plant sees its samples, day rows (first_ts),
   * latest values and events from then on (0: all its history is the plant's).
   */
  bound_at: Generated<number>;
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
}

interface SampleKey {
  device_id: number;
  ts: number;
  /** JSON [[fc, addr, hex], …]: the register blocks as received. */
  raw: string;
}
export interface InverterSamplesTable extends SampleKey {
  power_w: number | null;
  pv_power_w: number | null;
  grid_power_w: number | null;
  load_power_w: number | null;
  battery_power_w: number | null;
  soc: number | null;
  temperature_c: number | null;
  pv_total_wh: number | null;
}
export interface BatterySamplesTable extends SampleKey {
  power_w: number | null;
  voltage_v: number | null;
  current_a: number | null;
  soc: number | null;
  soh: number | null;
  temperature_max_c: number | null;
}
export interface MeterSamplesTable extends SampleKey {
  power_w: number | null;
  import_total_wh: number | null;
  export_total_wh: number | null;
}
export interface WeatherSamplesTable extends SampleKey {
  irradiance_wm2: number | null;
  ambient_c: number | null;
  module_c: number | null;
  wind_ms: number | null;
}

export interface DeviceLatestTable {
  device_id: number;
  ts: number;
  values: string;
  faults: Generated<string>;
  updated_at: number;
}

interface EnergyColumns {
  pv_wh: Generated<number>;
  load_wh: Generated<number>;
  grid_import_wh: Generated<number>;
  grid_export_wh: Generated<number>;
  charge_wh: Generated<number>;
  discharge_wh: Generated<number>;
  peak_power_w: number | null;
  updated_at: number;
}
export interface DeviceDayTable extends EnergyColumns {
  device_id: number;
  day: string;
  irradiation_whm2: Generated<number>;
  min_soc: number | null;
  max_soc: number | null;
  counters: Generated<string>;
  first_ts: number;
  last_ts: number;
  samples: Generated<number>;
}
export interface PlantDayTable extends EnergyColumns {
  plant_id: number;
  day: string;
}

export interface PlantForecastTable {
  plant_id: number;
  ts: number;
  power_w: number;
  imported_at: number;
}
/** Time-of-use income of a past plant-local day (cache; dropped when the prices change). */
export interface PlantDayIncomeTable {
  plant_id: number;
  day: string;
  income: number;
  computed_at: number;
}

export interface EventsTable {
  id: Generated<number>;
  plant_id: number | null;
  gateway_id: number | null;
  device_id: number | null;
  sn: string;
  source: 'device' | 'gateway' | 'rule';
  code: string;
  level: EventLevel;
  text_en: string;
  text_es: string;
  started_at: number;
  ended_at: number | null;
  created_at: number;
  // 007_events: acknowledgement
  acked_at: number | null;
  acked_by: number | null;
  ack_note: string | null;
}

/** 007_events: fault notifications per user (the log is also the de-duplication and rate limit). */
export type EventNotificationState = 'sending' | 'sent' | 'failed' | 'held' | 'digested' | 'digest';
export interface EventNotificationsTable {
  id: Generated<number>;
  user_id: number;
  event_id: number | null;
  plant_id: number | null;
  sn: string;
  code: string;
  state: EventNotificationState;
  attempts: Generated<number>;
  created_at: number;
  mailed_at: number | null;
}
/** 007_events: the notifier's cursor over events.id. */
export interface EventNotifierStateTable {
  name: string;
  last_event_id: number;
  updated_at: number;
}

/** Saved parameter picks for the inverter day chart (006_devices). */
export interface ParameterProfilesTable {
  id: Generated<number>;
  user_id: number;
  position: number;
  name: string;
  /** JSON array of parameter keys. */
  params: string;
  created_at: number;
  updated_at: number;
}

/** One online period of a gateway; `offline_at` null while it lasts (006_devices). */
export interface GatewaySessionsTable {
  id: Generated<number>;
  gateway_id: number;
  online_at: number;
  offline_at: number | null;
}

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

export interface FirmwareTable {
  id: Generated<number>;
  type: 'gateway' | 'inverter';
  product_name: string;
  epn: string | null;
  brand: string | null;
  hardware_version: string | null;
  compatible_software: string | null;
  upgrade_mode: 'IAP' | 'ISP';
  file_name: string;
  version: string;
  size: number;
  /** Hex SHA-256 of the image's bytes; the blob's name under the data folder (firmware/blobs.ts). */
  sha256: string;
  /** Base64 Ed25519 signature of the 32-byte digest, by the server's key (firmware/signing.ts). */
  signature: string;
  change_log: string | null;
  enabled: Generated<number>;
  created_by: number;
  created_at: number;
  updated_at: number;
  /** 015: the product the image was uploaded for (its name, EPN and brand are copied above). */
  product_id: number | null;
}

/** 015: inverter types, in the order `position` gives (0 first). */
export interface InverterTypesTable {
  id: Generated<number>;
  name: string;
  position: number;
  created_at: number;
}

/** 015: what firmware is for: a gateway or an inverter product (name unique within its type). */
export interface ProductsTable {
  id: Generated<number>;
  type: 'gateway' | 'inverter';
  name: string;
  epn: string | null;
  brand: string | null;
  inverter_type_id: number | null;
  /** JSON array of hardware version texts. */
  hardware_versions: Generated<string>;
  created_at: number;
  updated_at: number;
}

export interface MaintenanceLogTable {
  id: Generated<number>;
  kind: 'upgrade' | 'debug' | 'restart' | 'power' | 'setting' | 'revert';
  device_sn: string;
  gateway_sn: string | null;
  plant_id: number | null;
  user_id: number;
  /** The command job (or upgrade) behind the entry. */
  job_id: string | null;
  /** JSON: what was asked (firmware id and version, debug code, …) and what came back. */
  detail: string;
  result: 'running' | 'succeeded' | 'failed' | 'cancelled';
  created_at: number;
  finished_at: number | null;
}

/** 016: one published portal version (numbers rise with publication time by compareVersions). */
export interface SystemVersionsTable {
  id: Generated<number>;
  number: string;
  content_zh: string;
  content_en: string;
  published_by: number;
  published_at: number;
  updated_at: number;
}

/** 016: a maintenance function operators offer on devices (name and code each unique). */
export interface LoggerFunctionsTable {
  id: Generated<number>;
  name: string;
  code: string;
  description_en: string;
  description_es: string;
  enabled: Generated<number>;
  created_at: number;
  updated_at: number;
}

export type AdminAuditEntity = companyApi.AuditEntityName;

export interface AdminAuditTable {
  id: Generated<number>;
  actor_user_id: number;
  /** The company whose data changed (null for system-wide records); operators filter by it. */
  company_id: number | null;
  entity: AdminAuditEntity;
  entity_id: string;
  action: string;
  /** JSON of the record before and after the change (null where there was none). */
  before_values: string | null;
  after_values: string | null;
  created_at: number;
}

/** 024: a plant offered to another account; `status` pending, accepted, declined, cancelled or expired. */
export interface PlantTransfersTable {
  id: Generated<number>;
  plant_id: number;
  from_user_id: number;
  to_user_id: number;
  /** Who held the plant when it was offered (owner, or company for a company plant). */
  owner_user_id: number | null;
  company_id: number | null;
  status: 'pending' | 'accepted' | 'declined' | 'cancelled' | 'expired';
  created_at: number;
  expires_at: number;
  closed_at: number | null;
  closed_by: number | null;
}

/** 014: a firmware upgrade of one or more devices, in waves (a canary first). */
export interface UpgradeRolloutsTable {
  id: string;
  firmware_id: number;
  device_kind: 'gateway' | 'inverter';
  /** running, paused, completed, cancelled. */
  state: string;
  canary_size: number;
  wave_size: number;
  /** Percent of a wave's devices failing that pauses the rollout. */
  failure_threshold: number;
  waves: number;
  /** The wave started last (-1: none yet; 0 is the canary). */
  current_wave: Generated<number>;
  pause_reason: string | null;
  /** The wave whose failures paused it (a resume goes on past it). */
  paused_wave: number | null;
  requested_by: number;
  /** The runner working on it holds it until then. */
  lease_until: Generated<number>;
  created_at: number;
  updated_at: number;
  finished_at: number | null;
}

/** 014: one device of an upgrade rollout. */
export interface UpgradeDevicesTable {
  id: Generated<number>;
  rollout_id: string;
  device_sn: string;
  device_kind: 'gateway' | 'inverter';
  gateway_sn: string;
  plant_id: number | null;
  wave: number;
  /** pending, sending, downloaded, download_failed, upgrading, success, failed, cancelled. */
  state: string;
  progress: number | null;
  from_version: string | null;
  error: string | null;
  job_id: string | null;
  abort_job_id: string | null;
  /** Its maintenance_log row. */
  log_id: number | null;
  started_at: number | null;
  /** When the device said the image was flashed (then its reported version confirms it). */
  flashed_at: number | null;
  finished_at: number | null;
  updated_at: number;
}

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
/** 023: a first-start or demo step done, by its fixed name; `value` is JSON of the ids it made. */
export interface BootstrapStepsTable {
  name: string;
  value: string;
  created_at: number;
}

export interface Database {
  bootstrap_steps: BootstrapStepsTable;
  upgrade_rollouts: UpgradeRolloutsTable;
  upgrade_devices: UpgradeDevicesTable;
  command_jobs: CommandJobsTable;
  command_job_events: CommandJobEventsTable;
  setting_batches: SettingBatchesTable;
  setting_changes: SettingChangesTable;
  firmware: FirmwareTable;
  inverter_types: InverterTypesTable;
  products: ProductsTable;
  maintenance_log: MaintenanceLogTable;
  admin_audit: AdminAuditTable;
  system_versions: SystemVersionsTable;
  logger_functions: LoggerFunctionsTable;
  parameter_profiles: ParameterProfilesTable;
  gateway_sessions: GatewaySessionsTable;
  gateways: GatewaysTable;
  devices: DevicesTable;
  inverter_samples: InverterSamplesTable;
  battery_samples: BatterySamplesTable;
  meter_samples: MeterSamplesTable;
  weather_samples: WeatherSamplesTable;
  device_latest: DeviceLatestTable;
  device_day: DeviceDayTable;
  device_bindings: DeviceBindingsTable;
  plant_day: PlantDayTable;
  plant_forecast: PlantForecastTable;
  plant_day_income: PlantDayIncomeTable;
  events: EventsTable;
  event_notifications: EventNotificationsTable;
  event_notifier_state: EventNotifierStateTable;
  users: UsersTable;
  companies: CompaniesTable;
  customer_types: CustomerTypesTable;
  company_roles: CompanyRolesTable;
  sessions: SessionsTable;
  refresh_tokens: RefreshTokensTable;
  verification_codes: VerificationCodesTable;
  plants: PlantsTable;
  plant_shares: PlantSharesTable;
  plant_transfers: PlantTransfersTable;
  throttles: ThrottlesTable;
  pending_uploads: PendingUploadsTable;
  dr_programs: DrProgramsTable;
  dr_enrollments: DrEnrollmentsTable;
  dr_enrollment_devices: DrEnrollmentDevicesTable;
  dr_events: DrEventsTable;
  dr_optouts: DrOptoutsTable;
  dr_dispatches: DrDispatchesTable;
  dr_outbox: DrOutboxTable;
  dr_inbox: DrInboxTable;
  dr_state: DrStateTable;
}

export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type Company = Selectable<CompaniesTable>;
export type Plant = Selectable<PlantsTable>;
