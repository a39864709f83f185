// Row types of the store for the firmware library (images, products, inverter types) and upgrade
// rollouts. Times are epoch milliseconds; booleans are 0/1 (portable).
import type { Generated } from 'kysely';

export interface FirmwareTable {
  id: Generated<number>;
  type: 'gateway' | 'inverter';
  product_name: string;
  epn: string | null;
  brand: string | null;
  hardware_version: string | null;
  compatible_software: string | null;
  upgrade_mode: 'IAP' | 'ISP';
  file_name: string;
  version: string;
  size: number;
  /** Hex SHA-256 of the image's bytes; the blob's name under the data folder (firmware/blobs.ts). */
  sha256: string;
  /** Base64 Ed25519 signature of the 32-byte digest, by the server's key (firmware/signing.ts). */
  signature: string;
  change_log: string | null;
  enabled: Generated<number>;
  created_by: number;
  created_at: number;
  updated_at: number;
  /** 015: the product the image was uploaded for (its name, EPN and brand are copied above). */
  product_id: number | null;
}

/** 015: inverter types, in the order `position` gives (0 first). */
export interface InverterTypesTable {
  id: Generated<number>;
  name: string;
  position: number;
  created_at: number;
}

/** 015: what firmware is for: a gateway or an inverter product (name unique within its type). */
export interface ProductsTable {
  id: Generated<number>;
  type: 'gateway' | 'inverter';
  name: string;
  epn: string | null;
  brand: string | null;
  inverter_type_id: number | null;
  /** JSON array of hardware version texts. */
  hardware_versions: Generated<string>;
  created_at: number;
  updated_at: number;
}

/** 014: a firmware upgrade of one or more devices, in waves (a canary first). */
export interface UpgradeRolloutsTable {
  id: string;
  firmware_id: number;
  device_kind: 'gateway' | 'inverter';
  /** running, paused, completed, cancelled. */
  state: string;
  canary_size: number;
  wave_size: number;
  /** Percent of a wave's devices failing that pauses the rollout. */
  failure_threshold: number;
  waves: number;
  /** The wave started last (-1: none yet; 0 is the canary). */
  current_wave: Generated<number>;
  pause_reason: string | null;
  /** The wave whose failures paused it (a resume goes on past it). */
  paused_wave: number | null;
  requested_by: number;
  /** The runner working on it holds it until then. */
  lease_until: Generated<number>;
  created_at: number;
  updated_at: number;
  finished_at: number | null;
}

/** 014: one device of an upgrade rollout. */
export interface UpgradeDevicesTable {
  id: Generated<number>;
  rollout_id: string;
  device_sn: string;
  device_kind: 'gateway' | 'inverter';
  gateway_sn: string;
  plant_id: number | null;
  wave: number;
  /** pending, sending, downloaded, download_failed, upgrading, success, failed, cancelled. */
  state: string;
  progress: number | null;
  from_version: string | null;
  error: string | null;
  job_id: string | null;
  abort_job_id: string | null;
  /** Its maintenance_log row. */
  log_id: number | null;
  started_at: number | null;
  /** When the device said the image was flashed (then its reported version confirms it). */
  flashed_at: number | null;
  finished_at: number | null;
  updated_at: number;
}
