import { type DataOf, devicesApi } from '@sunfleet/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { todayIn } from '../../../lib/dateNav.ts';
import { callsTo, on, renderPage, serve } from '../../../test/pages.tsx';
import InverterDetailPage from './InverterDetailPage.tsx';

// Canvas charts do not draw in jsdom: the chart shows the series, the x axis and the raw values it
// was given; a chart without data says so by the shared rule, as the real one.
vi.mock('../../../components/EChart.tsx', async () => {
  const { hasChartData } = await import('../../../lib/chart.ts');
  return {
    EChart: ({
      option,
      testId,
      emptyTestId,
    }: {
      option: { series: Array<{ id: string; data: unknown[] }>; xAxis?: { data?: string[] } };
      testId?: string;
      emptyTestId?: string;
    }) =>
      hasChartData(option) ? (
        <div
          data-testid={testId}
          data-series={option.series.map((s) => s.id).join(',')}
          data-labels={(option.xAxis?.data ?? []).join(',')}
          data-values={option.series
            .map((s) =>
              s.data.map((d) => (Array.isArray(d) ? d[2] : ((d as { raw?: number } | null)?.raw ?? String(d)))).join(' '),
            )
            .join('|')}
        />
      ) : (
        <div data-testid={emptyTestId} />
      ),
  };
});

const SN = 'MI800ABC0001';
const TZ = 'America/Mexico_City';
const T = { timeout: 5000 };

type Detail = DataOf<typeof devicesApi.getInverter>;
const detail = (typeKey: Detail['typeKey']): Detail => ({
  id: 21,
  sn: SN,
  alias: null,
  status: 'normal',
  state: 'normal',
  plant: { id: 7, name: 'Ciudad de México Solar Farmhouse', timezone: TZ },
  gateway: { id: 4, sn: 'SFGW000004', alias: null, status: 'online' },
  protocol: { id: 'sunfleet-micro', name: 'Sunfleet micro-inverter' },
  deviceType: null,
  typeKey,
  ratedPower: 800,
  mpptCount: 2,
  phaseCount: 1,
  power: 512,
  todayEnergy: 2100,
  totalEnergy: 1_234_000,
  temperature: 40.2,
  runningState: 'Normal',
  info: [],
  faults: [],
  groups: { grid: false, meter: false, battery: false, eps: false, load: false },
  canEdit: false,
  canDelete: false,
  canPower: false,
  lastUpdate: '2026-05-20T10:00:00.000Z',
  createdAt: '2026-01-01T00:00:00.000Z',
});
const times = ['2026-05-20T16:00:00.000Z', '2026-05-20T16:05:00.000Z'];
const day: DataOf<typeof devicesApi.inverterDay> = {
  date: '2026-05-20',
  timezone: TZ,
  times,
  series: [{ key: 'pvPower', name: 'PV power', unit: 'W', flow: null, values: [420, 430] }],
  energy: { pv: 2100, load: 0, gridImport: 0, gridExport: 0, charge: 0, discharge: 0, peakPower: 512 },
};
type Gen = DataOf<typeof devicesApi.inverterGen>;
const gen = (period: Gen['period'], date: string): Gen =>
  period === 'month'
    ? {
        period,
        date,
        timezone: TZ,
        bars: [
          { label: '2026-05-01', energy: 2400 },
          { label: '2026-05-02', energy: 3100 },
        ],
        energy: 5500,
      }
    : period === 'day'
      ? {
          period,
          date,
          timezone: TZ,
          bars: Array.from({ length: 24 }, (_, h) => ({
            label: `${String(h).padStart(2, '0')}:00`,
            energy: h === 10 ? 310 : h === 11 ? 450 : 0,
          })),
          energy: 760,
        }
      : { period, date, timezone: TZ, bars: [], energy: 0 };
const genMi: DataOf<typeof devicesApi.inverterGenMi> = {
  date: '2026-05-20',
  timezone: TZ,
  times,
  series: [
    { key: 'pv1Power', name: 'PV1 power', unit: 'W', flow: null, values: [210, 220] },
    { key: 'pv2Power', name: 'PV2 power', unit: 'W', flow: null, values: [205, 212] },
  ],
  panels: [
    { index: 1, name: 'PV1', energy: 1080, peakPower: 268 },
    { index: 2, name: 'PV2', energy: 1020, peakPower: 255 },
  ],
};

function backend(typeKey: Detail['typeKey']) {
  return serve([
    on(devicesApi.getInverter, detail(typeKey)),
    on(devicesApi.inverterDay, day),
    on(devicesApi.inverterGen, (c) =>
      gen((c.url.searchParams.get('period') ?? 'day') as Gen['period'], c.url.searchParams.get('date') ?? ''),
    ),
    on(devicesApi.inverterGenMi, genMi),
    on(devicesApi.inverterParams, { protocol: 'sunfleet-micro', params: [], defaults: [], maxSelected: 6, maxProfiles: 6 }),
    on(devicesApi.inverterParamProfiles, []),
  ]);
}

const render = () =>
  renderPage(<InverterDetailPage />, { path: `/device/inverter/${SN}?tab=charts`, pattern: '/device/inverter/:sn' });

describe('inverter generation', () => {
  it('draws the hours of the day, then asks gen for the month and shows its bars, never after today', async () => {
    const calls = backend('threePhase');
    render();
    const card = await screen.findByTestId('generation-chart', {}, T);
    const today = todayIn(TZ);

    // Day: the hourly bars of gen (period=day), as they are.
    const hours = await within(card).findByTestId('generation-chart-day', {}, T);
    expect(hours.dataset.series).toBe('pv');
    expect(hours.dataset.labels?.split(',')).toHaveLength(24);
    expect(hours.dataset.labels?.split(',')[10]).toBe('10:00');
    expect(hours.dataset.values?.split(' ').slice(10, 12)).toEqual(['310', '450']);
    expect(within(card).getByTestId('generation-chart-summary').textContent).toBe('Generation 0.8 kWh');
    expect(callsTo(calls, `/api/v1/inverter/${SN}/gen`)[0]!.url.search).toBe(`?period=day&date=${today}`);

    fireEvent.click(within(within(card).getByTestId('generation-chart-tabs')).getByText('Month'));
    const month = await within(card).findByTestId('generation-chart-month', {}, T);
    await waitFor(() => expect(month.dataset.values).toBe('2400 3100'));
    expect(month.dataset.labels).toBe('01,02');
    expect(within(card).getByTestId('generation-chart-summary').textContent).toBe('Generation 5.5 kWh');
    expect(callsTo(calls, `/api/v1/inverter/${SN}/gen`).map((c) => c.url.search)).toContain(`?period=month&date=${today}`);

    // Not after the plant's today; back a month asks for it.
    expect((within(card).getByTestId('date-next') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(within(card).getByTestId('date-prev'));
    await waitFor(() =>
      expect(
        callsTo(calls, `/api/v1/inverter/${SN}/gen`).some(
          (c) => c.url.searchParams.get('period') === 'month' && c.url.searchParams.get('date')!.slice(0, 7) < today.slice(0, 7),
        ),
      ).toBe(true),
    );
    expect((within(card).getByTestId('date-next') as HTMLButtonElement).disabled).toBe(false);

    // A year without data says so.
    fireEvent.click(within(within(card).getByTestId('generation-chart-tabs')).getByText('Year'));
    expect(await within(card).findByTestId('generation-chart-empty', {}, T)).toBeTruthy();

    // Not a micro-inverter: no panels card, genMi never asked.
    expect(screen.queryByTestId('panels-chart')).toBeNull();
    expect(callsTo(calls, `/api/v1/inverter/${SN}/genMi`)).toHaveLength(0);
  }, 30_000);

  it('shows a micro-inverter’s panels: their day curves, energy and peak power', async () => {
    const calls = backend('micro');
    render();
    const card = await screen.findByTestId('panels-chart', {}, T);
    const chart = await within(card).findByTestId('panels-chart-day', {}, T);
    expect(chart.dataset.series).toBe('pv1Power,pv2Power');
    const table = await within(card).findByTestId('panels-table');
    expect(table.textContent).toContain('PV1');
    expect(table.textContent).toContain('PV2');
    expect(within(table).getByTestId('panel-energy-1').textContent).toBe('1.1 kWh');
    expect(within(table).getByTestId('panel-energy-2').textContent).toBe('1.0 kWh');
    expect(within(table).getByTestId('panel-peak-1').textContent).toBe('0.3 kW');
    expect(within(card).getByTestId('panels-energy').textContent).toBe('All panels 2.1 kWh');
    expect(callsTo(calls, `/api/v1/inverter/${SN}/genMi`)[0]!.url.searchParams.get('date')).toBe(todayIn(TZ));
  }, 30_000);
});
