import { type DataOf, devicesApi, ErrorCode, plantEnergyApi } from '@sunfleet/contracts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { callsTo, fail, on, renderPage, serve } from '../../../test/pages.tsx';
import MeterDetailPage from './MeterDetailPage.tsx';

vi.mock('../../../components/EChart.tsx', () => ({
  EChart: ({ testId }: { testId?: string }) => <div data-testid={testId} />,
}));

const SN = 'MT64SILZ059X';
const MASTER = `/api/v1/meter/${SN}/master`;
const meter = (extra: Partial<DataOf<typeof devicesApi.meterRealtime>> = {}): DataOf<typeof devicesApi.meterRealtime> => ({
  id: 3,
  sn: SN,
  alias: null,
  status: 'normal',
  state: 'normal',
  plant: { id: 4, name: 'Madrid Solar Home', timezone: 'Europe/Madrid' },
  gateway: { id: 1, sn: 'SFGW000001', alias: null },
  protocol: { id: 'sunfleet-meter-3p', name: 'Sunfleet three-phase meter' },
  master: false,
  at: '2026-05-20T10:00:00.000Z',
  power: 120,
  reactivePower: null,
  apparentPower: null,
  powerFactor: null,
  frequency: null,
  phases: [],
  importToday: 0,
  exportToday: 0,
  importTotal: 0,
  exportTotal: 0,
  faults: [],
  fields: [],
  canEdit: true,
  canDelete: true,
  createdAt: '2026-01-01T00:00:00.000Z',
  ...extra,
});

const open = (buttons: string[]) =>
  renderPage(<MeterDetailPage />, { path: `/device/meter/${SN}`, pattern: '/device/meter/:sn', buttons });
const T = { timeout: 5000 };

describe('master meter', () => {
  it('posts to meter/{sn}/master only after the confirmation, then says so', async () => {
    const calls = serve([on(devicesApi.meterRealtime, meter()), on(plantEnergyApi.setMasterMeter, null)]);
    open(['meter.master']);
    fireEvent.click(await screen.findByTestId('meter-set-master', {}, T));
    expect((await screen.findByTestId('master-confirm-text', {}, T)).textContent).toContain('Madrid Solar Home');
    expect(screen.getByTestId('master-confirm-text').textContent).toContain('re-summed');
    expect(callsTo(calls, MASTER, 'POST')).toHaveLength(0);
    fireEvent.click(screen.getByTestId('master-confirm-ok'));
    await waitFor(() => expect(callsTo(calls, MASTER, 'POST')).toHaveLength(1));
    expect(await screen.findByText(`${SN} is now the master meter of Madrid Solar Home`, {}, T)).toBeTruthy();
  }, 20_000);

  it('a refusal (404) shows the message of the server’s code', async () => {
    serve([
      on(devicesApi.meterRealtime, meter()),
      on(plantEnergyApi.setMasterMeter, fail(ErrorCode.notFound, 'The meter is not bound to a plant')),
    ]);
    open(['meter.master']);
    fireEvent.click(await screen.findByTestId('meter-set-master', {}, T));
    fireEvent.click(await screen.findByTestId('master-confirm-ok', {}, T));
    expect(await screen.findByText('Not found', {}, T)).toBeTruthy();
  }, 20_000);

  it('is hidden without the button or without edit rights on the plant', async () => {
    serve([on(devicesApi.meterRealtime, meter())]);
    const first = open([]);
    await screen.findByTestId('meter-power', {}, T);
    expect(screen.queryByTestId('meter-set-master')).toBeNull();
    first.unmount();

    serve([on(devicesApi.meterRealtime, meter({ canEdit: false }))]);
    open(['meter.master']);
    await screen.findByTestId('meter-power', {}, T);
    expect(screen.queryByTestId('meter-set-master')).toBeNull();
  }, 20_000);
});
