/**
 * Remote settings: the 100 group calls of the seven setting families (generated from
 * `settingFamilies`: `GET {path}/{group}/read` and `POST {path}/{group}`, or one `GET` of the
 * whole family where the family reads every group at once), which groups a device supports, and
 * the audited jobs every write becomes (history, its .xlsx, revert, batches).
 *
 * A read asks the device over its gateway and answers the group's fields (label, unit, range,
 * step, enumeration, whether writable) with the values just read. A write checks every value
 * against its field (range, step, enumeration; code 4 naming the field and what it allows,
 * nothing sent), then runs as a job: read the group (before), write, read it back (after); a
 * value read back that differs from the one requested fails the job and names the field.
 *
 * Codes: 600 an inverter the caller cannot see; 601 a group the device's protocol does not
 * support; 2 a caller who may not operate the device (a visitor, a read-only account);
 * 1001 the gateway is offline; 1 the device did not answer in time; 1008 the device refused
 * (its reason in the message); 1009 another setting change of the device is running (one at a
 * time, so each job's "before" is the device's own). Reading needs `inverter.view`, changing needs `inverter.setting`.
 */
import Type, { type Static } from 'typebox';
import { endpoint, Paged, PageQuery, XLSX_MEDIA_TYPE } from '../endpoint.ts';
import { ErrorCode } from '../errors.ts';
import { limits } from '../limits.ts';
import { Instant, Literals, Nullable, Sn, SnParams } from '../schemas.ts';
import { type SettingFamily, type SettingFamilyId, settingFamilies } from '../settingFamilies.ts';

/** A setting's value: a number (engineering units, an enumeration's value) or a text. */
export const SettingValue = Type.Union([Type.Number(), Type.String()]);
export const SettingValueOrNull = Type.Union([Type.Number(), Type.String(), Type.Null()]);
/** Field key → value. */
export const SettingValues = Type.Record(Type.String({ pattern: '^[A-Za-z][A-Za-z0-9_]{0,63}$' }), SettingValue, {
  maxProperties: 128,
});
export const SettingValuesRead = Type.Record(Type.String(), SettingValueOrNull);

export const SettingOption = Type.Object({ value: Type.Integer(), en: Type.String(), es: Type.String() });

/** A field as its protocol defines it: label, unit, range, step, enumeration, whether writable. */
const fieldDefinition = {
  key: Type.String(),
  name: Type.Object({ en: Type.String(), es: Type.String() }),
  unit: Nullable(Type.String()),
  /** 'number' (with min, max, step), 'enum' (one of `enumeration`), 'text'. */
  type: Literals(['number', 'enum', 'text'] as const),
  min: Nullable(Type.Number()),
  max: Nullable(Type.Number()),
  step: Nullable(Type.Number({ description: 'a value must be min + k × step' })),
  enumeration: Nullable(Type.Array(SettingOption)),
  writable: Type.Boolean(),
};
export const SettingFieldDefinition = Type.Object(fieldDefinition);

export const SettingField = Type.Object({
  ...fieldDefinition,
  /** As read from the device; null when not read or not implemented. */
  value: SettingValueOrNull,
});

/** A group's field definitions, known without reading the device. */
export const SettingGroupDefinition = Type.Object({ group: Type.String(), fields: Type.Array(SettingFieldDefinition) });

export const SettingGroupFields = Type.Object({ group: Type.String(), fields: Type.Array(SettingField) });

export const SettingRead = Type.Object({
  sn: Sn,
  family: Type.String(),
  /** One group, or every group of a family read whole. */
  groups: Type.Array(SettingGroupFields),
  readAt: Instant,
});

/**
 * queued (a batch's, not sent yet) → reading (the values before) → writing → verifying (read
 * back) → succeeded | failed; cancelled: a batch's job cancelled before anything was sent.
 */
export const settingJobStates = ['queued', 'reading', 'writing', 'verifying', 'succeeded', 'failed', 'cancelled'] as const;
export type SettingJobState = (typeof settingJobStates)[number];
export const finalSettingJobStates: readonly SettingJobState[] = ['succeeded', 'failed', 'cancelled'];

export const SettingDifference = Type.Object({
  key: Type.String(),
  name: Type.Object({ en: Type.String(), es: Type.String() }),
  /** The field's unit ("%", "V"), null when it has none. */
  unit: Nullable(Type.String()),
  /** An enumeration field's options (the labels of `from` and `to`), null for other fields. */
  enumeration: Nullable(Type.Array(SettingOption)),
  from: SettingValueOrNull,
  to: SettingValueOrNull,
});

export const SettingJob = Type.Object({
  id: Type.String(),
  batchId: Nullable(Type.String()),
  sn: Sn,
  family: Type.String(),
  group: Type.String(),
  /** write: asked by a user; revert: the before-values of `revertOf` written again. */
  kind: Literals(['write', 'revert'] as const),
  revertOf: Nullable(Type.String()),
  state: Literals(settingJobStates),
  requested: SettingValuesRead,
  /** The group as read before the write (null until read). */
  before: Nullable(SettingValuesRead),
  /** The group as read back after the write (null until read back). */
  after: Nullable(SettingValuesRead),
  /** What the write changed: requested fields whose value before differs from the value after. */
  changes: Type.Array(SettingDifference),
  /** Requested fields read back with another value (`from` requested, `to` read back): a failure. */
  mismatches: Type.Array(SettingDifference),
  error: Nullable(Type.String()),
  /** The catalogue code of a failure (1001 offline, 1 timed out, 1008 refused by the device, …). */
  errorCode: Nullable(Type.Integer()),
  requestedBy: Type.Object({ id: Type.Integer(), account: Type.String() }),
  createdAt: Instant,
  finishedAt: Nullable(Instant),
});
export type SettingJobData = Static<typeof SettingJob>;

export const settingBatchStates = ['running', 'finished', 'cancelled'] as const;
export const SettingBatch = Type.Object({
  id: Type.String(),
  family: Type.String(),
  group: Type.String(),
  requested: SettingValuesRead,
  state: Literals(settingBatchStates),
  total: Type.Integer(),
  /** Jobs in a final state. */
  done: Type.Integer(),
  succeeded: Type.Integer(),
  failed: Type.Integer(),
  cancelled: Type.Integer(),
  /** One per device, in the order the devices were named. */
  jobs: Type.Array(SettingJob),
  requestedBy: Type.Object({ id: Type.Integer(), account: Type.String() }),
  createdAt: Instant,
  finishedAt: Nullable(Instant),
});

export const SettingSupport = Type.Object({
  sn: Sn,
  /** The device's setting family, null when its protocol has none (no group is supported). */
  family: Nullable(Type.String()),
  /** The family's path under /api/v1 with the device's SN. */
  path: Nullable(Type.String()),
  groups: Type.Array(Type.String()),
  /** The family reads every group with one call (`{path}/read`). */
  wholeRead: Type.Boolean(),
  /**
   * Each supported group's field definitions (in `groups` order), from the device's protocol:
   * a form can be shown before, or without, reading the device (an offline one).
   */
  definitions: Type.Array(SettingGroupDefinition),
});

const WriteBody = Type.Object({ values: SettingValues });
const errors = [
  ErrorCode.timeout,
  ErrorCode.noPermission,
  ErrorCode.validation,
  ErrorCode.inverterMissing,
  ErrorCode.inverterUnsupported,
  ErrorCode.deviceOffline,
  ErrorCode.deviceRefused,
  ErrorCode.settingBusy,
] as const;

const apiPath = (familyPath: string) => `/api/v1/${familyPath.replace('{sn}', ':sn')}`;

export interface SettingGroupEndpoints {
  family: SettingFamilyId;
  group: string;
  read: ReturnType<typeof readEndpoint>;
  write: ReturnType<typeof writeEndpoint>;
}

function readEndpoint(family: SettingFamily, group: string | null) {
  const path = group === null ? `/api/v1/${family.wholeRead!.replace('{sn}', ':sn')}` : `${apiPath(family.path)}/${group}/read`;
  return endpoint({
    method: 'GET',
    path,
    access: 'inverter.view',
    summary:
      group === null
        ? `Read every ${family.id} setting group from the device: fields with their current values`
        : `Read the ${family.id} setting group ${group} from the device: fields with their current values`,
    params: SnParams,
    data: SettingRead,
    tolerate: errors,
  });
}

function writeEndpoint(family: SettingFamily, group: string) {
  return endpoint({
    method: 'POST',
    path: `${apiPath(family.path)}/${group}`,
    access: 'inverter.setting',
    writes: true,
    encoding: 'json',
    summary: `Write the ${family.id} setting group ${group}: checked against the fields, then read, written and read back as an audited job`,
    params: SnParams,
    body: WriteBody,
    data: SettingJob,
    tolerate: errors,
  });
}

/** Every group's read and write, family by family (a whole-read family shares one read). */
export const settingGroupEndpoints: readonly SettingGroupEndpoints[] = settingFamilies.flatMap((family) => {
  const whole = family.wholeRead ? readEndpoint(family, null) : null;
  return family.groups.map((group) => ({
    family: family.id,
    group,
    read: whole ?? readEndpoint(family, group),
    write: writeEndpoint(family, group),
  }));
});

/** Every distinct setting-group endpoint (the 100 calls). */
export const settingCalls = [...new Set(settingGroupEndpoints.flatMap((e) => [e.read, e.write]))] as readonly (
  | SettingGroupEndpoints['read']
  | SettingGroupEndpoints['write']
)[];

export function settingEndpoints(family: string, group: string): SettingGroupEndpoints | undefined {
  return settingGroupEndpoints.find((e) => e.family === family && e.group === group);
}

export const settingSupport = endpoint({
  method: 'GET',
  path: '/api/v1/inverter/setting/:sn/support',
  access: 'inverter.view',
  summary:
    "The device's setting family, the groups it supports and their field definitions (from its protocol, without reading the device)",
  params: SnParams,
  data: SettingSupport,
  tolerate: [ErrorCode.inverterMissing],
});

export const settingJobs = endpoint({
  method: 'GET',
  path: '/api/v1/inverter/setting/:sn/jobs',
  access: 'inverter.view',
  summary: "The device's setting jobs, newest first, with before, requested and after values and the differences",
  params: SnParams,
  query: Type.Object(PageQuery),
  data: Paged(SettingJob),
  tolerate: [ErrorCode.inverterMissing],
});

export const settingJobsDownload = endpoint({
  method: 'GET',
  path: '/api/v1/inverter/setting/:sn/jobs/download',
  access: 'inverter.view',
  summary: "The device's setting jobs as .xlsx, one row per changed field, in the request language",
  params: SnParams,
  query: Type.Object({ lan: Type.Optional(Type.String({ maxLength: 8 })) }),
  data: Type.Null(),
  file: true,
  fileType: XLSX_MEDIA_TYPE,
});

const JobParams = Type.Object({ id: Type.String({ pattern: '^[0-9a-f-]{36}$' }) });

export const settingJob = endpoint({
  method: 'GET',
  path: '/api/v1/setting/job/:id',
  access: 'inverter.view',
  summary: 'One setting job as it stands (poll it while it runs)',
  params: JobParams,
  data: SettingJob,
  tolerate: [ErrorCode.notFound],
});

export const revertSettingJob = endpoint({
  method: 'POST',
  path: '/api/v1/setting/job/:id/revert',
  access: 'inverter.setting',
  writes: true,
  summary: "Write a finished job's before-values again, as a new audited job",
  params: JobParams,
  data: SettingJob,
  tolerate: [...errors, ErrorCode.notFound],
});

export const settingBatch = endpoint({
  method: 'POST',
  path: '/api/v1/setting/batch',
  access: 'inverter.setting',
  writes: true,
  encoding: 'json',
  summary: `One group's values to up to ${limits.settingBatchDevices} devices of every family that has the group (each device's values checked against its own protocol's fields): refused whole when one of them may not be operated, does not support the group or refuses a value`,
  body: Type.Object({
    /** The family the batch is asked for; its devices may be of any family with a group of this name. */
    family: Type.String({ maxLength: 16 }),
    group: Type.String({ maxLength: 32 }),
    sns: Type.Array(Sn, { minItems: 1, maxItems: limits.settingBatchDevices, uniqueItems: true }),
    values: SettingValues,
  }),
  data: SettingBatch,
  tolerate: errors,
});

const BatchParams = JobParams;

export const settingBatchGet = endpoint({
  method: 'GET',
  path: '/api/v1/setting/batch/:id',
  access: 'inverter.view',
  summary: "A batch's progress and each device's job",
  params: BatchParams,
  data: SettingBatch,
  tolerate: [ErrorCode.notFound],
});

export const settingBatchCancel = endpoint({
  method: 'POST',
  path: '/api/v1/setting/batch/:id/cancel',
  access: 'inverter.setting',
  writes: true,
  summary: "Cancel a batch's jobs that have not been sent; jobs already sent finish",
  params: BatchParams,
  data: SettingBatch,
  tolerate: [ErrorCode.notFound],
});
