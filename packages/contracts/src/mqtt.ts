/**
 * The gateway protocol over MQTT (docs/protocol.md): topics, and the payload schemas every
 * message is validated against at the edge. Built and parsed only through these helpers.
 *
 *   sf/gw/{sn}/up/data    gateway → server  telemetry: register blocks per attached device
 *   sf/gw/{sn}/up/event   gateway → server  gateway-level events (power loss, bus errors)
 *   sf/gw/{sn}/up/reply   gateway → server  command replies and progress
 *   sf/gw/{sn}/up/state   gateway → server  presence: online (on connect), offline (last will)
 *   sf/gw/{sn}/down/cmd   server → gateway  commands
 */
import Type, { type Static } from 'typebox';

export const PROTOCOL_VERSION = 1;
export const TOPIC_ROOT = 'sf/gw';
export type UpChannel = 'data' | 'event' | 'reply' | 'state';

/** Gateway serial numbers: letters, digits, dash, underscore; never MQTT wildcards or slashes. */
export const GATEWAY_SN_PATTERN = '^[A-Za-z0-9_-]{4,32}$';
const snRe = new RegExp(GATEWAY_SN_PATTERN);
export const isGatewaySn = (sn: string) => snRe.test(sn);

export const mqttLimits = {
  /** Largest message accepted from a gateway. */
  maxPayloadBytes: 256 * 1024,
  maxDevicesPerFrame: 32,
  maxBlocksPerDevice: 16,
  /** Modbus read limit per request. */
  maxRegistersPerBlock: 125,
  /** A frame stamped more than this ahead of the server's clock is refused (gateway clocks are NTP-synchronised). */
  maxFutureMs: 5 * 60 * 1000,
  /**
   * Retention window of telemetry: a frame stamped longer ago than this (three years) is refused.
   * Far beyond any gateway's offline buffer and a year of backfilled history (the simulator's at most).
   */
  maxAgeMs: 1096 * 24 * 3600 * 1000,
} as const;

export const topics = {
  up: (sn: string, channel: UpChannel) => `${TOPIC_ROOT}/${sn}/up/${channel}`,
  down: (sn: string) => `${TOPIC_ROOT}/${sn}/down/cmd`,
  /** What the server subscribes to (optionally as a shared subscription group). */
  allUp: (channel: UpChannel | '+' = '+', group?: string) => `${group ? `$share/${group}/` : ''}${TOPIC_ROOT}/+/up/${channel}`,
};

export type ParsedTopic = { sn: string; direction: 'up'; channel: UpChannel } | { sn: string; direction: 'down'; channel: 'cmd' };

/** Parse a topic of the protocol; null for anything else (wildcards, other roots, bad SNs). */
export function parseTopic(topic: string): ParsedTopic | null {
  const parts = topic.split('/');
  if (parts.length !== 5 || `${parts[0]}/${parts[1]}` !== TOPIC_ROOT) return null;
  const [, , sn, direction, channel] = parts as [string, string, string, string, string];
  if (!isGatewaySn(sn)) return null;
  if (direction === 'up' && (channel === 'data' || channel === 'event' || channel === 'reply' || channel === 'state')) {
    return { sn, direction, channel };
  }
  if (direction === 'down' && channel === 'cmd') return { sn, direction, channel };
  return null;
}

const Sn = Type.String({ pattern: '^[A-Za-z0-9_-]{1,32}$' });
const Epoch = Type.Integer({ minimum: 1_500_000_000_000, description: 'epoch milliseconds (UTC)' });

/** One Modbus read: function code, start address, the registers as hex (4 hex digits each, big-endian). */
export const RegisterBlockPayload = Type.Object({
  fc: Type.Union([Type.Literal(3), Type.Literal(4)]),
  addr: Type.Integer({ minimum: 0, maximum: 65535 }),
  regs: Type.String({ pattern: '^([0-9A-Fa-f]{4}){1,125}$' }),
});

export const DeviceFramePayload = Type.Object({
  /** Device serial number. */
  sn: Sn,
  /** Protocol definition id (packages/protocols), e.g. `sunfleet-hybrid-3p`. */
  protocol: Type.String({ pattern: '^[a-z0-9-]{1,48}$' }),
  /** Modbus unit id on the gateway's bus. */
  unit: Type.Optional(Type.Integer({ minimum: 0, maximum: 247 })),
  /** When this device was read, if not the frame's time. */
  ts: Type.Optional(Epoch),
  blocks: Type.Array(RegisterBlockPayload, { minItems: 1, maxItems: mqttLimits.maxBlocksPerDevice }),
});

export const DataPayload = Type.Object({
  v: Type.Literal(PROTOCOL_VERSION),
  /** Per-gateway message sequence, increasing; restarts at 0 after a reboot. */
  seq: Type.Integer({ minimum: 0 }),
  /** When the readings were taken: buffered frames keep their original time. */
  ts: Epoch,
  /** True for frames sent late from the gateway's buffer. */
  buffered: Type.Optional(Type.Boolean()),
  devices: Type.Array(DeviceFramePayload, { minItems: 1, maxItems: mqttLimits.maxDevicesPerFrame }),
});

export const CommType = Type.Union([Type.Literal('wifi'), Type.Literal('ethernet'), Type.Literal('4g'), Type.Literal('rs485')]);
export const StatePayload = Type.Object({
  v: Type.Literal(PROTOCOL_VERSION),
  online: Type.Boolean(),
  ts: Type.Optional(Epoch),
  rssi: Type.Optional(Type.Integer({ minimum: -150, maximum: 0 })),
  sw: Type.Optional(Type.String({ maxLength: 32 })),
  hw: Type.Optional(Type.String({ maxLength: 32 })),
  comm: Type.Optional(CommType),
  /** Upload interval in seconds: the server's offline timeout is 3 × this. */
  interval: Type.Optional(Type.Integer({ minimum: 10, maximum: 3600 })),
});

export const GatewayEventPayload = Type.Object({
  v: Type.Literal(PROTOCOL_VERSION),
  ts: Epoch,
  code: Type.String({ pattern: '^[A-Za-z0-9_.-]{1,48}$' }),
  level: Type.Union([Type.Literal('fault'), Type.Literal('warning'), Type.Literal('info')]),
  /** The device the event is about; absent for the gateway itself. */
  device: Type.Optional(Sn),
  /** True when the condition starts, false when it clears. */
  active: Type.Boolean(),
  text: Type.Optional(Type.String({ maxLength: 200 })),
});

/** What a command asks of the gateway (docs/protocol.md, "down/cmd and up/reply"). */
export const COMMAND_TYPES = ['read', 'write', 'restart', 'upgrade', 'abort', 'debug', 'boot', 'shutdown', 'settings'] as const;
export type CommandType = (typeof COMMAND_TYPES)[number];

/**
 * The gateway's own settings a `settings` command switches, with their allowed values:
 * `uploadInterval` the seconds between readings (10–3600; the gateway says the new value in its
 * next `up/state`), `bufferOffline` whether readings are kept while offline (0 off, 1 on).
 */
export const gatewaySettings = {
  uploadInterval: { min: 10, max: 3600 },
  bufferOffline: { min: 0, max: 1 },
} as const;
export type GatewaySettingName = keyof typeof gatewaySettings;
export const GATEWAY_SETTING_NAMES = Object.keys(gatewaySettings) as GatewaySettingName[];

/** Longest debug code a command carries, and longest diagnostic text a reply carries. */
export const DEBUG_CODE_MAX = 512;
export const DEBUG_TEXT_MAX = 4096;

/** A job id the gateway echoes: also the key of its memory of answered commands. */
export const COMMAND_ID_PATTERN = '^[A-Za-z0-9-]{8,64}$';

/** What an `upgrade` command carries. */
export const UpgradeFirmware = Type.Object({
  url: Type.String({ maxLength: 2048 }),
  size: Type.Integer({ minimum: 1 }),
  sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
  signature: Type.String({ maxLength: 128 }),
  version: Type.String({ maxLength: 40 }),
});

/** The stage an upgrade's `progress` and `error` replies are about. */
export const UPGRADE_STAGES = ['download', 'verify', 'flash'] as const;
export type UpgradeStage = (typeof UPGRADE_STAGES)[number];

export const CommandPayload = Type.Object({
  v: Type.Literal(PROTOCOL_VERSION),
  id: Type.String({ pattern: COMMAND_ID_PATTERN }),
  ts: Epoch,
  type: Type.Unsafe<CommandType>(Type.Union(COMMAND_TYPES.map((t) => Type.Literal(t)))),
  /** The device the command is about (read, write, debug, boot, shutdown); absent for the gateway itself. */
  device: Type.Optional(Sn),
  unit: Type.Optional(Type.Integer({ minimum: 0, maximum: 247 })),
  /** For read: Modbus reads to make; for write: writes (function code 6 or 16). */
  reads: Type.Optional(
    Type.Array(Type.Object({ fc: Type.Integer(), addr: Type.Integer(), count: Type.Integer({ minimum: 1, maximum: 125 }) })),
  ),
  writes: Type.Optional(Type.Array(Type.Object({ fc: Type.Integer(), addr: Type.Integer(), regs: Type.String() }))),
  /**
   * For upgrade: where to fetch the image (a short-lived signed link that serves byte ranges), its
   * size in bytes, its SHA-256 (hex), the server's Ed25519 signature of that digest (base64) and the
   * version the device reports once it runs it.
   */
  firmware: Type.Optional(UpgradeFirmware),
  /** For abort: the id of the upgrade command to stop (a download stops; a flash already under way finishes). */
  target: Type.Optional(Type.String({ pattern: COMMAND_ID_PATTERN })),
  /** For debug: the debug code to run. */
  text: Type.Optional(Type.String({ maxLength: DEBUG_CODE_MAX })),
  /** For settings: which of the gateway's settings, and its new value. */
  setting: Type.Optional(
    Type.Object({
      name: Type.Unsafe<GatewaySettingName>(Type.Union(GATEWAY_SETTING_NAMES.map((n) => Type.Literal(n)))),
      value: Type.Integer(),
    }),
  ),
});

export const ReplyPayload = Type.Object({
  v: Type.Literal(PROTOCOL_VERSION),
  id: Type.String({ pattern: COMMAND_ID_PATTERN }),
  ts: Epoch,
  status: Type.Union([Type.Literal('accepted'), Type.Literal('progress'), Type.Literal('ok'), Type.Literal('error')]),
  progress: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
  /** For upgrade: the stage the progress or error is about (download, verify, flash). */
  stage: Type.Optional(Type.Union([Type.Literal('download'), Type.Literal('verify'), Type.Literal('flash')])),
  /** For read: the blocks read. */
  blocks: Type.Optional(Type.Array(RegisterBlockPayload)),
  /** For error: the device's or gateway's reason (docs/protocol.md lists the usual ones). */
  error: Type.Optional(Type.String({ maxLength: 200 })),
  /** For debug: the diagnostic text. */
  text: Type.Optional(Type.String({ maxLength: DEBUG_TEXT_MAX })),
});

export type RegisterBlockMessage = Static<typeof RegisterBlockPayload>;
export type DeviceFrame = Static<typeof DeviceFramePayload>;
export type DataMessage = Static<typeof DataPayload>;
export type StateMessage = Static<typeof StatePayload>;
export type GatewayEventMessage = Static<typeof GatewayEventPayload>;
export type CommandMessage = Static<typeof CommandPayload>;
export type ReplyMessage = Static<typeof ReplyPayload>;
export type UpgradeFirmwareMessage = Static<typeof UpgradeFirmware>;

/** Registers ↔ the hex text of a block. */
export function registersToHex(registers: ArrayLike<number>): string {
  let s = '';
  for (let i = 0; i < registers.length; i++) s += ((registers[i] as number) & 0xffff).toString(16).padStart(4, '0');
  return s;
}
export function hexToRegisters(hex: string): number[] {
  const out = new Array<number>(hex.length >> 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(i * 4, i * 4 + 4), 16);
  return out;
}
