/**
 * What the rest of the server may use of ingest (the write side of telemetry). Nothing under
 * modules/ imports ingest: the API reads what ingest stores through energy/ (the read model).
 * - `createIngest` and its stats: the ingest role (telemetry/start.ts), the metrics that read
 *   its counters, and the tests that feed it frames (test/kits, jobs, metrics, db);
 * - the rule events and `applyEventChanges`: the offline job raises and closes the same events
 *   as ingest's rules, through the same writer.
 */
export { applyEventChanges, type EventChange, ruleEvents } from './events.ts';
export { createIngest, type Ingest, type IngestOptions, type IngestStats } from './pipeline.ts';
