// Row types of the store for administration: the maintenance log, system versions, logger functions,
// the admin audit trail and bootstrap steps. Times are epoch milliseconds; booleans are 0/1
// (portable).
import type { companyApi } from '@sunfleet/contracts';
import type { Generated } from 'kysely';

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
/** 023: a first-start or demo step done, by its fixed name; `value` is JSON of the ids it made. */
export interface BootstrapStepsTable {
  name: string;
  value: string;
  created_at: number;
}
