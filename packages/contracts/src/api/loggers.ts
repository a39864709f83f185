/**
 * The maintenance log: one entry per maintenance action on a device or gateway (an upgrade, a
 * debug session, a restart, a power command, a remote-setting write or revert) with who asked, the command job behind it and how
 * it ended; read per device, per plant or across every plant the caller sees. Also the gateway's
 * debug reply, the catalogue of maintenance functions operators offer, and the public firmware
 * change logs.
 */
import Type from 'typebox';
import { endpoint, Paged, PageQuery } from '../endpoint.ts';
import { ErrorCode } from '../errors.ts';
import { DEBUG_TEXT_MAX } from '../mqtt.ts';
import { Id, IdParams, Instant, Literals, Nothing, Nullable, Sn, SnParams } from '../schemas.ts';
import { safeTextPattern } from '../validation.ts';
import { DebugReply } from './commands.ts';

/** 'setting' a remote-setting write, 'revert' one written back (their job id is the setting job's). */
export const MAINTENANCE_KINDS = ['upgrade', 'debug', 'restart', 'power', 'setting', 'revert'] as const;
export type MaintenanceKind = (typeof MAINTENANCE_KINDS)[number];
export const MAINTENANCE_RESULTS = ['running', 'succeeded', 'failed', 'cancelled'] as const;
export type MaintenanceResult = (typeof MAINTENANCE_RESULTS)[number];

export const MaintenanceEntry = Type.Object({
  id: Type.Integer(),
  kind: Literals(MAINTENANCE_KINDS),
  sn: Type.String({ description: 'the device, or the gateway for a gateway action' }),
  gatewaySn: Nullable(Type.String()),
  plantId: Nullable(Type.Integer()),
  plantName: Nullable(Type.String()),
  user: Type.String({ description: 'the account that asked (nickname, else account name)' }),
  jobId: Nullable(Type.String()),
  result: Literals(MAINTENANCE_RESULTS),
  /** What was asked (firmware and version, debug code, …) and what came back. */
  detail: Type.Record(Type.String(), Type.Unknown()),
  createdAt: Instant,
  finishedAt: Nullable(Instant),
});

export const MaintenanceStep = Type.Object({
  state: Type.String({ description: "a state of the entry's command job: queued, sent, acknowledged, succeeded, …" }),
  at: Instant,
  detail: Nullable(Type.String()),
});

export const MaintenanceContent = Type.Object({
  ...MaintenanceEntry.properties,
  steps: Type.Array(MaintenanceStep, { description: "the command job's state changes, oldest first" }),
});

const LogFilters = {
  ...PageQuery,
  kind: Type.Optional(Literals(MAINTENANCE_KINDS)),
  startTime: Type.Optional(Instant),
  endTime: Type.Optional(Instant),
};

const MaintenancePage = Paged(MaintenanceEntry);
const listSummary = (what: string) =>
  `${what}, newest first; filtered by kind and by a time range (startTime inclusive, endTime exclusive)`;

export const logPage = endpoint({
  method: 'GET',
  path: '/api/v1/logger/page',
  access: 'logger.upgrade.record',
  summary: listSummary('The maintenance log of every plant the caller sees, optionally of one plant (700) or one SN (404)'),
  query: Type.Object({ ...LogFilters, plantId: Type.Optional(Id), sn: Type.Optional(Sn) }),
  data: MaintenancePage,
  tolerate: [ErrorCode.notFound, ErrorCode.plantMissing],
});

export const deviceLog = endpoint({
  method: 'GET',
  path: '/api/v1/logger',
  access: 'logger.upgrade.record',
  summary: listSummary('The maintenance log of one device or gateway by SN (404 when the caller does not see it)'),
  query: Type.Object({ ...LogFilters, sn: Sn }),
  data: MaintenancePage,
  tolerate: [ErrorCode.notFound],
});

export const inverterLog = endpoint({
  method: 'GET',
  path: '/api/v1/logger/getInverterLogger/:sn',
  access: 'logger.upgrade.record',
  summary: listSummary('The maintenance log of one inverter (600 when the caller does not see it)'),
  params: SnParams,
  query: Type.Object(LogFilters),
  data: MaintenancePage,
  tolerate: [ErrorCode.inverterMissing],
});

export const plantLog = endpoint({
  method: 'GET',
  path: '/api/v1/logger/plant',
  access: 'logger.upgrade.record',
  summary: listSummary('The maintenance log of one plant: its devices and gateways (700 when the caller does not see it)'),
  query: Type.Object({ ...LogFilters, plantId: Id }),
  data: MaintenancePage,
  tolerate: [ErrorCode.plantMissing],
});

export const logContent = endpoint({
  method: 'GET',
  path: '/api/v1/logger/content',
  access: 'logger.upgrade.record',
  summary: 'One entry of the maintenance log with the steps of its command job (404 when the caller does not see it)',
  query: Type.Object({ id: Id }),
  data: MaintenanceContent,
  tolerate: [ErrorCode.notFound],
});

export const DebugSession = Type.Object({
  ...MaintenanceEntry.properties,
  code: Type.String({ description: 'the debug code sent' }),
  text: Nullable(Type.String({ maxLength: DEBUG_TEXT_MAX, description: 'the diagnostic text, once it came' })),
});

export const debugSessions = endpoint({
  method: 'GET',
  path: '/api/v1/logger/debug',
  access: 'logger.upgrade.record',
  summary:
    'Debug sessions (inverter and gateway debug commands) with their code and diagnostic text, newest first; of one plant (700) or one SN (404)',
  query: Type.Object({
    ...PageQuery,
    plantId: Type.Optional(Id),
    sn: Type.Optional(Sn),
    startTime: Type.Optional(Instant),
    endTime: Type.Optional(Instant),
  }),
  data: Paged(DebugSession),
  tolerate: [ErrorCode.notFound, ErrorCode.plantMissing],
});

export const gatewayDebugReply = endpoint({
  method: 'GET',
  path: '/api/v1/api/gate/:sn/debug/reply',
  access: 'gateway.debug',
  summary:
    'The reply of a debug job of the gateway itself (the latest one without jobId); waits up to waitMs for it to finish; 404 when there is none, 305 for a gateway the caller cannot see',
  params: SnParams,
  query: Type.Object({
    jobId: Type.Optional(Type.String({ maxLength: 64 })),
    waitMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000, default: 0 })),
  }),
  data: DebugReply,
  tolerate: [ErrorCode.notFound],
});

// ——— maintenance functions ———

export const MaintenanceFunction = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  code: Type.String({ description: 'the function code a device is sent' }),
  descriptionEn: Type.String(),
  descriptionEs: Type.String(),
  enabled: Type.Boolean(),
  updatedAt: Instant,
});

const FunctionName = Type.String({ minLength: 1, maxLength: 64, pattern: safeTextPattern });

export const FunctionInput = Type.Object(
  {
    id: Type.Optional(Id),
    name: FunctionName,
    code: Type.String({ minLength: 1, maxLength: 32, pattern: '^[A-Za-z0-9_.-]+$' }),
    descriptionEn: Type.String({ maxLength: 500 }),
    descriptionEs: Type.String({ maxLength: 500 }),
    enabled: Type.Boolean(),
  },
  { additionalProperties: false },
);

export const listFunctions = endpoint({
  method: 'GET',
  path: '/api/v1/logger/functions',
  access: 'logger.upgrade.record',
  summary: 'The maintenance functions, by name; only the enabled ones unless all=true (operators)',
  query: Type.Object({ all: Type.Optional(Type.Boolean()) }),
  data: Type.Array(MaintenanceFunction),
});

export const getFunction = endpoint({
  method: 'GET',
  path: '/api/v1/logger/function/:id',
  access: 'logger.function.edit',
  summary: 'One maintenance function (the edit form)',
  params: IdParams,
  data: MaintenanceFunction,
  tolerate: [ErrorCode.notFound],
});

export const checkFunction = endpoint({
  method: 'GET',
  path: '/api/v1/logger/function/check',
  access: 'logger.function.edit',
  summary: 'Whether a function name is free: 207 when another function has it (id: the one being edited)',
  query: Type.Object({ name: FunctionName, id: Type.Optional(Id) }),
  data: Nothing,
  tolerate: [ErrorCode.already],
});

export const saveFunction = endpoint({
  method: 'POST',
  path: '/api/v1/logger/function',
  access: 'logger.function.edit',
  writes: true,
  encoding: 'json',
  summary: 'Add a maintenance function, or edit one (id); 207 when the name is taken, 5000 when the code is',
  body: FunctionInput,
  data: MaintenanceFunction,
  tolerate: [ErrorCode.already, ErrorCode.codeExists],
});

// ——— public firmware change logs ———

export const FirmwareChangeLog = Type.Object({
  id: Type.Integer(),
  type: Literals(['gateway', 'inverter'] as const),
  productName: Type.String(),
  version: Type.String(),
  changeLog: Type.String(),
  publishedAt: Instant,
});

export const firmwareChangeLogs = endpoint({
  method: 'GET',
  path: '/anonymous/firmware/changelog',
  access: 'public',
  summary: 'The change logs of the enabled firmware images, newest first (no sign-in)',
  query: Type.Object({ ...PageQuery, type: Type.Optional(Literals(['gateway', 'inverter'] as const)) }),
  data: Paged(FirmwareChangeLog),
});
