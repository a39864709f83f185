/** Versioned migrations, applied in name order. Never edit one that has shipped; add the next. */
import type { Migration } from 'kysely';
import * as m001 from './001_foundation.ts';
import * as m002 from './002_telemetry.ts';
import * as m004 from './004_plants.ts';
import * as m005 from './005_overview.ts';
import * as m006 from './006_devices.ts';
import * as m007 from './007_events.ts';
import * as m008 from './008_abuse_limits.ts';
import * as m009 from './009_binding_time.ts';
import * as m010 from './010_command_jobs.ts';
import * as m011 from './011_setting_changes.ts';
import * as m012 from './012_firmware.ts';
import * as m013 from './013_admin_audit.ts';
import * as m014 from './014_upgrades.ts';
import * as m015 from './015_firmware_library.ts';
import * as m016 from './016_loggers_versions.ts';
import * as m018 from './018_customers.ts';
import * as m019 from './019_gateway_stock.ts';
import * as m020 from './020_demand_response.ts';
import * as m021 from './021_command_power_guard.ts';
import * as m022 from './022_demand_response_trust.ts';
import * as m023 from './023_bootstrap_steps.ts';
import * as m024 from './024_plant_transfers.ts';

export const migrations: Record<string, Migration> = {
  '001_foundation': m001,
  '002_telemetry': m002,
  '004_plants': m004,
  '005_overview': m005,
  '006_devices': m006,
  '007_events': m007,
  '008_abuse_limits': m008,
  '009_binding_time': m009,
  '010_command_jobs': m010,
  '011_setting_changes': m011,
  '012_firmware': m012,
  '013_admin_audit': m013,
  '014_upgrades': m014,
  '015_firmware_library': m015,
  '016_loggers_versions': m016,
  '018_customers': m018,
  '019_gateway_stock': m019,
  '020_demand_response': m020,
  '021_command_power_guard': m021,
  '022_demand_response_trust': m022,
  '023_bootstrap_steps': m023,
  '024_plant_transfers': m024,
};
