import { type DataOf, devicesApi, ErrorCode } from '@sunfleet/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { setTemperatureUnit } from '../../../lib/format.ts';
import { fail, on, renderPage, serve } from '../../../test/pages.tsx';
import BatteryDetailPage from './BatteryDetailPage.tsx';

vi.mock('../../../components/EChart.tsx', () => ({
  EChart: ({ testId }: { testId?: string }) => <div data-testid={testId} />,
}));

const SN = 'BT0ABUDIP5PQ';
const info: DataOf<typeof devicesApi.batteryInfo> = {
  id: 23,
  sn: SN,
  alias: null,
  status: 'warning',
  state: 'warning',
  plant: { id: 10, name: 'Santiago Solar Home', timezone: 'America/Santiago' },
  gateway: { id: 7, sn: 'SFGW000007', alias: null },
  protocol: { id: 'sunfleet-battery', name: 'Sunfleet battery system' },
  packs: 2,
  cellsPerPack: 3,
  fullCapacity: 193.9,
  info: [{ key: 'firmware', name: 'Firmware version', unit: null, value: '0x02 0x03', text: null }],
  canDelete: true,
  lastUpdate: '2026-05-20T10:00:00.000Z',
  createdAt: '2026-01-01T00:00:00.000Z',
};
type Realtime = DataOf<typeof devicesApi.batteryRealtime>;
const pack = (index: number, vMin: number, vMax: number, tMin: number, tMax: number): Realtime['packs'][number] => ({
  index,
  master: index === 1,
  sn: `${SN}P${index}`,
  soc: 57,
  soh: 95,
  voltage: 52.57,
  current: 5.39,
  cellVoltageMin: vMin,
  cellVoltageMax: vMax,
  cellTemperatureMin: tMin,
  cellTemperatureMax: tMax,
  cycleCount: 734,
  faults: index === 2 ? [{ code: 'pack2.cellImbalance', level: 'warning', text: 'Cell imbalance' }] : [],
});
function realtime(withCells: boolean): Realtime {
  return {
    at: '2026-05-20T10:00:00.000Z',
    soc: 56,
    soh: 97,
    voltage: 52.6,
    current: -10.8,
    power: -567,
    state: 'Charging',
    remainingCapacity: 109.1,
    fullCapacity: 193.9,
    temperatureMax: 27.5,
    packs: [pack(1, 3.277, 3.294, 19.7, 21.4), pack(2, 3.212, 3.297, 20, 27.5)],
    cells: withCells
      ? [
          { pack: 1, cell: 1, voltage: 3.281, temperature: 20.1 },
          { pack: 1, cell: 2, voltage: 3.294, temperature: 21.4 },
          { pack: 1, cell: 3, voltage: 3.277, temperature: 19.7 },
          { pack: 2, cell: 1, voltage: 3.297, temperature: 27.5 },
          { pack: 2, cell: 2, voltage: 3.212, temperature: 20 },
          { pack: 2, cell: 3, voltage: null, temperature: null },
        ]
      : [],
    faults: [],
    fields: [{ key: 'chargeVoltageLimit', name: 'Charge voltage limit', unit: 'V', value: 56.8, text: null }],
  };
}

function backend(withCells = true) {
  return serve([
    on(devicesApi.batteryInfo, info),
    on(devicesApi.batteryRealtime, realtime(withCells)),
    on(devicesApi.batteryDay, { date: '2026-05-20', timezone: 'America/Santiago', times: [], series: [] }),
  ]);
}
const render = (path: string, buttons: string[] = []) =>
  renderPage(<BatteryDetailPage />, { path, pattern: '/device/battery/:sn', buttons });

describe('battery detail', () => {
  it('shows SOC, SOH, power with its direction and every pack with its faults', async () => {
    backend();
    render(`/device/battery/${SN}`);
    expect((await screen.findByTestId('battery-soc', {}, { timeout: 5000 })).textContent).toBe('56 %');
    expect(screen.getByTestId('battery-soh').textContent).toBe('97 %');
    expect(screen.getByTestId('battery-power').textContent).toBe('0.6 kW');
    expect(screen.getByTestId('battery-now').textContent).toContain('Power · Charging');
    expect(screen.getByTestId('battery-capacity').textContent).toBe('109.1 / 193.9 Ah');
    const packs = screen.getByTestId('battery-packs');
    expect(packs.textContent).toContain('Master');
    expect(packs.textContent).toContain('Slave');
    expect(packs.textContent).toContain('Cell imbalance');
    expect(packs.textContent).toContain('3.212 – 3.297 V');
    expect(screen.getByTestId('fact-packs').textContent).toContain('2 × 3 cells');
    // battery.delete not granted: no delete.
    expect(screen.queryByTestId('detail-delete')).toBeNull();
  }, 20_000);

  it('draws the cells × packs heat map by voltage, then by temperature', async () => {
    backend(true);
    render(`/device/battery/${SN}?tab=cells`, ['battery.delete']);
    const map = await screen.findByTestId('cell-heatmap', {}, { timeout: 5000 });
    expect(screen.getByTestId('detail-delete')).toBeTruthy();
    expect(within(map).getByTestId('cell-2-2').textContent).toBe('3.212');
    expect(within(map).getByTestId('cell-2-3').textContent).toBe('--');
    // The lowest cell is blue, the highest red.
    expect(within(map).getByTestId('cell-2-2').style.background).toBe('rgb(34, 88, 195)'); // hsl(220, 70%, 45%);
    expect(within(map).getByTestId('cell-2-1').style.background).toBe('rgb(195, 34, 34)'); // hsl(0, 70%, 45%);
    expect(within(map).getByTestId('cell-spread').textContent).toBe('Spread 0.085 V');
    expect(screen.queryByTestId('cell-fallback')).toBeNull();

    fireEvent.click(screen.getByTestId('cell-mode-temperature'));
    await waitFor(() => expect(screen.getByTestId('cell-heatmap').dataset.mode).toBe('temperature'));
    expect(within(screen.getByTestId('cell-heatmap')).getByTestId('cell-2-1').textContent).toBe('27.5');
    expect(within(screen.getByTestId('cell-heatmap')).getByTestId('cell-spread').textContent).toBe('Spread 7.8 °C');
  }, 20_000);

  it('with °F in the profile: cells, legend and spread in °F', async () => {
    setTemperatureUnit('F');
    backend(true);
    render(`/device/battery/${SN}?tab=cells`);
    await screen.findByTestId('cell-heatmap', {}, { timeout: 5000 });
    fireEvent.click(screen.getByTestId('cell-mode-temperature'));
    await waitFor(() => expect(screen.getByTestId('cell-heatmap').dataset.mode).toBe('temperature'));
    const map = screen.getByTestId('cell-heatmap');
    expect(within(map).getByTestId('cell-2-1').textContent).toBe('81.5'); // 27.5 °C
    expect(within(map).getByTestId('cell-2-2').textContent).toBe('68.0'); // 20 °C
    expect(within(map).getByTestId('cell-spread').textContent).toBe('Spread 14.0 °F'); // 7.8 °C wide
    expect(within(map).getByTestId('cell-legend').textContent).toContain('°F');
    expect(within(map).getByTestId('cell-legend').textContent).not.toContain('°C');
  }, 20_000);

  it('shows each pack’s lowest and highest cell where no single cells are reported', async () => {
    backend(false);
    render(`/device/battery/${SN}?tab=cells`);
    const map = await screen.findByTestId('cell-heatmap', {}, { timeout: 5000 });
    expect(screen.getByTestId('cell-fallback')).toBeTruthy();
    expect(within(map).getByTestId('cell-1-min').textContent).toBe('3.277');
    expect(within(map).getByTestId('cell-2-max').textContent).toBe('3.297');
    expect(map.textContent).toContain('Lowest cell');
  }, 20_000);

  it('says "not found" for a battery the caller cannot see (404)', async () => {
    serve([on(devicesApi.batteryInfo, fail(ErrorCode.notFound, 'Not found'))]);
    render('/device/battery/NOPE');
    expect(await screen.findByTestId('device-missing', {}, { timeout: 5000 })).toBeTruthy();
  }, 20_000);
});
