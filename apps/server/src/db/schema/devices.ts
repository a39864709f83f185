// Row types of the store for gateways and devices: the device and event vocabularies, gateway
// sessions, device bindings and parameter profiles. Times are epoch milliseconds; booleans are 0/1
// (portable).
import type { Generated } from 'kysely';

export type DeviceKind = 'inverter' | 'battery' | 'meter' | 'weather';
export type DeviceStatus = 'normal' | 'offline' | 'warning' | 'fault' | 'upgrading';
export type EventLevel = 'fault' | 'warning' | 'info';

export interface GatewaysTable {
  id: Generated<number>;
  sn: string;
  /** SHA-256 of the device secret (machine-made, 256 bits: a fast hash is enough). */
  secret_hash: string;
  /** SHA-256 of the label key a user types to bind the gateway to a plant. */
  claim_key_hash: string;
  alias: string | null;
  plant_id: number | null;
  /** The customer or agent company the gateway was sold through. */
  company_id: number | null;
  sw_version: string | null;
  hw_version: string | null;
  comm_type: string | null;
  rssi: number | null;
  online: Generated<number>;
  last_online_at: number | null;
  last_seen_at: number | null;
  upload_interval_s: Generated<number>;
  /** 009: when it joined its current plant (0: all its history is the plant's). */
  bound_at: Generated<number>;
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
  /** 019: the protocol id it polls its devices with (null: none set; optional on insert). */
  protocol_id: Generated<string | null>;
}

/** 009: a device's past time in a plant it has left: [bound_at, unbound_at). */
export interface DeviceBindingsTable {
  device_id: number;
  plant_id: number;
  bound_at: number;
  unbound_at: number;
}

export interface DevicesTable {
  id: Generated<number>;
  sn: string;
  gateway_id: number;
  plant_id: number | null;
  kind: DeviceKind;
  protocol_id: string;
  unit: number | null;
  alias: string | null;
  device_type: number | null;
  rated_power_w: number | null;
  master_device_id: number | null;
  status: Generated<DeviceStatus>;
  last_ts: number | null;
  /**
   * 009: when it joined its current plant: the plant sees its samples, day rows (first_ts),
   * latest values and events from then on (0: all its history is the plant's).
   */
  bound_at: Generated<number>;
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
}

/** Saved parameter picks for the inverter day chart (006_devices). */
export interface ParameterProfilesTable {
  id: Generated<number>;
  user_id: number;
  position: number;
  name: string;
  /** JSON array of parameter keys. */
  params: string;
  created_at: number;
  updated_at: number;
}

/** One online period of a gateway; `offline_at` null while it lasts (006_devices). */
export interface GatewaySessionsTable {
  id: Generated<number>;
  gateway_id: number;
  online_at: number;
  offline_at: number | null;
}
