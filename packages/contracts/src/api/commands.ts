/**
 * Power and diagnostics: inverter boot and shutdown, inverter and gateway debug, gateway restart
 * (one, several or a batch) and a gateway setting switch. Each is a command job sent to the
 * gateway over its command channel (docs/protocol.md) and recorded for audit.
 *
 * Codes: 600 an inverter SN and 305 a gateway SN the caller cannot see; 2 one they see but may
 * not operate (a visitor of the plant, a read-only account); 1001 the gateway is offline for a
 * call that needs the answer now (boot, shutdown, debug); 1 no final answer within the command's
 * timeout; 1005 the device's state blocks it (a power command while the device is upgrading or
 * another power command of it is pending). A batch naming one gateway the caller may not operate
 * is refused whole: nothing is sent to any of them.
 */
import Type from 'typebox';
import { endpoint } from '../endpoint.ts';
import { ErrorCode } from '../errors.ts';
import { limits } from '../limits.ts';
import { DEBUG_CODE_MAX, DEBUG_TEXT_MAX, GATEWAY_SETTING_NAMES } from '../mqtt.ts';
import { Instant, Literals, Nullable, Sn, SnParams } from '../schemas.ts';

export const JOB_STATE_NAMES = [
  'queued',
  'sent',
  'acknowledged',
  'succeeded',
  'failed',
  'timed_out',
  'cancelled',
  'expired',
] as const;
export const JobStateSchema = Literals(JOB_STATE_NAMES);

/** A command job as a caller sees it. */
export const CommandJobView = Type.Object({
  jobId: Type.String(),
  sn: Type.String({ description: 'the device, or the gateway for a gateway command' }),
  gatewaySn: Type.String(),
  type: Type.String({ description: 'boot, shutdown, debug, restart, settings, read, write' }),
  state: JobStateSchema,
  error: Nullable(Type.String({ description: "the device's reason of a failure, or timed out / expired" })),
  requestedAt: Instant,
  sentAt: Nullable(Instant),
  finishedAt: Nullable(Instant),
});

export const DebugReply = Type.Object({
  ...CommandJobView.properties,
  code: Type.String({ description: 'the debug code sent' }),
  text: Nullable(Type.String({ maxLength: DEBUG_TEXT_MAX, description: 'the diagnostic text, once it came' })),
});

export const DebugInput = Type.Object({
  code: Type.String({ minLength: 1, maxLength: DEBUG_CODE_MAX, description: 'the debug code the device runs' }),
});

const powerSummary = (what: string) =>
  `${what} the inverter through its gateway: waits for the device's answer (1001 offline, 1 no answer in time, 1005 upgrading or another power command pending)`;

export const inverterBoot = endpoint({
  method: 'GET',
  path: '/api/v1/inverter/:sn/boot',
  access: 'inverter.boot',
  writes: true,
  summary: powerSummary('Power on'),
  params: SnParams,
  data: CommandJobView,
  tolerate: [ErrorCode.timeout, ErrorCode.deviceOffline, ErrorCode.stateBlocksAction],
});

export const inverterShutdown = endpoint({
  method: 'GET',
  path: '/api/v1/inverter/:sn/shutdown',
  access: 'inverter.boot',
  writes: true,
  summary: powerSummary('Power off'),
  params: SnParams,
  data: CommandJobView,
  tolerate: [ErrorCode.timeout, ErrorCode.deviceOffline, ErrorCode.stateBlocksAction],
});

export const inverterDebug = endpoint({
  method: 'POST',
  path: '/api/v1/inverter/:sn/debug',
  access: 'inverter.debug',
  writes: true,
  summary: 'Send a debug code to the inverter; the reply is read with the debug reply call as it comes (1001 offline)',
  params: SnParams,
  body: DebugInput,
  data: DebugReply,
  tolerate: [ErrorCode.deviceOffline, ErrorCode.stateBlocksAction],
});

export const inverterDebugReply = endpoint({
  method: 'GET',
  path: '/api/v1/inverter/:sn/debug/reply',
  access: 'inverter.debug',
  summary:
    'The reply of a debug job of the inverter (the latest one without jobId); waits up to waitMs for it to finish; 404 when there is none',
  params: SnParams,
  query: Type.Object({
    jobId: Type.Optional(Type.String({ maxLength: 64 })),
    waitMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000, default: 0 })),
  }),
  data: DebugReply,
  tolerate: [ErrorCode.notFound],
});

export const GatewaySnList = Type.Array(Sn, { minItems: 1, maxItems: limits.batchRestartMax });

export const RestartResult = Type.Object({
  batchId: Type.String(),
  jobs: Type.Array(CommandJobView, { description: 'one per gateway, in the order named' }),
});

export const restartGateways = endpoint({
  method: 'POST',
  path: '/api/v1/gateway/:gsns/restart',
  access: 'gateway.restart',
  writes: true,
  summary:
    'Restart one gateway, or several named by comma-separated SNs; an offline gateway restarts when it reconnects (or its job expires). Refused whole (305, 2) when one is not the caller’s to operate',
  params: Type.Object({ gsns: Type.String({ minLength: 1, maxLength: 33 * limits.batchRestartMax }) }),
  data: RestartResult,
});

export const batchRestartGateways = endpoint({
  method: 'POST',
  path: '/api/v1/gateways/batch/restart',
  access: 'gateway.restart',
  writes: true,
  encoding: 'json',
  summary: `Restart up to ${limits.batchRestartMax} gateways as one batch; refused whole (305, 2) when one is not the caller’s to operate`,
  body: Type.Object({ sns: GatewaySnList }),
  data: RestartResult,
});

export const restartProgress = endpoint({
  method: 'GET',
  path: '/api/v1/gateways/restart/:batchId',
  access: 'gateway.restart',
  summary:
    'A restart batch as it stands, one job per gateway (poll it while jobs are open); 404 for a batch the caller did not ask for',
  params: Type.Object({ batchId: Type.String({ pattern: '^[0-9a-f-]{36}$' }) }),
  data: RestartResult,
  tolerate: [ErrorCode.notFound],
});

export const gatewayDebug = endpoint({
  method: 'POST',
  path: '/api/v1/gateway/:sn/debug',
  access: 'gateway.debug',
  writes: true,
  summary: 'Send a debug code to the gateway and wait for its diagnostic text (1001 offline, 1 no answer in time)',
  params: SnParams,
  body: DebugInput,
  data: DebugReply,
  tolerate: [ErrorCode.timeout, ErrorCode.deviceOffline],
});

export const GatewaySettingInput = Type.Object({
  name: Literals(GATEWAY_SETTING_NAMES, {
    description: 'uploadInterval: seconds between readings (10–3600); bufferOffline: keep readings while offline (0 or 1)',
  }),
  value: Type.Integer(),
});

export const gatewaySettingSwitch = endpoint({
  method: 'POST',
  path: '/api/v1/gateway/:sn/settings/switch',
  access: 'gateway.setting',
  writes: true,
  summary:
    'Switch one of the gateway’s own settings; sent at once, or when the gateway reconnects (before its job expires). Waits briefly for the answer and returns the job as it stands',
  params: SnParams,
  body: GatewaySettingInput,
  data: CommandJobView,
});
