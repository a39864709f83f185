import { describe, expect, it } from 'vitest';
import {
  batchPollInterval,
  buildDiff,
  commonGroups,
  errorKind,
  fieldProblem,
  formProblems,
  JOB_POLL_MS,
  jobPollInterval,
  resultRows,
  type SettingField,
  type SettingJob,
  valuesOf,
} from './form.ts';

const name = (en: string) => ({ en, es: `${en} (es)` });
const number = (key: string, extra: Partial<SettingField> = {}): SettingField => ({
  key,
  name: name(key),
  unit: 'A',
  type: 'number',
  min: 0,
  max: 185,
  step: 1,
  enumeration: null,
  writable: true,
  value: 50,
  ...extra,
});
const mode: SettingField = {
  key: 'workMode',
  name: name('Work mode'),
  unit: null,
  type: 'enum',
  min: null,
  max: null,
  step: null,
  enumeration: [
    { value: 0, en: 'Selling first', es: 'Venta primero' },
    { value: 2, en: 'Zero export', es: 'Exportación cero' },
  ],
  writable: true,
  value: 0,
};

describe('a value against its field (the server’s rules)', () => {
  it('takes the range’s edges and refuses one step past them', () => {
    const f = number('maxCharge');
    expect(fieldProblem(f, 0)).toBeNull();
    expect(fieldProblem(f, 185)).toBeNull();
    expect(fieldProblem(f, -1)).toEqual({ kind: 'range', min: 0, max: 185 });
    expect(fieldProblem(f, 186)).toEqual({ kind: 'range', min: 0, max: 185 });
  });

  it('takes whole steps from the minimum (binary fractions within rounding), refuses the others', () => {
    const f = number('voltage', { min: 40, max: 60, step: 0.1 });
    expect(fieldProblem(f, 40.3)).toBeNull();
    expect(fieldProblem(f, 0.1 + 0.2 + 40)).toBeNull();
    expect(fieldProblem(f, 40.35)).toEqual({ kind: 'step', step: 0.1, base: 40 });
    expect(fieldProblem(number('n', { min: 5, step: 10 }), 25)).toBeNull();
    expect(fieldProblem(number('n', { min: 5, step: 10 }), 20)).toMatchObject({ kind: 'step', base: 5 });
  });

  it('takes an open range on the side without a limit', () => {
    expect(fieldProblem(number('n', { min: null, max: 10, step: null }), -1e6)).toBeNull();
    expect(fieldProblem(number('n', { min: null, max: 10, step: null }), 10.5)).toEqual({ kind: 'range', min: null, max: 10 });
  });

  it('takes an enumeration’s values only', () => {
    expect(fieldProblem(mode, 2)).toBeNull();
    expect(fieldProblem(mode, 1)).toEqual({ kind: 'option' });
  });

  it('wants a value, and a number for a number field', () => {
    expect(fieldProblem(number('n'), null)).toEqual({ kind: 'required' });
    expect(fieldProblem(number('n'), 'abc')).toEqual({ kind: 'notNumber' });
    expect(fieldProblem({ ...number('t'), type: 'text', min: null, max: null, step: null }, 'abc')).toBeNull();
  });
});

describe('the diff a write is confirmed with', () => {
  const fields = [number('a'), number('b', { writable: false }), mode, number('c', { value: 10 })];

  it('lists the writable fields whose typed value differs, in the group’s order, from → to', () => {
    const diff = buildDiff(fields, { c: 12, a: 60, b: 99, workMode: 0 });
    expect(diff).toEqual([
      { key: 'a', name: name('a'), from: 50, to: 60 },
      { key: 'c', name: name('c'), from: 10, to: 12 },
    ]);
    expect(valuesOf(diff)).toEqual({ a: 60, c: 12 });
  });

  it('drops a field typed back to the value read', () => {
    expect(buildDiff(fields, { a: 50, workMode: 0 })).toEqual([]);
  });

  it('names each changed field’s problem and nothing else', () => {
    expect(formProblems(fields, { a: 200, c: 11, workMode: 1 })).toEqual({
      a: { kind: 'range', min: 0, max: 185 },
      workMode: { kind: 'option' },
    });
    expect(formProblems(fields, { a: 60 })).toEqual({});
  });
});

const job = (extra: Partial<SettingJob> = {}): SettingJob => ({
  id: '00000000-0000-4000-8000-000000000001',
  batchId: null,
  sn: 'HYABVNAAB1ME',
  family: 'dyStore',
  group: 'batt',
  kind: 'write',
  revertOf: null,
  state: 'succeeded',
  requested: { a: 60, c: 12 },
  before: { a: 50, c: 10 },
  after: { a: 60, c: 11 },
  changes: [{ key: 'a', name: name('a'), unit: null, enumeration: null, from: 50, to: 60 }],
  mismatches: [{ key: 'c', name: name('c'), unit: null, enumeration: null, from: 12, to: 11 }],
  error: 'read back differs: c',
  errorCode: null,
  requestedBy: { id: 1, account: 'tech@demo' },
  createdAt: '2026-11-26T10:00:00.000Z',
  finishedAt: '2026-11-26T10:00:02.000Z',
  ...extra,
});

describe('the result of a job', () => {
  it('shows each requested field before, asked and read back, the differing ones marked', () => {
    expect(resultRows(job({ state: 'failed' }))).toEqual([
      { key: 'a', name: name('a'), before: 50, requested: 60, after: 60, mismatch: false },
      { key: 'c', name: name('c'), before: 10, requested: 12, after: 11, mismatch: true },
    ]);
  });

  it('marks nothing while nothing has been read back', () => {
    const rows = resultRows(job({ state: 'writing', after: null, mismatches: [] }));
    expect(rows.map((r) => [r.after, r.mismatch])).toEqual([
      [null, false],
      [null, false],
    ]);
  });
});

describe('polling', () => {
  it('asks for a job again until it is final', () => {
    for (const state of ['queued', 'reading', 'writing', 'verifying'] as const)
      expect(jobPollInterval({ state })).toBe(JOB_POLL_MS);
    for (const state of ['succeeded', 'failed', 'cancelled'] as const) expect(jobPollInterval({ state })).toBe(false);
    expect(jobPollInterval(undefined)).toBe(JOB_POLL_MS);
  });

  it('asks for a batch again while it runs or a cancelled batch still has jobs finishing', () => {
    expect(batchPollInterval({ state: 'running', done: 3, total: 3 })).toBe(JOB_POLL_MS);
    expect(batchPollInterval({ state: 'cancelled', done: 2, total: 3 })).toBe(JOB_POLL_MS);
    expect(batchPollInterval({ state: 'cancelled', done: 3, total: 3 })).toBe(false);
    expect(batchPollInterval({ state: 'finished', done: 3, total: 3 })).toBe(false);
  });
});

describe('codes and batches', () => {
  it('names what each code means', () => {
    expect([1001, 1, 601, 1008, 4, 2, 600, 404, 500, null].map(errorKind)).toEqual([
      'offline',
      'timeout',
      'unsupported',
      'refused',
      'invalid',
      'forbidden',
      'notFound',
      'notFound',
      'other',
      'other',
    ]);
  });

  it('offers the groups every selected device supports, also across families sharing them', () => {
    const s = (sn: string, family: string | null, groups: string[]) => ({
      sn,
      family,
      path: null,
      groups,
      wholeRead: false,
      definitions: [],
    });
    expect(commonGroups([s('A', 'dyStore', ['batt', 'workMode', 'basic']), s('B', 'dyStore', ['workMode', 'batt'])])).toEqual({
      family: 'dyStore',
      groups: ['batt', 'workMode'],
      families: ['dyStore'],
    });
    // The single- and three-phase hybrids share their groups: the first device's family names the batch.
    expect(commonGroups([s('A', 'dyStore3p', ['batt', 'gridInput2']), s('B', 'dyStore', ['batt'])])).toEqual({
      family: 'dyStore3p',
      groups: ['batt'],
      families: ['dyStore3p', 'dyStore'],
    });
    expect(commonGroups([s('A', 'dyStore', ['batt']), s('B', 'asw', ['basic'])])).toMatchObject({ family: null, groups: [] });
    expect(commonGroups([s('A', null, [])])).toMatchObject({ family: null, groups: [] });
    expect(commonGroups([s('A', 'dyStore', ['basic']), s('B', null, [])])).toMatchObject({ family: null, groups: [] });
  });
});
