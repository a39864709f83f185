import { ErrorCode } from '@sunfleet/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { createQueryClient } from '../../api/hooks.ts';
import { PageContext } from '../../app/pageContext.ts';
import { ShellContext, type ShellInfo } from '../../app/shell/shellContext.ts';
import { type Call, callsTo, fail, serve } from '../../test/pages.tsx';
import { renderWithApp } from '../../test/render.tsx';
import { DeviceSettingPage } from './DeviceSettingPage.tsx';
import type { SettingField, SettingJob } from './form.ts';

// A loaded machine renders antd's tables and selects slowly: wait up to 5 s for what a step shows.
configure({ asyncUtilTimeout: 5000 });

const SN = 'HYABVNAAB1ME';
const JOB = '00000000-0000-4000-8000-00000000000a';
const name = (en: string, es = en) => ({ en, es });
const fields: SettingField[] = [
  {
    key: 'maxChargeCurrent',
    name: name('Max charge current', 'Corriente máxima de carga'),
    unit: 'A',
    type: 'number',
    min: 0,
    max: 185,
    step: 1,
    enumeration: null,
    writable: true,
    value: 50,
  },
  {
    key: 'batteryType',
    name: name('Battery type'),
    unit: null,
    type: 'enum',
    min: null,
    max: null,
    step: null,
    enumeration: [
      { value: 0, en: 'Lead-acid', es: 'Plomo-ácido' },
      { value: 1, en: 'Lithium', es: 'Litio' },
    ],
    writable: true,
    value: 1,
  },
  {
    key: 'batteryCapacity',
    name: name('Capacity'),
    unit: 'Ah',
    type: 'number',
    min: null,
    max: null,
    step: null,
    enumeration: null,
    writable: false,
    value: 200,
  },
];

const job = (extra: Partial<SettingJob>): SettingJob => ({
  id: JOB,
  batchId: null,
  sn: SN,
  family: 'dyStore',
  group: 'batt',
  kind: 'write',
  revertOf: null,
  state: 'reading',
  requested: { maxChargeCurrent: 60 },
  before: null,
  after: null,
  changes: [],
  mismatches: [],
  error: null,
  errorCode: null,
  requestedBy: { id: 3, account: 'tech@demo.sunfleet.local' },
  createdAt: '2026-11-26T10:00:00.000Z',
  finishedAt: null,
  ...extra,
});
const done = (extra: Partial<SettingJob> = {}) =>
  job({
    state: 'succeeded',
    before: { maxChargeCurrent: 50 },
    after: { maxChargeCurrent: 60 },
    changes: [{ key: 'maxChargeCurrent', name: fields[0]!.name, unit: 'A', enumeration: null, from: 50, to: 60 }],
    finishedAt: '2026-11-26T10:00:03.000Z',
    ...extra,
  });

interface Setup {
  canEdit?: boolean;
  read?: () => unknown;
  write?: (call: Call) => unknown;
  /** The job as each poll answers it, in order (the last repeats). */
  polls?: SettingJob[];
  history?: SettingJob[];
}

function setup({ canEdit = true, read, write, polls = [], history = [] }: Setup = {}) {
  let poll = 0;
  return serve([
    [
      'GET',
      `/api/v1/inverter/${SN}`,
      () => ({
        sn: SN,
        alias: 'Garage',
        status: 'normal',
        state: 'normal',
        plant: { id: 7, name: 'Casa Marta', timezone: 'UTC' },
        canEdit,
      }),
    ],
    [
      'GET',
      `/api/v1/inverter/setting/${SN}/support`,
      () => ({
        sn: SN,
        family: 'dyStore',
        path: `/api/v1/dy/store/${SN}/setting`,
        groups: ['batt', 'workMode'],
        wholeRead: false,
        definitions: [
          { group: 'batt', fields: fields.map(({ value: _, ...definition }) => definition) },
          { group: 'workMode', fields: [] },
        ],
      }),
    ],
    [
      'GET',
      `/api/v1/dy/store/${SN}/setting/batt/read`,
      read ?? (() => ({ sn: SN, family: 'dyStore', groups: [{ group: 'batt', fields }], readAt: '2026-11-26T09:59:00.000Z' })),
    ],
    ['POST', `/api/v1/dy/store/${SN}/setting/batt`, write ?? (() => job({}))],
    ['GET', `/api/v1/setting/job/${JOB}`, () => polls[Math.min(poll++, polls.length - 1)]],
    ['GET', `/api/v1/inverter/setting/${SN}/jobs`, () => ({ total: history.length, list: history })],
    ['POST', `/api/v1/setting/job/${JOB}/revert`, () => done({ id: JOB.replace('a', 'b'), kind: 'revert', revertOf: JOB })],
    ['GET', '/api/v1/inverters', () => ({ total: 1, list: [{ sn: SN, alias: 'Garage' }] })],
    ['GET', '/api/v1/plants', () => ({ total: 1, list: [{ id: 7, name: 'Casa Marta' }] })],
  ]);
}

const shell = ({ granted, readOnly = false }: { granted: string[]; readOnly?: boolean }) =>
  ({
    profile: {},
    routes: [],
    buttons: { 'inverter.view': granted },
    rights: { granted: new Set(granted), readOnly },
  }) as unknown as ShellInfo;

const OPERATOR = ['inverter.view', 'inverter.setting'];

function render(path = `/device/setting?sn=${SN}`, caller = shell({ granted: OPERATOR }), withinPlant = false) {
  return renderWithApp(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter initialEntries={[path]}>
        <ShellContext.Provider value={caller}>
          <PageContext.Provider value={{ route: null, buttons: [] }}>
            <DeviceSettingPage withinPlant={withinPlant} />
          </PageContext.Provider>
        </ShellContext.Provider>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const input = (key: string) => document.querySelector<HTMLInputElement>(`#setting-${key}`)!;
async function type(key: string, value: string) {
  await waitFor(() => expect(input(key)).toBeTruthy());
  fireEvent.change(input(key), { target: { value } });
}
const WAIT = { timeout: 5000 };

describe('remote settings of one inverter', { timeout: 20_000 }, () => {
  it('reads the supported group, edits it with a changed marker, confirms the diff, writes and follows the job to its read-back', async () => {
    const calls = setup({ polls: [job({ state: 'verifying', before: { maxChargeCurrent: 50 } }), done()] });
    render();
    // Tabs of the supported groups; the first is read from the device.
    expect((await screen.findByTestId('setting-tab-batt')).textContent).toContain('Battery');
    expect(screen.getByTestId('setting-tab-workMode').textContent).toContain('Work mode');
    await waitFor(() => expect(input('maxChargeCurrent').value).toBe('50'));
    expect(screen.getByText('Max charge current (A)')).toBeTruthy();
    expect(screen.getByText('0 to 185 A, in steps of 1')).toBeTruthy();
    // A read-only field is shown, not editable.
    expect(screen.getByTestId('setting-value-batteryCapacity').textContent).toContain('200 Ah');
    expect((screen.getByTestId('setting-write') as HTMLButtonElement).disabled).toBe(true);

    await type('maxChargeCurrent', '60');
    expect(await screen.findByTestId('setting-changed-maxChargeCurrent')).toBeTruthy();
    fireEvent.click(screen.getByTestId('setting-write'));
    const diff = await screen.findByTestId('setting-diff');
    expect(within(diff).getByText('Max charge current')).toBeTruthy();
    expect(within(diff).getByText('50 A')).toBeTruthy();
    expect(within(diff).getByText('60 A')).toBeTruthy();
    expect(callsTo(calls, `/api/v1/dy/store/${SN}/setting/batt`, 'POST')).toHaveLength(0);

    fireEvent.click(screen.getByTestId('setting-confirm-ok'));
    await waitFor(() => expect(callsTo(calls, `/api/v1/dy/store/${SN}/setting/batt`, 'POST')).toHaveLength(1));
    expect(JSON.parse(callsTo(calls, `/api/v1/dy/store/${SN}/setting/batt`, 'POST')[0]!.body!)).toEqual({
      values: { maxChargeCurrent: 60 },
    });
    // Polled until final, then the read-back values.
    await waitFor(() => expect(screen.getByTestId('setting-result').getAttribute('data-state')).toBe('succeeded'), WAIT);
    expect(callsTo(calls, `/api/v1/setting/job/${JOB}`).length).toBe(2);
    expect(screen.getByTestId('result-after-maxChargeCurrent').textContent).toContain('60 A');
    // The form now shows what the device holds, and the history is asked again.
    await waitFor(() => expect(input('maxChargeCurrent').value).toBe('60'));
    expect(callsTo(calls, `/api/v1/inverter/setting/${SN}/jobs`).length).toBeGreaterThanOrEqual(2);
  }, 15_000);

  it('refuses a value off the range or step as typed, naming what the field allows', async () => {
    const calls = setup();
    render();
    await type('maxChargeCurrent', '186');
    expect(await screen.findByText('Allowed: 0 to 185 A')).toBeTruthy();
    expect((screen.getByTestId('setting-write') as HTMLButtonElement).disabled).toBe(true);
    await type('maxChargeCurrent', '60.5');
    expect(await screen.findByText('Must be 0 plus a multiple of 1')).toBeTruthy();
    expect((screen.getByTestId('setting-write') as HTMLButtonElement).disabled).toBe(true);
    await type('maxChargeCurrent', '185');
    await waitFor(() => expect((screen.getByTestId('setting-write') as HTMLButtonElement).disabled).toBe(false));
    expect(callsTo(calls, `/api/v1/dy/store/${SN}/setting/batt`, 'POST')).toHaveLength(0);
  });

  it('highlights a field the device read back with another value', async () => {
    setup({
      write: () =>
        done({
          state: 'failed',
          after: { maxChargeCurrent: 55 },
          changes: [],
          mismatches: [{ key: 'maxChargeCurrent', name: fields[0]!.name, unit: 'A', enumeration: null, from: 60, to: 55 }],
          error: 'read back differs: maxChargeCurrent',
        }),
    });
    render();
    await type('maxChargeCurrent', '60');
    fireEvent.click(await screen.findByTestId('setting-write'));
    fireEvent.click(await screen.findByTestId('setting-confirm-ok'));
    await waitFor(() => expect(screen.getByTestId('setting-result').getAttribute('data-state')).toBe('failed'));
    expect(screen.getByTestId('settings-error-mismatch').textContent).toContain('Max charge current');
    const row = screen.getByTestId('result-row-maxChargeCurrent');
    expect(row.getAttribute('data-mismatch')).toBe('true');
    expect(screen.getByTestId('result-after-maxChargeCurrent').textContent).toContain('55 A · differs');
  });

  it('an offline device shows the group’s form from its definitions, disabled, under the offline notice', async () => {
    const calls = setup({ read: () => fail(ErrorCode.deviceOffline, 'x') });
    render();
    expect((await screen.findByTestId('settings-error-offline')).textContent).toContain('The device is offline');
    const form = await screen.findByTestId('setting-form');
    expect(form.getAttribute('data-disabled')).toBe('true');
    expect(form.textContent).toContain('Max charge current (A)');
    expect(form.textContent).toContain('Capacity (Ah)');
    expect(input('maxChargeCurrent').disabled).toBe(true);
    expect(input('maxChargeCurrent').value).toBe('');
    expect((screen.getByTestId('setting-write') as HTMLButtonElement).disabled).toBe(true);
    expect(callsTo(calls, `/api/v1/dy/store/${SN}/setting/batt`, 'POST')).toHaveLength(0);
  });

  it.each([
    [1, 'timeout', 'The device did not answer in time'],
    [601, 'unsupported', 'These settings are not supported'],
  ])('a read answered %i shows what it means', async (code, kind, text) => {
    setup({ read: () => fail(code, 'x') });
    render();
    expect((await screen.findByTestId(`settings-error-${kind}`)).textContent).toContain(text);
    expect(screen.queryByTestId('setting-form')).toBeNull();
  });

  it.each([
    [1008, 'refused', 'Anti-islanding active'],
    [4, 'invalid', 'maxChargeCurrent (Max charge current): 60 is out of range; allowed 0..50 A'],
    [2, 'forbidden', 'Your account can read these settings but not write them.'],
  ])('a write answered %i shows what it means, the values typed kept', async (code, kind, text) => {
    setup({ write: () => fail(code, text) });
    render();
    await type('maxChargeCurrent', '60');
    fireEvent.click(await screen.findByTestId('setting-write'));
    fireEvent.click(await screen.findByTestId('setting-confirm-ok'));
    expect((await screen.findByTestId(`settings-error-${kind}`)).textContent).toContain(text);
    expect(input('maxChargeCurrent').value).toBe('60');
  });

  it('shows a visitor of the plant the values with no write control', async () => {
    setup({ canEdit: false, history: [done()] });
    render();
    expect((await screen.findByTestId('setting-value-maxChargeCurrent')).textContent).toContain('50 A');
    expect(screen.getByTestId('setting-value-batteryType').textContent).toContain('Lithium');
    expect(screen.getByTestId('settings-read-only')).toBeTruthy();
    expect(document.querySelector('#setting-maxChargeCurrent input, input#setting-maxChargeCurrent')).toBeNull();
    expect(screen.queryByTestId('setting-write')).toBeNull();
    await screen.findByTestId(`history-row-${JOB}`);
    expect(screen.queryByTestId(`revert-${JOB}`)).toBeNull();
  });

  it('shows a read-only account no write control, whatever it is granted', async () => {
    setup({ history: [done()] });
    render(undefined, shell({ granted: OPERATOR, readOnly: true }));
    expect(await screen.findByTestId('setting-value-maxChargeCurrent')).toBeTruthy();
    expect(screen.queryByTestId('setting-write')).toBeNull();
  });

  it('lists the history with its differences and reverts a job after the confirmation', async () => {
    const calls = setup({ history: [done()] });
    render();
    const row = await screen.findByTestId(`history-row-${JOB}`);
    expect(row.textContent).toContain('tech@demo.sunfleet.local');
    expect(row.textContent).toContain('Battery');
    expect(row.textContent).toContain('Max charge current: 50 A→60 A');
    fireEvent.click(within(row).getByTestId(`revert-${JOB}`));
    expect(callsTo(calls, `/api/v1/setting/job/${JOB}/revert`, 'POST')).toHaveLength(0);
    fireEvent.click(await screen.findByTestId('revert-ok'));
    await waitFor(() => expect(callsTo(calls, `/api/v1/setting/job/${JOB}/revert`, 'POST')).toHaveLength(1));
    expect(await screen.findByText('Revert', { selector: 'h5' })).toBeTruthy();
  });

  it('asks for a plant, then an inverter, when none is named', async () => {
    setup();
    render('/device/setting');
    expect(await screen.findByText('Pick a plant, then one of its inverters')).toBeTruthy();
  });

  it('within a plant: the plant is fixed, its inverters are offered, the one picked opens', async () => {
    const calls = setup();
    render('/plants/device/setting?plantId=7', undefined, true);
    expect(await screen.findByText('Pick an inverter of the plant')).toBeTruthy();
    expect(screen.queryByTestId('setting-plant')).toBeNull();
    await waitFor(() => expect(callsTo(calls, '/api/v1/inverters')[0]?.url.searchParams.get('plantId')).toBe('7'));
  });

  it('with a plant and an SN in the address, opens that inverter with the plant kept', async () => {
    setup();
    render(`/plants/device/setting?plantId=7&sn=${SN}`, undefined, true);
    expect(await screen.findByTestId('setting-tab-batt')).toBeTruthy();
    expect(screen.queryByTestId('setting-plant')).toBeNull();
  });
});
