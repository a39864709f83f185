import { type DataOf, devicesApi } from '@sunfleet/contracts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { callsTo, on, renderPage, serve } from '../../../test/pages.tsx';
import MeterDetailPage from './MeterDetailPage.tsx';

vi.mock('../../../components/EChart.tsx', () => ({
  EChart: ({ option, testId }: { option: { series: Array<{ id: string }> }; testId?: string }) => (
    <div data-testid={testId} data-series={option.series.map((s) => s.id).join(',')} />
  ),
}));

const SN = 'MT64SILZ059X';
const TZ = 'Europe/Madrid';
const meter: DataOf<typeof devicesApi.meterRealtime> = {
  id: 3,
  sn: SN,
  alias: null,
  status: 'normal',
  state: 'normal',
  plant: { id: 4, name: 'Madrid Solar Home', timezone: TZ },
  gateway: { id: 1, sn: 'SFGW000001', alias: null },
  protocol: { id: 'sunfleet-meter-3p', name: 'Sunfleet three-phase meter' },
  master: true,
  at: '2026-05-20T10:00:00.000Z',
  power: -2450,
  reactivePower: 32.79999923706055,
  apparentPower: 2460,
  powerFactor: -0.99,
  frequency: 49.99599838256836,
  phases: [
    { phase: 'L1', voltage: 231.10000610351562, current: 3.55, power: -820 },
    { phase: 'L2', voltage: 230.8000030517578, current: 3.5, power: -815 },
    { phase: 'L3', voltage: 230.3000030517578, current: 3.52, power: -815 },
  ],
  importToday: 130,
  exportToday: 15_920,
  importTotal: 1_702_070,
  exportTotal: 1_906_960,
  faults: [],
  fields: [],
  canEdit: true,
  canDelete: true,
  createdAt: '2026-01-01T00:00:00.000Z',
};
const bars = (period: 'day' | 'month' | 'year' | 'total'): DataOf<typeof devicesApi.meterMonth> => ({
  period,
  date: '2026-05-20',
  timezone: TZ,
  totals: { pv: 0, load: 0, gridImport: 130, gridExport: 15_920, charge: 0, discharge: 0, peakPower: 673.5 },
  bars: [{ label: '2026-05-20', pv: 0, load: 0, gridImport: 130, gridExport: 15_920, charge: 0, discharge: 0, peakPower: 673.5 }],
});

describe('meter detail', () => {
  it('shows power with its direction, each phase, import and export, and the bars by period', async () => {
    const calls = serve([
      on(devicesApi.meterRealtime, meter),
      on(devicesApi.meterDay, {
        date: '2026-05-20',
        timezone: TZ,
        times: ['2026-05-20T10:00:00.000Z'],
        series: [{ key: 'activePower', name: 'Total active power (+ import)', unit: 'W', flow: null, values: [-2450] }],
        energy: bars('day').totals,
      }),
      on(devicesApi.meterMonth, bars('month')),
    ]);
    renderPage(<MeterDetailPage />, { path: `/device/meter/${SN}`, pattern: '/device/meter/:sn', buttons: ['meter.alias'] });
    expect((await screen.findByTestId('meter-power', {}, { timeout: 5000 })).textContent).toBe('2.5 kW');
    expect(screen.getByTestId('meter-direction').textContent).toBe('Exporting');
    expect(screen.getByTestId('meter-frequency').textContent).toBe('50.00 Hz');
    expect(screen.getByTestId('meter-export-today').textContent).toBe('15.9 kWh');
    expect(screen.getByTestId('meter-import-total').textContent).toBe('1.7 MWh');
    const phases = screen.getByTestId('meter-phases').textContent ?? '';
    expect(phases).toContain('231.1 V');
    expect(phases).toContain('3.55 A');
    expect(phases).toContain('-0.8 kW');
    expect(screen.getByTestId('meter-header').textContent).toContain('Master meter');
    expect(screen.getByTestId('detail-rename')).toBeTruthy();
    expect(screen.queryByTestId('detail-delete')).toBeNull();
    await waitFor(() => expect(screen.getByTestId('meter-chart-day').dataset.series).toBe('activePower'));
    expect(screen.getByTestId('meter-chart-summary').textContent).toContain('Export 15.9 kWh');

    fireEvent.click(screen.getByText('Month'));
    await waitFor(() => expect(screen.getByTestId('meter-chart-month').dataset.series).toBe('gridImport,gridExport'));
    expect(callsTo(calls, `/api/v1/meter/${SN}/month`)).toHaveLength(1);
    // Not after today: "next" is disabled on the current month.
    expect((screen.getByTestId('date-next') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByTestId('date-prev'));
    await waitFor(() => expect(callsTo(calls, `/api/v1/meter/${SN}/month`)).toHaveLength(2));
    const asked = callsTo(calls, `/api/v1/meter/${SN}/month`).map((c) => c.url.searchParams.get('date')!);
    expect(asked[1]!.slice(0, 7) < asked[0]!.slice(0, 7)).toBe(true);
    expect((screen.getByTestId('date-next') as HTMLButtonElement).disabled).toBe(false);
  }, 20_000);
});
