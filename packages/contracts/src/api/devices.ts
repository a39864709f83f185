/**
 * The devices area, one file per resource in `devices/`: gateway, inverter, battery, meter and
 * weather-station lists with filters, server-side sort and paging and counts per status; alias
 * and delete; the detail pages with their realtime values and charts.
 *
 * Units: power W, energy Wh, voltage V, current A, frequency Hz, temperature °C, SOC/SOH %,
 * irradiance W/m². Days are plant-local dates (YYYY-MM-DD; an unbound device uses UTC) and a
 * missing `date` means that day's today. Power signs: grid and meter + import / − export,
 * battery + discharge / − charge. Realtime values come from the device's latest upload, day
 * curves from its samples, month/year/total bars from its day rollups.
 *
 * Not found: an inverter SN the caller cannot see (or that is no inverter) answers 600; a
 * gateway 305; a battery, meter or weather station 404. A device the caller sees but may not
 * change answers 2 to alias and delete. A chart group the inverter's protocol does not have
 * answers 601.
 */

/** A device or gateway serial number (as the web app's inputs check it). */
export { SN_PATTERN } from '../schemas.ts';
export * from './devices/batteries.ts';
export * from './devices/common.ts';
export * from './devices/gateways.ts';
export * from './devices/inverterParams.ts';
export * from './devices/inverters.ts';
export * from './devices/meters.ts';
export * from './devices/weather.ts';
