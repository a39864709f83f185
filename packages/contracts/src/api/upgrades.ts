/**
 * Remote firmware upgrades of gateways and inverters. The device is sent `upgrade` over its
 * command channel with a short-lived signed download link; each device goes through
 *
 *   pending → sending (downloading) → downloaded → upgrading (flashing) → success | failed
 *   sending → download_failed;  pending | sending | downloaded → cancelled
 *
 * and success counts only once the device reports the new version after its reboot. Every
 * upgrade request is a rollout: a single device is a rollout of one; a batch runs in waves (a
 * canary of N devices or a percentage, then waves of a chosen size) and pauses by itself when a
 * wave's failures pass its threshold (10 % by default); an operator resumes or cancels it.
 *
 * Codes: 600 an inverter SN and 305 a gateway the caller cannot see (a batch naming one is refused
 * whole); 2 one they see but may not operate; 1001 the device is offline; 1005 its state blocks
 * the upgrade (an upgrade of it is running); 4001 it already runs that version; 4 a firmware id
 * that is not an enabled image of the device's type; 404 a rollout the caller did not start.
 */
import Type from 'typebox';
import { endpoint } from '../endpoint.ts';
import { ErrorCode } from '../errors.ts';
import { Id, IdParams, Instant, Literals, Nullable, Sn, SnParams } from '../schemas.ts';

export const UPGRADE_STATES = [
  'pending',
  'sending',
  'downloaded',
  'download_failed',
  'upgrading',
  'success',
  'failed',
  'cancelled',
] as const;
export type UpgradeState = (typeof UPGRADE_STATES)[number];
/** States an upgrade ends in. */
export const UPGRADE_FINAL_STATES: readonly UpgradeState[] = ['download_failed', 'success', 'failed', 'cancelled'];
export const UpgradeStateSchema = Literals(UPGRADE_STATES);

export const ROLLOUT_STATES = ['running', 'paused', 'completed', 'cancelled'] as const;
export type RolloutState = (typeof ROLLOUT_STATES)[number];

export const upgradeLimits = {
  /** Devices one batch upgrade may name. */
  batchMax: 5000,
  /** Default share of a wave failing that pauses a rollout, percent. */
  failureThreshold: 10,
  /** Default canary: this many devices (or fewer when the batch is smaller). */
  canarySize: 5,
  /** Default size of the waves after the canary. */
  waveSize: 50,
} as const;

const FirmId = Type.Integer({ minimum: 1, description: 'the firmware image (an enabled one of the device’s type)' });
export const FirmQuery = Type.Object({ firmId: FirmId });

/** One device's upgrade as a caller sees it. */
export const DeviceUpgradeView = Type.Object({
  sn: Type.String(),
  kind: Literals(['gateway', 'inverter'] as const),
  gatewaySn: Type.String(),
  rolloutId: Type.String(),
  wave: Type.Integer({ description: '0 is the canary' }),
  state: UpgradeStateSchema,
  progress: Nullable(
    Type.Integer({ minimum: 0, maximum: 100, description: 'percent of the current stage, when the device says it' }),
  ),
  error: Nullable(Type.String({ description: 'why it failed or was cancelled' })),
  fromVersion: Nullable(Type.String()),
  toVersion: Type.String(),
  firmwareId: Type.Integer(),
  startedAt: Nullable(Instant),
  finishedAt: Nullable(Instant),
});

/** A device left out of a batch, and why (its code). */
export const RefusedDevice = Type.Object({
  sn: Type.String(),
  code: Type.Integer({ description: '1001 offline, 1005 busy, 4001 already on that version' }),
  reason: Type.String(),
});

export const UpgradeStarted = Type.Object({
  rolloutId: Type.String(),
  devices: Type.Array(DeviceUpgradeView, { description: 'the devices taken, in wave order' }),
  refused: Type.Array(RefusedDevice, {
    description: 'devices left out of a batch (none for a single device: it answers the code)',
  }),
});

export const RolloutOptions = Type.Object({
  canarySize: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: 'devices in the first wave' })),
  canaryPercent: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 100, description: 'or the first wave as a percentage of the devices (rounded up)' }),
  ),
  waveSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 5000, description: 'devices in each wave after the canary' })),
  failureThreshold: Type.Optional(
    Type.Integer({ minimum: 0, maximum: 100, description: 'percent of a wave failing that pauses the rollout (default 10)' }),
  ),
});

const SnList = Type.Array(Sn, { minItems: 1, maxItems: upgradeLimits.batchMax });

const upgradeCodes = [1001, 1005, 4001] as const;

export const inverterUpgrade = endpoint({
  method: 'POST',
  path: '/api/v1/inverter/:sn/upgrade',
  access: 'inverter.upgrade',
  writes: true,
  summary: 'Upgrade one inverter with a firmware image (1001 offline, 1005 an upgrade is running, 4001 already on that version)',
  params: SnParams,
  query: FirmQuery,
  data: UpgradeStarted,
  tolerate: upgradeCodes,
});

export const inverterBatchUpgrade = endpoint({
  method: 'POST',
  path: '/api/v1/inverter/:sn/batchUpgrade',
  access: 'inverter.upgrade',
  writes: true,
  encoding: 'json',
  summary:
    'Upgrade the inverter named and those in sns as a staged rollout (canary, then waves); refused whole (600, 2) when one is not the caller’s to operate; offline, busy or up-to-date ones are left out and listed',
  params: SnParams,
  body: Type.Object({ firmId: FirmId, sns: Type.Optional(SnList), ...RolloutOptions.properties }),
  data: UpgradeStarted,
  tolerate: upgradeCodes,
});

export const inverterCutUpgrade = endpoint({
  method: 'POST',
  path: '/api/v1/inverter/:sn/cutUpgrade',
  access: 'inverter.upgrade',
  writes: true,
  summary:
    'Stop the inverter’s upgrade: one not started is cancelled, a download is told to abort, a flash under way finishes and reports; 404 when it has none running',
  params: SnParams,
  data: DeviceUpgradeView,
  tolerate: [ErrorCode.notFound],
});

export const inverterUpgradeProgress = endpoint({
  method: 'GET',
  path: '/api/v1/inverter/:sn/upgrade/progress',
  access: 'inverter.view',
  summary:
    'The inverter’s latest upgrade as it stands (state, percent, reason); null when it has had none (no upgrade is a state, not an error)',
  params: SnParams,
  data: Nullable(DeviceUpgradeView),
});

export const FirmwareChoice = Type.Object({
  id: Type.Integer(),
  productName: Type.String(),
  version: Type.String(),
  fileName: Type.String(),
  size: Type.Integer(),
  changeLog: Nullable(Type.String()),
  createdAt: Instant,
});

export const inverterFirmware = endpoint({
  method: 'GET',
  path: '/api/v1/inverter/:sn/firmware',
  access: 'inverter.view',
  summary: 'The version the inverter reports and the enabled inverter firmware images it may be upgraded to (newest first)',
  params: SnParams,
  data: Type.Object({ sn: Type.String(), version: Nullable(Type.String()), firmwares: Type.Array(FirmwareChoice) }),
});

export const upgradeFirmwares = endpoint({
  method: 'GET',
  path: '/api/v1/upgrade/firmwares',
  access: ['gateway.upgrade', 'inverter.upgrade'],
  summary: 'The enabled firmware images of a device type, newest first (the upgrade action’s choices)',
  query: Type.Object({ type: Literals(['gateway', 'inverter'] as const) }),
  data: Type.Array(FirmwareChoice),
});

export const gatewayUpgrade = endpoint({
  method: 'POST',
  path: '/api/v1/gateway/:id/upgrade',
  access: 'gateway.upgrade',
  writes: true,
  summary: 'Upgrade one gateway with a firmware image (1001 offline, 1005 an upgrade is running, 4001 already on that version)',
  params: IdParams,
  query: FirmQuery,
  data: UpgradeStarted,
  tolerate: upgradeCodes,
});

export const GatewayCheck = Type.Object({
  sn: Type.String(),
  version: Nullable(Type.String({ description: 'the version the gateway reports' })),
  ok: Type.Boolean({ description: 'the gateway may be upgraded with the firmware now' }),
  code: Type.Integer({ description: '0, or why not: 1001 offline, 1005 busy, 4001 already on that version' }),
  reason: Nullable(Type.String()),
});

export const gatewayCheck = endpoint({
  method: 'POST',
  path: '/api/v1/gateway/:sn/check',
  access: 'gateway.upgrade',
  summary: 'Whether the gateway may be upgraded with the firmware now (stores nothing)',
  params: SnParams,
  query: FirmQuery,
  data: GatewayCheck,
});

export const gatewaysBatchCheck = endpoint({
  method: 'POST',
  path: '/api/v1/gateways/batch/check',
  access: 'gateway.upgrade',
  encoding: 'json',
  summary:
    'For each gateway named, whether it may be upgraded with the firmware now (stores nothing); 305 for one not the caller’s',
  body: Type.Object({ firmId: FirmId, sns: SnList }),
  data: Type.Array(GatewayCheck),
});

export const gatewaysBatchUpgrade = endpoint({
  method: 'POST',
  path: '/api/v1/gateways/batch/upgrade',
  access: 'gateway.upgrade',
  writes: true,
  encoding: 'json',
  summary:
    'Upgrade gateways as a staged rollout (canary, then waves); refused whole (305, 2) when one is not the caller’s to operate; offline, busy or up-to-date ones are left out and listed',
  body: Type.Object({ firmId: FirmId, sns: SnList, ...RolloutOptions.properties }),
  data: UpgradeStarted,
  tolerate: upgradeCodes,
});

// ——— rollouts ———

const StateCounts = Type.Record(Type.String(), Type.Integer(), { description: 'devices per upgrade state' });

export const RolloutSummary = Type.Object({
  id: Type.String(),
  firmwareId: Type.Integer(),
  productName: Type.String(),
  version: Type.String(),
  deviceKind: Literals(['gateway', 'inverter'] as const),
  state: Literals(ROLLOUT_STATES),
  canarySize: Type.Integer(),
  waveSize: Type.Integer(),
  failureThreshold: Type.Integer(),
  waves: Type.Integer(),
  currentWave: Type.Integer({ description: 'the wave started last; -1 before the first' }),
  pauseReason: Nullable(Type.String()),
  createdAt: Instant,
  finishedAt: Nullable(Instant),
  total: Type.Integer(),
  counts: StateCounts,
});

export const RolloutView = Type.Object({
  ...RolloutSummary.properties,
  waveList: Type.Array(Type.Object({ wave: Type.Integer(), size: Type.Integer(), counts: StateCounts })),
  failing: Type.Array(DeviceUpgradeView, { description: 'devices that failed or are failing, with their reasons (at most 200)' }),
});

const RolloutParams = Type.Object({ id: Type.String({ pattern: '^[0-9a-f-]{36}$' }) });

export const rollout = endpoint({
  method: 'GET',
  path: '/api/v1/upgrade/rollout/:id',
  access: ['gateway.upgrade', 'inverter.upgrade'],
  summary:
    'A rollout as it stands: its waves, the devices per state, the failing devices with reasons; 404 for one the caller did not start',
  params: RolloutParams,
  data: RolloutView,
  tolerate: [ErrorCode.notFound],
});

export const rolloutDevices = endpoint({
  method: 'GET',
  path: '/api/v1/upgrade/rollout/:id/devices',
  access: ['gateway.upgrade', 'inverter.upgrade'],
  summary: 'A rollout’s devices, a page at a time, optionally of one state',
  params: RolloutParams,
  query: Type.Object({
    state: Type.Optional(UpgradeStateSchema),
    page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
    size: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  }),
  data: Type.Object({ total: Type.Integer(), list: Type.Array(DeviceUpgradeView) }),
  tolerate: [ErrorCode.notFound],
});

export const rollouts = endpoint({
  method: 'GET',
  path: '/api/v1/upgrade/rollouts',
  access: ['gateway.upgrade', 'inverter.upgrade'],
  summary: 'Rollouts the caller started (all for a system administrator), newest first, optionally of one firmware image',
  query: Type.Object({
    firmwareId: Type.Optional(Id),
    page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
    size: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
  }),
  data: Type.Object({
    total: Type.Integer(),
    list: Type.Array(RolloutSummary),
  }),
});

const rolloutAction = (action: 'pause' | 'resume' | 'cancel', summary: string) =>
  endpoint({
    method: 'POST',
    path: `/api/v1/upgrade/rollout/:id/${action}`,
    access: ['gateway.upgrade', 'inverter.upgrade'],
    writes: true,
    summary,
    params: RolloutParams,
    data: RolloutView,
    tolerate: [ErrorCode.notFound, ErrorCode.stateBlocksAction],
  });

export const pauseRollout = rolloutAction(
  'pause',
  'Pause a running rollout: no new wave starts (devices under way finish); 1005 when it is not running',
);
export const resumeRollout = rolloutAction('resume', 'Resume a paused rollout with its next wave; 1005 when it is not paused');
export const cancelRollout = rolloutAction(
  'cancel',
  'Cancel a rollout: devices not started are cancelled, downloads are told to abort, flashes under way finish; 1005 when it has ended',
);

/** The signed download link of an image (devices fetch it; no account). */
export const firmwareDownload = endpoint({
  method: 'GET',
  path: '/anonymous/firmware/:id',
  access: 'public',
  summary:
    'A firmware image by a signed link (HMAC over the id and the expiry): byte ranges for resumed downloads (206); 403 when expired or forged',
  params: IdParams,
  query: Type.Object({
    exp: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'when the link expires, epoch seconds' }),
    sig: Type.String({ pattern: '^[A-Za-z0-9_-]{43}$' }),
  }),
  data: Type.Null(),
  file: true,
  errors: {
    403: 'The link is expired or its signature does not verify: code 2',
    404: 'The image is gone: code 404',
    416: 'The range asked for is past the end of the image: code 4',
  },
});
