/**
 * The samples tables: one per device kind, keyed (device_id, ts), with the value columns below
 * between the key and `raw` (the frame's register blocks). Ingest fills the columns from a
 * decoded frame (telemetry/ingest/kinds.ts `sample()`); device charts and operation data read
 * them by name.
 */
import type { DeviceKind } from '../db/schema.ts';

export type SampleTable = 'inverter_samples' | 'battery_samples' | 'meter_samples' | 'weather_samples';

export const sampleTables: Readonly<Record<DeviceKind, SampleTable>> = {
  inverter: 'inverter_samples',
  battery: 'battery_samples',
  meter: 'meter_samples',
  weather: 'weather_samples',
};

/** Value columns of each kind's samples table, in the order ingest writes them. */
export const sampleColumns: Readonly<Record<DeviceKind, readonly string[]>> = {
  inverter: ['power_w', 'pv_power_w', 'grid_power_w', 'load_power_w', 'battery_power_w', 'soc', 'temperature_c', 'pv_total_wh'],
  battery: ['power_w', 'voltage_v', 'current_a', 'soc', 'soh', 'temperature_max_c'],
  meter: ['power_w', 'import_total_wh', 'export_total_wh'],
  weather: ['irradiance_wm2', 'ambient_c', 'module_c', 'wind_ms'],
};
