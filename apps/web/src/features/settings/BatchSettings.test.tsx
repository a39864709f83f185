import { ErrorCode } from '@sunfleet/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { configure, fireEvent, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { createQueryClient } from '../../api/hooks.ts';
import { ShellContext, type ShellInfo } from '../../app/shell/shellContext.ts';
import { callsTo, fail, serve } from '../../test/pages.tsx';
import { renderWithApp } from '../../test/render.tsx';
import { DeviceSettingPage } from './DeviceSettingPage.tsx';
import type { SettingBatch, SettingField, SettingJob } from './form.ts';

// A loaded machine renders antd's tables and selects slowly: wait up to 5 s for what a step shows.
configure({ asyncUtilTimeout: 5000 });

const A = 'HYAAAAAAAAA1';
const B = 'HYBBBBBBBBB2';
const C = 'SIC0000000C3';
/** A three-phase hybrid: its family shares the single-phase one's groups. */
const D = 'HYDDDDDDDDD4';
const BATCH = '00000000-0000-4000-8000-0000000000b1';
const field: SettingField = {
  key: 'maxChargeCurrent',
  name: { en: 'Max charge current', es: 'Corriente máxima de carga' },
  unit: 'A',
  type: 'number',
  min: 0,
  max: 185,
  step: 1,
  enumeration: null,
  writable: true,
  value: 50,
};
const job = (sn: string, state: SettingJob['state'], extra: Partial<SettingJob> = {}): SettingJob => ({
  id: `00000000-0000-4000-8000-0000000000${sn === A ? 'a1' : 'a2'}`,
  batchId: BATCH,
  sn,
  family: 'dyStore',
  group: 'batt',
  kind: 'write',
  revertOf: null,
  state,
  requested: { maxChargeCurrent: 60 },
  before: null,
  after: null,
  changes: [],
  mismatches: [],
  error: null,
  errorCode: null,
  requestedBy: { id: 3, account: 'tech@demo' },
  createdAt: '2026-11-26T10:00:00.000Z',
  finishedAt: null,
  ...extra,
});
const batch = (jobs: SettingJob[], state: SettingBatch['state']): SettingBatch => {
  const count = (s: string) => jobs.filter((j) => j.state === s).length;
  return {
    id: BATCH,
    family: 'dyStore',
    group: 'batt',
    requested: { maxChargeCurrent: 60 },
    state,
    total: jobs.length,
    done: count('succeeded') + count('failed') + count('cancelled'),
    succeeded: count('succeeded'),
    failed: count('failed'),
    cancelled: count('cancelled'),
    jobs,
    requestedBy: { id: 3, account: 'tech@demo' },
    createdAt: '2026-11-26T10:00:00.000Z',
    finishedAt: null,
  };
};

function setup(polls: SettingBatch[], start: () => unknown = () => polls[0]) {
  let poll = 0;
  const support = (sn: string, family: string, groups = ['batt', 'workMode']) => ({
    sn,
    family,
    path: null,
    groups,
    wholeRead: false,
    definitions: [],
  });
  return serve([
    ['GET', `/api/v1/inverter/setting/${A}/support`, () => support(A, 'dyStore')],
    ['GET', `/api/v1/inverter/setting/${B}/support`, () => support(B, 'dyStore')],
    ['GET', `/api/v1/inverter/setting/${C}/support`, () => support(C, 'asw', ['basic', 'gridProtect'])],
    ['GET', `/api/v1/inverter/setting/${D}/support`, () => support(D, 'dyStore3p', ['batt', 'workMode', 'gridInput2'])],
    [
      'GET',
      `/api/v1/dy/store/${A}/setting/batt/read`,
      () => ({ sn: A, family: 'dyStore', groups: [{ group: 'batt', fields: [field] }], readAt: '2026-11-26T09:59:00.000Z' }),
    ],
    ['POST', '/api/v1/setting/batch', start],
    ['GET', `/api/v1/setting/batch/${BATCH}`, () => polls[Math.min(++poll, polls.length - 1)]],
    ['POST', `/api/v1/setting/batch/${BATCH}/cancel`, () => polls.at(-1)],
  ]);
}

const operator = {
  profile: {},
  routes: [],
  buttons: {},
  rights: { granted: new Set(['inverter.view', 'inverter.setting']), readOnly: false },
} as unknown as ShellInfo;

function render(sns: string[]) {
  return renderWithApp(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter initialEntries={[`/device/setting?sns=${sns.join(',')}`]}>
        <ShellContext.Provider value={operator}>
          <DeviceSettingPage withinPlant={false} />
        </ShellContext.Provider>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

async function writeSixty() {
  await waitFor(() => expect(document.querySelector('#setting-maxChargeCurrent')).toBeTruthy());
  fireEvent.change(document.querySelector('#setting-maxChargeCurrent')!, { target: { value: '60' } });
  fireEvent.click(await screen.findByTestId('setting-write'));
  expect((await screen.findByText('Write these changes to 2 inverters?')).textContent).toBeTruthy();
  fireEvent.click(screen.getByTestId('setting-confirm-ok'));
}

describe('remote settings of several inverters', { timeout: 20_000 }, () => {
  it('writes the changed values to every selected inverter and follows the batch to a result per inverter', async () => {
    const calls = setup([
      batch([job(A, 'reading'), job(B, 'queued')], 'running'),
      batch([job(A, 'succeeded'), job(B, 'writing')], 'running'),
      batch(
        [job(A, 'succeeded'), job(B, 'failed', { errorCode: 1001, error: 'read before: the gateway is offline' })],
        'finished',
      ),
    ]);
    render([A, B]);
    expect((await screen.findByTestId('batch-sns')).textContent).toBe(`${A}, ${B}`);
    await writeSixty();
    await waitFor(() => expect(callsTo(calls, '/api/v1/setting/batch', 'POST')).toHaveLength(1));
    expect(JSON.parse(callsTo(calls, '/api/v1/setting/batch', 'POST')[0]!.body!)).toEqual({
      family: 'dyStore',
      group: 'batt',
      sns: [A, B],
      values: { maxChargeCurrent: 60 },
    });
    await waitFor(() => expect(screen.getByTestId('batch-progress').getAttribute('data-state')).toBe('finished'), {
      timeout: 6000,
    });
    expect(screen.getByTestId(`batch-row-${A}`).textContent).toContain('Succeeded');
    expect(screen.getByTestId(`batch-row-${B}`).textContent).toContain('The device is offline');
    expect(screen.getByTestId('batch-count-failed').textContent).toContain('1');
    expect(screen.queryByTestId('batch-cancel')).toBeNull();
  }, 20_000);

  it('cancels what has not been sent', async () => {
    const calls = setup([
      batch([job(A, 'reading'), job(B, 'queued')], 'running'),
      batch([job(A, 'reading'), job(B, 'queued')], 'running'),
      batch([job(A, 'succeeded'), job(B, 'cancelled')], 'cancelled'),
    ]);
    render([A, B]);
    await writeSixty();
    const cancel = await screen.findByTestId('batch-cancel');
    expect(cancel.textContent).toContain('Cancel 1 not sent');
    fireEvent.click(cancel);
    await waitFor(() => expect(callsTo(calls, `/api/v1/setting/batch/${BATCH}/cancel`, 'POST')).toHaveLength(1));
    await waitFor(() => expect(screen.getByTestId(`batch-row-${B}`).textContent).toContain('Cancelled'), { timeout: 6000 });
  }, 20_000);

  it('shows a batch refused whole (a device the caller may not operate): nothing started', async () => {
    setup([], () => fail(ErrorCode.noPermission, 'inverter SIC: you may not operate it'));
    render([A, B]);
    await writeSixty();
    expect((await screen.findByTestId('settings-error-forbidden')).textContent).toContain('You may not change this device');
    expect(screen.queryByTestId('batch-progress')).toBeNull();
  });

  it('offers the groups inverters of different families share, and sends the batch for all of them', async () => {
    const calls = setup([batch([job(A, 'succeeded'), job(D, 'succeeded')], 'finished')]);
    render([A, D]);
    await writeSixty();
    await waitFor(() => expect(callsTo(calls, '/api/v1/setting/batch', 'POST')).toHaveLength(1));
    expect(JSON.parse(callsTo(calls, '/api/v1/setting/batch', 'POST')[0]!.body!)).toEqual({
      family: 'dyStore',
      group: 'batt',
      sns: [A, D],
      values: { maxChargeCurrent: 60 },
    });
  });

  it('offers no group when the selected inverters’ families share none', async () => {
    setup([]);
    render([A, C]);
    expect((await screen.findByTestId('settings-error-unsupported')).textContent).toContain('dyStore, asw');
    expect(screen.queryByTestId('setting-form')).toBeNull();
  });
});
