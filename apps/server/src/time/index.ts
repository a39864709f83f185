/**
 * Time: zones, plant-local days and their boundaries, wall clock ↔ instants, the formats the API
 * and downloads use, and the checked days and zones of a request. Imports nothing from
 * `modules/` or `telemetry/` (both import it).
 */
export * from './days.ts';
export * from './format.ts';
export * from './instants.ts';
export * from './requests.ts';
export * from './sql.ts';
export * from './zones.ts';
