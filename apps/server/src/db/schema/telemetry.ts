// Row types of the store for telemetry: the raw samples per device kind, the latest values, and the
// day rollups (device, plant, forecast, income). Times are epoch milliseconds; booleans are 0/1
// (portable).
import type { Generated } from 'kysely';

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
