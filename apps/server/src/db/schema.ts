/**
 * Row types of the store, one file per domain in `schema/`, and the database they make up.
 * Times are epoch milliseconds; booleans are 0/1 (portable).
 */
import type { Insertable, Selectable, Updateable } from 'kysely';
import type {
  CompaniesTable,
  CompanyRolesTable,
  CustomerTypesTable,
  PendingUploadsTable,
  RefreshTokensTable,
  SessionsTable,
  ThrottlesTable,
  UsersTable,
  VerificationCodesTable,
} from './schema/accounts.ts';
import type {
  AdminAuditTable,
  BootstrapStepsTable,
  LoggerFunctionsTable,
  MaintenanceLogTable,
  SystemVersionsTable,
} from './schema/admin.ts';
import type { CommandJobEventsTable, CommandJobsTable, SettingBatchesTable, SettingChangesTable } from './schema/commands.ts';
import type {
  DrDispatchesTable,
  DrEnrollmentDevicesTable,
  DrEnrollmentsTable,
  DrEventsTable,
  DrInboxTable,
  DrOptoutsTable,
  DrOutboxTable,
  DrProgramsTable,
  DrStateTable,
} from './schema/demand-response.ts';
import type {
  DeviceBindingsTable,
  DevicesTable,
  GatewaySessionsTable,
  GatewaysTable,
  ParameterProfilesTable,
} from './schema/devices.ts';
import type { EventNotificationsTable, EventNotifierStateTable, EventsTable } from './schema/events.ts';
import type {
  FirmwareTable,
  InverterTypesTable,
  ProductsTable,
  UpgradeDevicesTable,
  UpgradeRolloutsTable,
} from './schema/firmware.ts';
import type { PlantSharesTable, PlantsTable, PlantTransfersTable } from './schema/plants.ts';
import type {
  BatterySamplesTable,
  DeviceDayTable,
  DeviceLatestTable,
  InverterSamplesTable,
  MeterSamplesTable,
  PlantDayIncomeTable,
  PlantDayTable,
  PlantForecastTable,
  WeatherSamplesTable,
} from './schema/telemetry.ts';

export * from './schema/accounts.ts';
export * from './schema/admin.ts';
export * from './schema/commands.ts';
export * from './schema/demand-response.ts';
export * from './schema/devices.ts';
export * from './schema/events.ts';
export * from './schema/firmware.ts';
export * from './schema/plants.ts';
export * from './schema/telemetry.ts';

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
