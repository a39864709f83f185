/** The kinds and results of maintenance entries, and the tag colour of each result. */
import { loggersApi } from '@sunfleet/contracts';

export const MAINTENANCE_KINDS_LIST = loggersApi.MAINTENANCE_KINDS;
export type MaintenanceKindName = (typeof loggersApi.MAINTENANCE_KINDS)[number];
export type MaintenanceResultName = (typeof loggersApi.MAINTENANCE_RESULTS)[number];

export const resultColour: Record<MaintenanceResultName, string> = {
  running: 'processing',
  succeeded: 'success',
  failed: 'error',
  cancelled: 'default',
};
