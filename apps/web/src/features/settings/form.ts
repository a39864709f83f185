/**
 * The rules of a setting form, without React: the types the screens use (from the contracts),
 * a value's check against its field (range, step, enumeration — the rules the server applies
 * before it sends anything), the diff a write is confirmed with, the read-back rows of a finished
 * job, when a job or batch is still worth polling, and what each refusal code means to the user.
 */
import type { DataOf, settingsApi } from '@sunfleet/contracts';

export type SettingRead = DataOf<(typeof settingsApi.settingGroupEndpoints)[number]['read']>;
export type SettingGroup = SettingRead['groups'][number];
export type SettingField = SettingGroup['fields'][number];
export type SettingJob = DataOf<typeof settingsApi.settingJob>;
export type SettingBatch = DataOf<typeof settingsApi.settingBatchGet>;
export type SettingSupport = DataOf<typeof settingsApi.settingSupport>;
export type SettingFieldDefinition = SettingSupport['definitions'][number]['fields'][number];
export type FieldValue = SettingField['value'];
/** Field key → the value typed (null: emptied). */
export type Edits = Record<string, FieldValue>;

/** Why a value may not be written, with what the field allows (for the message). */
export type Problem =
  | { kind: 'required' }
  | { kind: 'notNumber' }
  | { kind: 'range'; min: number | null; max: number | null }
  | { kind: 'step'; step: number; base: number }
  | { kind: 'option' };

/** Tolerance of the step check: values arrive as binary fractions (0.1 + 0.2). */
const STEP_EPSILON = 1e-6;

/** The problem of writing `value` to `field`, or null when it may be written. */
export function fieldProblem(field: SettingField, value: FieldValue): Problem | null {
  if (value === null || value === '') return { kind: 'required' };
  if (field.type === 'text') return null;
  if (typeof value !== 'number' || !Number.isFinite(value)) return { kind: 'notNumber' };
  if (field.type === 'enum') return field.enumeration?.some((o) => o.value === value) ? null : { kind: 'option' };
  if ((field.min !== null && value < field.min) || (field.max !== null && value > field.max))
    return { kind: 'range', min: field.min, max: field.max };
  if (field.step !== null && field.step > 0) {
    const base = field.min ?? 0;
    const k = (value - base) / field.step;
    if (Math.abs(k - Math.round(k)) > STEP_EPSILON) return { kind: 'step', step: field.step, base };
  }
  return null;
}

/** Two values are the same setting (numbers within rounding, a text and its number alike). */
export function sameValue(a: FieldValue | undefined, b: FieldValue | undefined): boolean {
  if (typeof a === 'number' && typeof b === 'number') return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
  if (a === null || a === undefined || b === null || b === undefined) return (a ?? null) === (b ?? null);
  return String(a) === String(b);
}

/** One line of the confirmation: a field, the value the device holds, the value to write. */
export interface DiffRow {
  key: string;
  name: SettingField['name'];
  from: FieldValue;
  to: FieldValue;
}

/** The writable fields whose typed value differs from the one read, in the group's order. */
export function buildDiff(fields: readonly SettingField[], edits: Edits): DiffRow[] {
  const rows: DiffRow[] = [];
  for (const f of fields) {
    if (!f.writable || !(f.key in edits)) continue;
    const to = edits[f.key] ?? null;
    if (!sameValue(f.value, to)) rows.push({ key: f.key, name: f.name, from: f.value, to });
  }
  return rows;
}

/** Every edited field's problem (key → problem); empty when the write may go. */
export function formProblems(fields: readonly SettingField[], edits: Edits): Record<string, Problem> {
  const out: Record<string, Problem> = {};
  for (const row of buildDiff(fields, edits)) {
    const field = fields.find((f) => f.key === row.key)!;
    const problem = fieldProblem(field, row.to);
    if (problem) out[row.key] = problem;
  }
  return out;
}

/** The body of the write: the changed fields (only called once `formProblems` is empty). */
export function valuesOf(diff: readonly DiffRow[]): Record<string, number | string> {
  const values: Record<string, number | string> = {};
  for (const row of diff) if (row.to !== null) values[row.key] = row.to;
  return values;
}

/** One requested field of a job: before, requested, read back; `mismatch` when read back differs. */
export interface ResultRow {
  key: string;
  name: SettingField['name'] | null;
  before: FieldValue;
  requested: FieldValue;
  after: FieldValue;
  mismatch: boolean;
}

/** The requested fields of a job with their read-back values, the mismatching ones marked. */
export function resultRows(job: SettingJob, fields: readonly SettingField[] = []): ResultRow[] {
  const mismatched = new Set(job.mismatches.map((m) => m.key));
  const names = new Map<string, SettingField['name']>();
  for (const f of fields) names.set(f.key, f.name);
  for (const d of [...job.changes, ...job.mismatches]) names.set(d.key, d.name);
  return Object.entries(job.requested).map(([key, requested]) => ({
    key,
    name: names.get(key) ?? null,
    before: job.before?.[key] ?? null,
    requested,
    after: job.after?.[key] ?? null,
    mismatch: mismatched.has(key) || (job.after !== null && job.state !== 'cancelled' && !sameValue(job.after[key], requested)),
  }));
}

export const JOB_POLL_MS = 1000;
const finalJobStates: ReadonlySet<SettingJob['state']> = new Set(['succeeded', 'failed', 'cancelled']);

export const isFinalJob = (job: Pick<SettingJob, 'state'>) => finalJobStates.has(job.state);

/** How soon to ask again for a job (false: it is final, stop). */
export const jobPollInterval = (job: Pick<SettingJob, 'state'> | undefined): number | false =>
  job && isFinalJob(job) ? false : JOB_POLL_MS;

/** How soon to ask again for a batch (false: it has finished or was cancelled with nothing running). */
export const batchPollInterval = (batch: Pick<SettingBatch, 'state' | 'done' | 'total'> | undefined): number | false =>
  batch && batch.state !== 'running' && batch.done >= batch.total ? false : JOB_POLL_MS;

/** What a refusal or a failed job means, as a key of the settings catalogue's `errors`. */
export type ErrorKind = 'offline' | 'timeout' | 'unsupported' | 'refused' | 'invalid' | 'forbidden' | 'notFound' | 'other';

export function errorKind(code: number | null | undefined): ErrorKind {
  switch (code) {
    case 1001:
      return 'offline';
    case 1:
      return 'timeout';
    case 601:
      return 'unsupported';
    case 1008:
      return 'refused';
    case 4:
      return 'invalid';
    case 2:
      return 'forbidden';
    case 600:
    case 404:
      return 'notFound';
    default:
      return 'other';
  }
}

/**
 * The groups every selected device supports, by name, across families (the single- and
 * three-phase hybrids share theirs; the server checks each device against its own family's
 * fields); `family` is the first device's (the batch's and its template's). None when a device
 * has no family, or nothing is shared.
 */
export function commonGroups(supports: readonly SettingSupport[]): {
  family: string | null;
  groups: string[];
  families: string[];
} {
  const families = [...new Set(supports.map((s) => s.family ?? '-'))];
  if (supports.length === 0 || families.includes('-')) return { family: null, groups: [], families };
  const [first, ...rest] = supports;
  const groups = first!.groups.filter((g) => rest.every((s) => s.groups.includes(g)));
  return { family: groups.length > 0 ? first!.family : null, groups, families };
}
