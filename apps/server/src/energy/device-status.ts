/**
 * Device status (normal, offline, warning, fault, upgrading) from ingest's open conditions: any
 * fault → fault, else any warning → warning, else normal; offline when silent. 'upgrading' is set
 * and cleared by the upgrades module; ingest keeps it. A plant's status follows its devices'
 * (plant-status.ts).
 */
import type { DeviceStatus, EventLevel } from '../db/schema.ts';

export interface Condition {
  level: EventLevel;
  source: 'device' | 'gateway' | 'rule';
}

export function deviceStatus(conditions: ReadonlyMap<string, Condition>): DeviceStatus {
  if (conditions.has('offline')) return 'offline';
  let status: DeviceStatus = 'normal';
  for (const c of conditions.values()) {
    if (c.level === 'fault') return 'fault';
    if (c.level === 'warning') status = 'warning';
  }
  return status;
}
