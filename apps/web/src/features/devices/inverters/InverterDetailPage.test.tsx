import { ErrorCode, inverterTypeName } from '@sunfleet/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { callsTo, fail, renderPage, serve } from '../../../test/pages.tsx';
import InverterDetailPage from './InverterDetailPage.tsx';

// Canvas charts do not draw in jsdom: the chart shows which series it was given.
vi.mock('../../../components/EChart.tsx', () => ({
  EChart: ({ option, testId }: { option: { series: Array<{ id: string }> }; testId?: string }) => (
    <div data-testid={testId} data-series={option.series.map((s) => s.id).join(',')} />
  ),
}));

const SN = 'HYABVNAAB1ME';
const detail = {
  id: 12,
  sn: SN,
  alias: 'Casa roof',
  status: 'normal',
  state: 'normal',
  plant: { id: 7, name: 'Ciudad de México Solar Farmhouse', timezone: 'America/Mexico_City' },
  gateway: { id: 4, sn: 'SFGW000004', alias: null, status: 'online' },
  protocol: { id: 'sunfleet-hybrid-3p', name: 'Sunfleet three-phase hybrid inverter' },
  deviceType: 94,
  typeKey: 'threePhaseHighVoltage',
  ratedPower: 10_000,
  mpptCount: 2,
  phaseCount: 3,
  power: 3579,
  todayEnergy: 31_600,
  totalEnergy: 59_354_900,
  temperature: 31.1,
  runningState: 'Normal',
  info: [{ key: 'controlFirmware', name: 'Control board firmware', unit: null, value: '0x01 0x04', text: null }],
  faults: [{ code: 'gridOvervoltage', level: 'warning', text: 'Grid overvoltage' }],
  groups: { grid: true, meter: false, battery: true, eps: false, load: false },
  canEdit: true,
  canDelete: false,
  canPower: true,
  lastUpdate: '2026-05-20T10:00:00.000Z',
  createdAt: '2026-01-01T00:00:00.000Z',
};
const params = [
  'pvPower',
  'activePower',
  'batterySoc',
  'pv1Voltage',
  'pv1Current',
  'pv2Voltage',
  'pv2Current',
  'gridFrequency',
].map((key) => ({ key, name: `Name of ${key}`, unit: key.includes('Voltage') ? 'V' : 'W', stored: false }));
const day = {
  date: '2026-05-20',
  timezone: 'America/Mexico_City',
  times: ['2026-05-20T16:00:00.000Z', '2026-05-20T16:05:00.000Z'],
  series: [{ key: 'pvPower', name: 'PV power', unit: 'W', values: [4200, 4300] }],
  energy: { pv: 31_600, load: 21_500, gridImport: 3600, gridExport: 0, charge: 17_200, discharge: 4200, peakPower: 4891 },
};

const job = (type: string, state: string, error: string | null) => ({
  jobId: '5f0c2b1e-8d7a-4a43-9f55-0d1c2e3f4a5b',
  sn: SN,
  gatewaySn: detail.gateway.sn,
  type,
  state,
  error,
  requestedAt: '2026-05-20T10:00:00.000Z',
  sentAt: '2026-05-20T10:00:00.100Z',
  finishedAt: '2026-05-20T10:00:00.400Z',
});

/** The detail the fake server answers (a test may show another inverter). */
let current: Record<string, unknown> = detail;

function backend(profiles: Array<{ id: number; name: string; params: string[]; updatedAt: string }> = []) {
  let saved = profiles;
  return serve([
    ['GET', `/api/v1/inverter/${SN}`, () => current],
    [
      'GET',
      `/api/v1/inverter/${SN}/flow`,
      () => ({
        pv: 3600,
        load: 1200,
        grid: -2000,
        battery: -400,
        soc: 58,
        hasPv: true,
        hasBattery: true,
        hasGrid: true,
        hasLoad: true,
        at: detail.lastUpdate,
      }),
    ],
    [
      'GET',
      `/api/v1/inverter/${SN}/input/realtime`,
      () => ({
        at: detail.lastUpdate,
        totalPower: 4450,
        inputs: [
          { index: 1, name: 'PV1', kind: 'mppt', voltage: 532.4, current: 4.2, power: 2236 },
          { index: 2, name: 'PV2', kind: 'mppt', voltage: 498.1, current: 4.45, power: 2214 },
        ],
      }),
    ],
    [
      'GET',
      `/api/v1/inverter/${SN}/output/realtime`,
      () => ({
        at: detail.lastUpdate,
        phases: [
          { phase: 'L1', voltage: 126.4, current: 9.44, power: null },
          { phase: 'L2', voltage: 126.2, current: 9.45, power: null },
          { phase: 'L3', voltage: 125.9, current: 9.46, power: null },
        ],
        frequency: 60.02,
        activePower: 3579,
        reactivePower: 14,
        powerFactor: 0.996,
      }),
    ],
    ['GET', `/api/v1/inverter/${SN}/pvIVRealtime`, () => ({ at: null, inputs: [] })],
    ['GET', `/api/v1/inverter/${SN}/shutdown`, () => job('shutdown', 'succeeded', null)],
    ['GET', `/api/v1/inverter/${SN}/boot`, () => fail(ErrorCode.deviceOffline, 'The device is offline')],
    ['GET', /\/api\/v1\/inverter\/[^/]+\/(input|output)\/day$/, () => ({ ...day, energy: undefined })],
    ['GET', `/api/v1/inverter/${SN}/day`, () => day],
    [
      'GET',
      '/api/v1/inverter/params',
      () => ({ protocol: 'sunfleet-hybrid-3p', params, defaults: ['pvPower'], maxSelected: 6, maxProfiles: 6 }),
    ],
    ['GET', '/api/v1/inverter/params/custom', () => saved],
    [
      'POST',
      '/api/v1/inverter/params/custom',
      (c) => {
        const body = JSON.parse(c.body ?? '{}') as { profiles: Array<{ name: string; params: string[] }> };
        saved = body.profiles.map((p, i) => ({ id: i + 1, ...p, updatedAt: '2026-05-20T10:00:00.000Z' }));
        return saved;
      },
    ],
  ]);
}

/** The picker opens once the inverter's parameters are known. */
async function openPicker() {
  const button = (await screen.findByTestId('param-picker-open', {}, { timeout: 5000 })) as HTMLButtonElement;
  await waitFor(() => expect(button.disabled).toBe(false), { timeout: 5000 });
  fireEvent.click(button);
}

const render = (path: string, buttons: string[] = ['inverter.alias', 'inverter.delete']) =>
  renderPage(<InverterDetailPage />, { path, pattern: '/device/inverter/:sn', buttons });

describe('inverter detail', () => {
  it('names a single-phase string inverter once (header and type field alike) and shows it off after a power-off', async () => {
    current = {
      ...detail,
      deviceType: 2,
      typeKey: 'singlePhase',
      status: 'normal',
      state: 'off',
      protocol: { id: 'sunfleet-string-1p', name: 'Sunfleet single-phase string inverter' },
      groups: { grid: true, meter: false, battery: false, eps: false, load: false },
      info: [{ key: 'deviceType', name: 'Device type', unit: null, value: 2, text: inverterTypeName(2, 'en') }],
    };
    try {
      backend();
      render(`/device/inverter/${SN}`);
      const type = await screen.findByTestId('detail-type', {}, { timeout: 5000 });
      expect(type.textContent).toBe('Single-phase');
      expect(type.textContent).toBe(inverterTypeName('singlePhase', 'en'));
      expect(screen.getByTestId('inverter-header').textContent).not.toMatch(/hybrid/i);
      expect(screen.getByTestId('detail-status').textContent).toBe('Off');
    } finally {
      current = detail;
    }
  }, 20_000);

  it('shows the header, the type name, faults, only the groups the protocol has, and rename by rights', async () => {
    backend();
    render(`/device/inverter/${SN}`);
    expect((await screen.findByTestId('detail-name', {}, { timeout: 5000 })).textContent).toBe('Casa roof');
    expect(screen.getByTestId('detail-sn').textContent).toContain(SN);
    expect(screen.getByTestId('detail-type').textContent).toBe('Three-phase high-voltage');
    expect(screen.getByTestId('fact-plant').textContent).toContain('Ciudad de México Solar Farmhouse');
    expect(screen.getByTestId('fact-rated').textContent).toContain('10.0 kW');
    expect(screen.getByTestId('faults').textContent).toContain('Grid overvoltage');
    expect(screen.getByTestId('inverter-power').textContent).toBe('3.6 kW');
    expect(screen.getByTestId('tab-grid')).toBeTruthy();
    expect(screen.getByTestId('tab-battery')).toBeTruthy();
    expect(screen.queryByTestId('tab-eps')).toBeNull();
    expect(screen.queryByTestId('tab-meter')).toBeNull();
    // canEdit with inverter.alias: rename; canDelete false: no delete even with the button granted.
    expect(screen.getByTestId('detail-rename')).toBeTruthy();
    expect(screen.queryByTestId('detail-delete')).toBeNull();
  }, 20_000);

  it('shows the DC input per MPPT and the AC output per phase', async () => {
    backend();
    render(`/device/inverter/${SN}?tab=realtime`);
    const input = await screen.findByTestId('input-table', {}, { timeout: 5000 });
    await waitFor(() => expect(within(input).getByTestId('input-power-PV1').textContent).toBe('2.2 kW'));
    expect(input.textContent).toContain('532.4 V');
    expect(input.textContent).toContain('4.45 A');
    expect(screen.getByTestId('input-total-power').textContent).toBe('4.5 kW');
    const phases = await screen.findByTestId('output-phases');
    expect(phases.textContent).toContain('L3');
    expect(phases.textContent).toContain('125.9 V');
    expect(phases.textContent).toContain('9.46 A');
    expect(screen.getByTestId('output-frequency').textContent).toBe('60.02 Hz');
    expect(screen.getByTestId('output-pf').textContent).toBe('0.996');
  }, 20_000);

  it('picks at most 6 parameters, saves them as a profile and draws them', async () => {
    const calls = backend();
    render(`/device/inverter/${SN}?tab=charts`);
    await openPicker();
    const dialog = await screen.findByTestId('param-dialog');
    await waitFor(() => expect(within(dialog).getByTestId('param-count').textContent).toBe('0 of 6 parameters chosen'));
    const keys = params.map((p) => p.key);
    const box = (key: string) => {
      const el = within(dialog).getByTestId(`param-${key}`);
      return (el.tagName === 'INPUT' ? el : el.querySelector('input')) as HTMLInputElement;
    };
    for (const key of keys.slice(0, 6)) fireEvent.click(box(key));
    expect(within(dialog).getByTestId('param-count').textContent).toBe('6 of 6 parameters chosen');
    // The seventh and eighth boxes are locked; clicking one changes nothing.
    const seventh = box(keys[6]!);
    expect(seventh.disabled).toBe(true);
    fireEvent.click(seventh);
    expect(within(dialog).getByTestId('param-count').textContent).toBe('6 of 6 parameters chosen');

    fireEvent.change(within(dialog).getByTestId('profile-name'), { target: { value: 'Strings and grid' } });
    fireEvent.click(within(dialog).getByTestId('profile-save'));
    await waitFor(() => expect(callsTo(calls, '/api/v1/inverter/params/custom', 'POST')).toHaveLength(1));
    const body = JSON.parse(callsTo(calls, '/api/v1/inverter/params/custom', 'POST')[0]!.body!);
    expect(body).toEqual({ profiles: [{ name: 'Strings and grid', params: keys.slice(0, 6) }] });
    expect(await within(dialog).findByTestId('profile-Strings and grid')).toBeTruthy();

    fireEvent.click(within(dialog).getByTestId('param-apply'));
    await waitFor(() =>
      expect(callsTo(calls, `/api/v1/inverter/${SN}/day`).some((c) => c.url.searchParams.getAll('params').length === 6)).toBe(
        true,
      ),
    );
    const last = callsTo(calls, `/api/v1/inverter/${SN}/day`).at(-1)!;
    expect(last.url.searchParams.getAll('params')).toEqual(keys.slice(0, 6));
    expect(screen.getByTestId('location').textContent).toContain(`p=${keys.slice(0, 6).join('%2C')}`);
    expect(screen.getByTestId('param-picker-open').textContent).toContain('6/6');
    expect(screen.getByTestId('inverter-day-energy').textContent).toContain('Generation 31.6 kWh');
  }, 30_000);

  it('refuses a seventh profile but replaces one of the same name', async () => {
    const six = Array.from({ length: 6 }, (_, i) => ({
      id: i + 1,
      name: `P${i + 1}`,
      params: ['pvPower'],
      updatedAt: '2026-05-20T10:00:00.000Z',
    }));
    const calls = backend(six);
    render(`/device/inverter/${SN}?tab=charts&p=pv1Voltage`);
    await openPicker();
    const dialog = await screen.findByTestId('param-dialog');
    await within(dialog).findByTestId('profile-P6');
    fireEvent.change(within(dialog).getByTestId('profile-name'), { target: { value: 'P7' } });
    expect(within(dialog).getByTestId('profile-full').textContent).toContain('At most 6 profiles');
    expect((within(dialog).getByTestId('profile-save') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(within(dialog).getByTestId('profile-name'), { target: { value: 'p3' } });
    const save = within(dialog).getByTestId('profile-save') as HTMLButtonElement;
    expect(save.disabled).toBe(false);
    expect(save.textContent).toBe('Replace profile');
    fireEvent.click(save);
    await waitFor(() => expect(callsTo(calls, '/api/v1/inverter/params/custom', 'POST')).toHaveLength(1));
    const body = JSON.parse(callsTo(calls, '/api/v1/inverter/params/custom', 'POST')[0]!.body!);
    expect(body.profiles).toHaveLength(6);
    expect(body.profiles[2]).toEqual({ name: 'p3', params: ['pv1Voltage'] });
  }, 30_000);

  it('powers the inverter off after a confirmation naming the plant and the device; says why it cannot power it on', async () => {
    const calls = backend();
    render(`/device/inverter/${SN}`, ['inverter.boot']);
    fireEvent.click(await screen.findByTestId('power-off', {}, { timeout: 5000 }));
    expect(await screen.findAllByText('Power off Casa roof at Ciudad de México Solar Farmhouse?')).not.toHaveLength(0);
    expect(callsTo(calls, `/api/v1/inverter/${SN}/shutdown`)).toHaveLength(0);
    fireEvent.click(screen.getByTestId('power-confirm-ok'));
    expect(
      await screen.findAllByText('Casa roof at Ciudad de México Solar Farmhouse is off', {}, { timeout: 5000 }),
    ).not.toHaveLength(0);
    expect(callsTo(calls, `/api/v1/inverter/${SN}/shutdown`)).toHaveLength(1);

    fireEvent.click(screen.getByTestId('power-on'));
    expect(await screen.findAllByText('Power on Casa roof at Ciudad de México Solar Farmhouse?')).not.toHaveLength(0);
    fireEvent.click(screen.getAllByTestId('power-confirm-ok').at(-1)!);
    expect(await screen.findAllByText('The device is offline', {}, { timeout: 5000 })).not.toHaveLength(0);
  }, 20_000);

  it('shows no power buttons without inverter.boot, or when the inverter is not the caller’s to operate', async () => {
    backend();
    const first = render(`/device/inverter/${SN}`);
    await screen.findByTestId('detail-name', {}, { timeout: 5000 });
    expect(screen.queryByTestId('power-off')).toBeNull();
    first.unmount();
    detail.canPower = false;
    try {
      render(`/device/inverter/${SN}`, ['inverter.boot']);
      await screen.findByTestId('detail-name', {}, { timeout: 5000 });
      expect(screen.queryByTestId('power-off')).toBeNull();
    } finally {
      detail.canPower = true;
    }
  }, 20_000);

  it('says "not found" for an SN the caller cannot see (600)', async () => {
    serve([['GET', '/api/v1/inverter/NOPE123', () => fail(ErrorCode.inverterMissing, 'The inverter does not exist')]]);
    render('/device/inverter/NOPE123');
    expect((await screen.findByTestId('device-missing', {}, { timeout: 5000 })).textContent).toContain(
      'This inverter does not exist, or you cannot see it',
    );
  }, 20_000);
});
