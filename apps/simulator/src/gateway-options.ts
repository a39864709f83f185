// What a virtual gateway is given (its spec and options, how it misbehaves with commands in
// tests) and what it reports about itself (stats).
import type { StateMessage } from '@sunfleet/contracts';
import type { Clock } from './clock.ts';
import type { DeviceSpec, PlantSpec } from './plant.ts';
import type { UpgradeOptions } from './upgrade.ts';

export interface GatewaySpec {
  /** Gateway serial number: MQTT client id and username. */
  sn: string;
  /** Device secret: MQTT password. */
  secret: string;
  plant: PlantSpec;
  devices: DeviceSpec[];
  comm?: NonNullable<StateMessage['comm']>;
  /** The server's firmware public key (raw Ed25519, base64) it checks images with; from provisioning. */
  firmwareKey?: string;
  /** The software version it reports (default `DEFAULT_GATEWAY_SW`). */
  sw?: string;
}

/**
 * The software version a simulated gateway reports until an upgrade: firmware versions are
 * letters, digits, hyphen and underscore (no dots), parts separated by underscores, so the fleet
 * reports the same style as the images the library accepts.
 */
export const DEFAULT_GATEWAY_SW = 'SFG-2_4_1';

export interface GatewayOptions {
  url: string;
  /** For an mqtts:// URL: the certificate (PEM) to trust, the broker's own (pinned) or its CA; default: the system's CAs. */
  ca?: string;
  clock: Clock;
  /** Upload interval, simulated seconds (default 60). */
  interval?: number;
  seed?: number;
  /** Faults per device per day (default 0). */
  faultRate?: number;
  /** Offline periods per gateway per day, and off-bus periods per device per day (default 0). */
  offlineRate?: number;
  /** Days of history to upload first, as buffered frames (default 0). */
  backfillDays?: number;
  /** Reading interval of that history, s (default: the upload interval; rounded to a multiple of it). */
  backfillIntervalS?: number;
  protocolVersion?: 4 | 5;
  /** MQTT clean session (default false: a persistent session, as the protocol asks of gateways; unacknowledged messages are sent again after a reconnect either way). */
  clean?: boolean;
  /** Keepalive, s (default 30). */
  keepalive?: number;
  /** Wait between reconnection attempts, wall ms (default 5000). */
  reconnectPeriodMs?: number;
  /** Publishes awaiting their acknowledgement at once (default 32). */
  window?: number;
  /** Readings kept while offline; the oldest are dropped beyond this (default 20 000, two weeks at 1 min). */
  maxBuffer?: number;
  /** Simulated seconds a restart keeps the gateway away (default 30). */
  restartDelayS?: number;
  physicsStepS?: number;
  log?: (line: string) => void;
  /** How this gateway misbehaves with commands (tests); default: answers each at once. */
  commandQuirks?: CommandQuirks;
  /** How upgrades go: failure share, link speed, a broken-off download, flash and reboot times. */
  upgrades?: Omit<UpgradeOptions, 'firmwareKey'>;
}

/** Command misbehaviour for tests: late answers, no answers, or dropping off the network. */
export interface CommandQuirks {
  /** Run a command at once but answer it this many wall ms later. */
  replyDelayMs?: number;
  /** Never answer a command (nor run it). */
  silent?: boolean;
  /**
   * Drop off the network when the first command arrives, before running or answering it, for
   * this many simulated ms; back online it runs the command when the server sends it again.
   */
  offlineOnCommandMs?: number;
}

export interface GatewayStats {
  sn: string;
  online: boolean;
  connects: number;
  /** Readings taken (data messages built). */
  readings: number;
  /** Messages handed to the MQTT client (data and events; a retry counts again). */
  sent: number;
  /** Data messages acknowledged by the broker. */
  published: number;
  events: number;
  replies: number;
  /** Commands run (a repeated id is not run again). */
  commands: number;
  /** Commands answered from memory: the server sent an id again. */
  repeatedCommands: number;
  /** Commands left unanswered on purpose (`commandQuirks`). */
  ignoredCommands: number;
  /** Publishes that failed and were queued again. */
  failed: number;
  /** Buffered readings dropped because the buffer was full. */
  dropped: number;
  queued: number;
  inflight: number;
  seq: number;
  lastError?: string;
}
