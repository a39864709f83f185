import { QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../api/hooks.ts';
import { ShellContext, type ShellInfo } from '../../app/shell/shellContext.ts';
import { fail, serveUrls } from '../../test/pages.tsx';
import { renderWithApp } from '../../test/render.tsx';
import OverviewPage from './OverviewPage.tsx';

// Canvas charts do not draw in jsdom: the chart shows which series it was given.
vi.mock('../../components/EChart.tsx', () => ({
  EChart: ({ option, testId }: { option: { series: Array<{ id: string }> }; testId?: string }) => (
    <div data-testid={testId} data-series={option.series.map((s) => s.id).join(',')} />
  ),
  renderChartImage: () => ({ url: '', width: 1120, height: 480 }),
}));

const TODAY = '2026-05-20';

function plant(type: number, canEdit = true) {
  return {
    id: 7,
    name: 'Casa Marta Rooftop',
    alias: null,
    status: 'normal',
    type,
    capacity: 6.6,
    power: 3249,
    todayEnergy: 18_400,
    totalEnergy: 12_345_678,
    lastUpdate: '2026-05-20T10:00:00.000Z',
    createdAt: '2025-01-01T00:00:00.000Z',
    alarms: 0,
    owner: null,
    company: null,
    role: 'owner',
    thumbnail: null,
    address: 'Calle Mayor 1, Sevilla',
    timezone: 'Europe/Madrid',
    commissioningDate: null,
    longitude: -5.98,
    latitude: 37.39,
    picture: null,
    currency: 'EUR',
    valuationMethod: 'constant',
    price: 0.15,
    priceSegments: [],
    totalInvestment: null,
    income: null,
    contactName: null,
    contactPhone: null,
    gateways: [],
    canEdit,
    canManage: true,
    updatedAt: '2026-05-20T10:00:00.000Z',
  };
}

const realtime = {
  id: 7,
  name: 'Casa Marta Rooftop',
  status: 'warning',
  capacity: 6.6,
  power: 3249,
  powerRatio: 0.49,
  todayEnergy: 18_400,
  monthEnergy: 412_000,
  yearEnergy: 3_960_000,
  totalEnergy: 12_345_678,
  currency: 'EUR',
  todayIncome: 2.76,
  totalIncome: 1850.4,
  co2TodayKg: 8.74,
  co2TotalKg: 5864.2,
  today: TODAY,
  timezone: 'Europe/Madrid',
  lastUpdate: '2026-05-20T10:00:00.000Z',
};
const flow = {
  pv: 3249,
  load: 1200,
  grid: -1549,
  battery: -500,
  soc: 71,
  hasPv: true,
  hasBattery: true,
  hasGrid: true,
  hasLoad: true,
  at: '2026-05-20T10:00:00.000Z',
};
const totals = { pv: 18_400, load: 9_100, gridImport: 1_200, gridExport: 8_000, charge: 3_000, discharge: 1_500 };

function serve(opts: { type?: number; missing?: boolean; canEdit?: boolean } = {}) {
  return serveUrls((url) => {
    const path = url.split('?')[0]!;
    const q = new URL(url, 'http://x').searchParams;
    let data: unknown = null;
    let code = 0;
    if (path === '/api/v1/plant/7') {
      if (opts.missing) code = 700;
      else data = plant(opts.type ?? 2, opts.canEdit);
    } else if (path === '/api/v1/plant/7/realtime') data = realtime;
    else if (path === '/api/v1/plant/energy/7/flow') data = flow;
    else if (path === '/api/v1/plant/7/power/day')
      data = {
        date: q.get('date'),
        timezone: 'Europe/Madrid',
        points: [{ time: `${q.get('date')}T08:00:00.000Z`, pv: 2000, load: 700, grid: -800, battery: -500, soc: 60 }],
        forecast: [],
        peakPower: 2000,
        energy: 15_000,
      };
    else if (/^\/api\/v1\/plant\/7\/power\/(month|year|total)$/.test(path))
      data = {
        period: path.split('/').pop(),
        date: q.get('date'),
        bars: [{ label: '2026-05-01', energy: 20_000, income: 3, peakPower: 4000 }],
        energy: 20_000,
        income: 3,
      };
    else if (/^\/api\/v1\/plant\/energy\/7\/(day|month|year|total)$/.test(path))
      data = { period: path.split('/').pop(), date: q.get('date'), totals, points: [] };
    else if (path === '/api/v1/plant/energy/7/generation/use')
      data = {
        period: q.get('period'),
        date: q.get('date'),
        generation: 18_400,
        selfUse: 10_400,
        export: 8_000,
        consumption: 9_100,
        fromPv: 6_400,
        fromGrid: 1_200,
        fromBattery: 1_500,
        selfUseRate: 10_400 / 18_400,
        selfSufficiency: 7_900 / 9_100,
      };
    else if (path === '/api/v1/plant/7/inverterCount')
      data = { total: 2, normal: 0, offline: 0, warning: 1, fault: 0, upgrading: 0, off: 1 };
    else if (path === '/api/v1/plant/7/eventCount') data = { total: 3, fault: 1, warning: 2, info: 0 };
    else if (path === '/api/v1/plant/7/check/device')
      data = { hasDevices: true, gateways: 1, inverters: 2, batteries: 1, meters: 1, weather: 0 };
    else if (path === '/api/v1/plant/7/inverters')
      data = {
        total: 1,
        list: [{ sn: 'HY0000000001', alias: 'Roof', status: 'normal', state: 'off', power: 1500, todayEnergy: 15000 }],
      };
    else if (path === '/api/v1/plant/meteorological/7/realtime')
      data = {
        source: 'none',
        stationSn: null,
        irradiance: null,
        ambientTemperature: null,
        moduleTemperature: null,
        windSpeed: null,
        humidity: null,
        dailyIrradiation: null,
        at: null,
      };
    else if (path === '/api/v1/event/oneHour') data = [];
    else if (path === '/api/v1/plant/7/events')
      data = {
        total: 1,
        list: [
          {
            id: 1,
            sn: 'HY0000000001',
            code: 'F012',
            level: 'fault',
            source: 'device',
            text: 'Grid overvoltage',
            startedAt: '2026-05-20T07:15:00.000Z',
            endedAt: null,
          },
        ],
      };
    else return new Response('not found', { status: 404 });
    return code ? fail(code, 'no plant') : data;
  });
}

/** The owner's grants unless told. */
const OWNER = ['station.view', 'station.edit', 'inverter.view'];

function renderPage(path = '/plants/overview/7/1', granted: string[] = OWNER) {
  const shell = { profile: {}, routes: [], forbidden: [], buttons: {}, rights: { granted: new Set(granted), readOnly: false } };
  return renderWithApp(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter initialEntries={[path]}>
        <ShellContext.Provider value={shell as unknown as ShellInfo}>
          <Routes>
            <Route path="/plants/overview/:id/:type" element={<OverviewPage />} />
          </Routes>
        </ShellContext.Provider>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const T = { timeout: 5000 };

describe('plant overview page', () => {
  it('shows the realtime figures, the flow in the right directions, devices, weather and events', async () => {
    serve();
    renderPage();
    expect((await screen.findByTestId('overview-name', {}, T)).textContent).toBe('Casa Marta Rooftop');
    // The realtime status (warning) wins over the plant row's.
    await waitFor(() => expect(screen.getByTestId('overview-status').textContent).toBe('Warning'));
    expect(screen.getByTestId('overview-capacity').textContent).toContain('6.6 kWp');
    expect(screen.getByTestId('realtime-power').textContent).toBe('3.2 kW');
    expect(screen.getByTestId('realtime-today').textContent).toBe('18.4 kWh');
    expect(screen.getByTestId('realtime-month').textContent).toBe('0.4 MWh'); // six integer digits → M
    expect(screen.getByTestId('realtime-year').textContent).toBe('4.0 MWh');
    expect(screen.getByTestId('realtime-total').textContent).toBe('12.3 MWh');
    expect(screen.getByTestId('income-today').textContent).toBe('2.76 EUR');
    expect(screen.getByTestId('income-total').textContent).toBe('1,850.40 EUR');
    expect(screen.getByTestId('co2-total').textContent).toBe('5.86 t');

    // Exporting 1.5 kW and charging 0.5 kW: both lines run from the hub out to the node.
    const grid = await screen.findByTestId('flow-line-grid', {}, T);
    expect(grid.getAttribute('data-direction')).toBe('out');
    expect(screen.getByTestId('flow-line-battery').getAttribute('data-direction')).toBe('out');
    expect(screen.getByTestId('flow-line-pv').getAttribute('data-direction')).toBe('in');
    expect(screen.getByTestId('flow-value-grid').textContent).toBe('1.5 kW');
    expect(within(screen.getByTestId('flow-node-battery')).getByText('Battery · SOC 71 %')).toBeTruthy();
    expect(within(screen.getByTestId('flow-node-grid')).getByText('Exporting')).toBeTruthy();

    // The day curve of the plant's today: grid power −800 W as the export curve, battery −500 W as the charge one, and SOC.
    // The chart's code loads lazily, and the cards below it render after the ones above: slow on a busy machine.
    await waitFor(
      () => expect(screen.getByTestId('chart-day').getAttribute('data-series')).toBe('pv,load,gridExport,charge,soc'),
      T,
    );
    expect(screen.getByTestId('chart-day-energy').textContent).toBe('Generated 15.0 kWh');

    await waitFor(() => expect(screen.getByTestId('energy-self-sufficiency').textContent).toContain('86.8 %'), T);
    expect(screen.getByTestId('energy-gridExport').textContent).toBe('8.0 kWh');
    expect(screen.getByTestId('energy-charge').textContent).toBe('3.0 kWh');
    await waitFor(() => expect(screen.getByTestId('devices-inverters').textContent).toBe('2'), T);
    // The inverters by the state their badges show: a powered-off one (stored status normal) is off.
    expect(screen.getByTestId('inverters-off').textContent).toBe('Off 1');
    expect(screen.getByTestId('inverters-normal').textContent).toBe('Normal 0');
    expect((await screen.findByTestId('inverter-state-HY0000000001', {}, T)).getAttribute('data-state')).toBe('off');
    // Each listed inverter links to its remote settings within the plant.
    const settings = await screen.findByTestId('inverter-settings-HY0000000001', {}, T);
    expect(settings.getAttribute('href')).toBe('/plants/device/setting?plantId=7&sn=HY0000000001');
    expect(settings.getAttribute('aria-label')).toBe('Remote settings of Roof');
    expect(screen.getByTestId('events-fault').textContent).toBe('Fault 1');
    expect((await screen.findByTestId('weather-none', {}, T)).textContent).toContain('no weather station');
    // The events card is its own chunk (below the fold): its first import compiles antd's Table.
    expect(await screen.findByText('Grid overvoltage', {}, { timeout: 20_000 })).toBeTruthy();
    expect(screen.getByTestId('overview-edit')).toBeTruthy();
  }, 20_000);

  it('no edit or forecast upload on a plant the caller only visits, nor for an account without station.edit', async () => {
    serve({ canEdit: false });
    const visitor = renderPage();
    await screen.findByTestId('overview-name', {}, T);
    expect(screen.queryByTestId('overview-edit')).toBeNull();
    expect(screen.queryByTestId('overview-forecast')).toBeNull();
    visitor.unmount();

    serve();
    renderPage(undefined, ['station.view', 'inverter.view']);
    await screen.findByTestId('overview-name', {}, T);
    expect(screen.queryByTestId('overview-edit')).toBeNull();
    expect(screen.queryByTestId('overview-forecast')).toBeNull();
  }, 20_000);

  it('a grid-tied plant shows no battery, whatever the link says', async () => {
    serve({ type: 0 });
    renderPage('/plants/overview/7/2');
    await screen.findByTestId('flow-line-grid', {}, T);
    expect(screen.queryByTestId('flow-line-battery')).toBeNull();
    expect(screen.queryByTestId('energy-charge')).toBeNull();
  }, 20_000);

  it('date navigation: back a day, never past the plant’s today, tabs ask for months', async () => {
    const calls = serve();
    renderPage();
    await screen.findByTestId('chart-day', {}, T);
    const next = screen.getByTestId('date-next') as HTMLButtonElement;
    expect(next.disabled).toBe(true);
    fireEvent.click(screen.getByTestId('date-prev'));
    await waitFor(() => expect(calls.some((u) => u.startsWith('/api/v1/plant/7/power/day?date=2026-05-19'))).toBe(true));
    await waitFor(() => expect((screen.getByTestId('date-next') as HTMLButtonElement).disabled).toBe(false));
    // The energy card follows the chart's date.
    await waitFor(() => expect(calls.some((u) => u.includes('/generation/use?period=day&date=2026-05-19'))).toBe(true));
    fireEvent.click(screen.getByTestId('date-today'));
    await waitFor(() => expect((screen.getByTestId('date-next') as HTMLButtonElement).disabled).toBe(true));

    fireEvent.click(within(screen.getByTestId('chart-tabs')).getByText('Month'));
    await waitFor(() => expect(calls.some((u) => u.startsWith(`/api/v1/plant/7/power/month?date=${TODAY}`))).toBe(true));
    await waitFor(() => expect(screen.getByTestId('chart-month').getAttribute('data-series')).toBe('energy,income'));
    fireEvent.click(screen.getByTestId('date-prev'));
    await waitFor(() => expect(calls.some((u) => u.startsWith('/api/v1/plant/7/power/month?date=2026-04-20'))).toBe(true));
  }, 20_000);

  it('event history asks for the last 7 days; over 90 days is refused with a message and not asked for', async () => {
    const calls = serve();
    renderPage();
    await screen.findByText('Grid overvoltage', {}, T);
    expect(calls.some((u) => u.startsWith('/api/v1/plant/7/events?page=1&size=5&state=open'))).toBe(true);
    fireEvent.click(within(screen.getByTestId('events-mode')).getByText('History'));
    // Seven days ending on the plant's today (2026-05-20), both ends counted.
    await waitFor(() => expect(calls).toContain('/api/v1/plant/7/events?page=1&size=5&startDate=2026-05-14&endDate=2026-05-20'));

    // Type a 120-day period into the range picker.
    const [start, end] = within(screen.getByTestId('events-card')).getAllByRole('textbox') as HTMLInputElement[];
    const before = calls.length;
    fireEvent.mouseDown(start!);
    fireEvent.focus(start!);
    fireEvent.change(start!, { target: { value: '2025-01-01' } });
    fireEvent.keyDown(start!, { key: 'Enter', code: 'Enter' });
    fireEvent.focus(end!);
    fireEvent.change(end!, { target: { value: '2025-04-30' } });
    fireEvent.keyDown(end!, { key: 'Enter', code: 'Enter' });
    expect((await screen.findByTestId('events-range-problem', {}, T)).textContent).toBe(
      'The period can be at most 90 days. Choose a shorter one.',
    );
    expect(calls.slice(before).some((u) => u.includes('startDate=2025-01-01'))).toBe(false);
  }, 20_000);

  it('a plant the caller cannot see (700) says so', async () => {
    serve({ missing: true });
    renderPage();
    expect((await screen.findByTestId('overview-missing', {}, T)).textContent).toContain('does not exist');
  }, 20_000);

  it('a plant that is not there is not polled for live values', async () => {
    const urls = serve({ missing: true });
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      renderPage();
      await screen.findByTestId('overview-missing', {}, T);
      const live = () => urls.filter((u) => u.includes('/realtime') || u.includes('/flow')).length;
      const before = live();
      await act(async () => {
        await vi.advanceTimersByTimeAsync(35_000);
      });
      expect(live()).toBe(before);
    } finally {
      vi.useRealTimers();
    }
  }, 20_000);
});
