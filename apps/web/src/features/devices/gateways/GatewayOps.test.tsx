import { commandsApi, type DataOf, devicesApi, plantsApi } from '@sunfleet/contracts';
/**
 * Gateway restart (one from its page, a batch from the list's selection, with the progress of
 * each job), the gateway's settings switch, and who sees none of it.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ShellContext, type ShellInfo } from '../../../app/shell/shellContext.ts';
import { type Call, callsTo, on, renderPage, serve } from '../../../test/pages.tsx';
import GatewayDetailPage from './GatewayDetailPage.tsx';
import GatewayListPage from './GatewayListPage.tsx';

const T = { timeout: 5000 };

type GatewayRow = DataOf<typeof devicesApi.listGateways>['list'][number];
type Detail = DataOf<typeof devicesApi.getGateway>;
type Job = DataOf<typeof commandsApi.gatewaySettingSwitch>;
const gateway = (id: number, extra: Partial<GatewayRow> = {}): GatewayRow => ({
  id,
  sn: `SFGW00000${id}`,
  alias: `Gateway ${id}`,
  plant: { id: 4, name: 'Madrid Solar Home', timezone: 'Europe/Madrid' },
  company: null,
  swVersion: null,
  hwVersion: null,
  commType: 'wifi',
  rssi: -60,
  signalBars: 4,
  status: 'online',
  lastOnlineAt: null,
  lastSeenAt: null,
  uploadInterval: 60,
  protocol: null,
  protocols: [],
  devices: 0,
  createdAt: '2026-01-01T00:00:00.000Z',
  canEdit: true,
  ...extra,
});

const job = (sn: string, state: Job['state'], error: string | null = null): Job => ({
  jobId: `job-${sn}`,
  sn,
  gatewaySn: sn,
  type: 'restart',
  state,
  error,
  requestedAt: '2026-01-01T00:00:00.000Z',
  sentAt: null,
  finishedAt: null,
});
const BATCH = '00000000-0000-4000-8000-0000000000b1';

const shell = (granted: string[], readOnly = false) =>
  ({ profile: {}, routes: [], buttons: {}, rights: { granted: new Set(granted), readOnly } }) as unknown as ShellInfo;
const STAFF = ['gateway.view', 'gateway.restart', 'gateway.debug', 'gateway.setting'];

function renderList(caller: ShellInfo) {
  return renderPage(
    <ShellContext.Provider value={caller}>
      <GatewayListPage />
    </ShellContext.Provider>,
    { path: '/device/gateway', pattern: '/device/gateway' },
  );
}

function renderDetail(caller: ShellInfo, id = 1) {
  return renderPage(
    <ShellContext.Provider value={caller}>
      <GatewayDetailPage />
    </ShellContext.Provider>,
    { path: `/device/gateway/${id}`, pattern: '/device/gateway/:id' },
  );
}

const detail = (extra: Partial<Detail> = {}): Detail => ({
  ...gateway(1, extra),
  deviceList: [],
  history: [],
  historySource: 'sessions',
});

describe('gateway list: restart of the selection', () => {
  it('confirms naming each gateway and its plant, sends the selected SNs as one batch and follows each job', async () => {
    const rows = [
      gateway(1),
      gateway(2, { alias: null, plant: { id: 5, name: 'Lisbon Rooftop', timezone: 'Europe/Lisbon' }, status: 'offline' }),
      gateway(3),
    ];
    let status: string | null = null;
    let progressReads = 0;
    const calls = serve([
      on(devicesApi.listGateways, (c: Call) => {
        status = c.url.searchParams.get('status');
        const list = status ? rows.filter((r) => r.status === status) : rows;
        return { total: list.length, list };
      }),
      on(devicesApi.gatewayCount, { total: 3, online: 2, offline: 1, unbound: 0 }),
      on(plantsApi.listPlants, { total: 0, list: [] }),
      on(commandsApi.batchRestartGateways, { batchId: BATCH, jobs: [job('SFGW000001', 'sent'), job('SFGW000002', 'queued')] }),
      on(commandsApi.restartProgress, () => {
        progressReads++;
        return { batchId: BATCH, jobs: [job('SFGW000001', 'succeeded'), job('SFGW000002', 'failed', 'device not responding')] };
      }),
    ]);
    renderList(shell(STAFF));
    await screen.findByTestId('gateway-link-1', {}, T);
    expect(screen.queryByTestId('gateway-bulk-bar')).toBeNull();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select gateway SFGW000001' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select gateway SFGW000002' }));
    await waitFor(() => expect(screen.getByTestId('gateway-selected').textContent).toBe('2 gateways selected'));
    expect(screen.queryByTestId('gateway-hidden')).toBeNull();

    // A filter hides one of them: it stays selected, counted as hidden.
    fireEvent.click(screen.getByTestId('status-card-offline'));
    await waitFor(() => expect(screen.queryByTestId('gateway-link-1')).toBeNull(), T);
    expect(screen.getByTestId('gateway-selected').textContent).toBe('2 gateways selected');
    expect(screen.getByTestId('gateway-hidden').textContent).toBe('(1 hidden)');

    fireEvent.click(screen.getByTestId('gateway-restart-selected'));
    // antd renders a confirmation's title and content twice (one copy for assistive technology).
    const confirm = (await screen.findAllByTestId('restart-confirm'))[0]!;
    expect(screen.getAllByTestId('restart-confirm-title')[0]!.textContent).toBe('Restart 2 gateways?');
    expect(within(confirm).getByTestId('restart-confirm-SFGW000001').textContent).toBe('Gateway 1 (Madrid Solar Home)');
    expect(within(confirm).getByTestId('restart-confirm-SFGW000002').textContent).toBe('SFGW000002 (Lisbon Rooftop)');
    expect(callsTo(calls, '/api/v1/gateways/batch/restart', 'POST')).toHaveLength(0);

    fireEvent.click(screen.getByTestId('restart-confirm-ok'));
    await waitFor(() => expect(callsTo(calls, '/api/v1/gateways/batch/restart', 'POST')).toHaveLength(1));
    expect(JSON.parse(callsTo(calls, '/api/v1/gateways/batch/restart', 'POST')[0]!.body ?? '')).toEqual({
      sns: ['SFGW000001', 'SFGW000002'],
    });
    const first = await screen.findByTestId('restart-job-SFGW000002');
    expect(first.dataset.state).toBe('queued');
    expect(first.textContent).toContain('Waits for the gateway to come online');
    // Read again until every job is final: then the reading stops.
    await waitFor(() => expect(screen.getByTestId('restart-job-SFGW000001').dataset.state).toBe('succeeded'), T);
    const failed = screen.getByTestId('restart-job-SFGW000002');
    expect(failed.textContent).toContain('The gateway refused: device not responding');
    expect(screen.getByTestId('restart-summary').textContent).toBe('2 of 2 finished · 1 succeeded · 1 not restarted');
    const reads = progressReads;
    await new Promise((r) => setTimeout(r, 2500));
    expect(progressReads).toBe(reads);
  }, 30_000);

  it('offers no selection without gateway.restart or to a read-only account; a gateway not operable cannot be selected', async () => {
    for (const caller of [shell(['gateway.view']), shell(STAFF, true)]) {
      serve([
        on(devicesApi.listGateways, { total: 1, list: [gateway(1)] }),
        on(devicesApi.gatewayCount, { total: 1, online: 1, offline: 0, unbound: 0 }),
      ]);
      const view = renderList(caller);
      await screen.findByTestId('gateway-link-1', {}, T);
      expect(screen.queryAllByRole('checkbox')).toHaveLength(0);
      view.unmount();
    }
    serve([
      on(devicesApi.listGateways, { total: 2, list: [gateway(1), gateway(2, { canEdit: false })] }),
      on(devicesApi.gatewayCount, { total: 2, online: 2, offline: 0, unbound: 0 }),
    ]);
    renderList(shell(STAFF));
    await screen.findByTestId('gateway-link-1', {}, T);
    expect((screen.getByRole('checkbox', { name: 'Select gateway SFGW000001' }) as HTMLInputElement).disabled).toBe(false);
    expect((screen.getByRole('checkbox', { name: 'Select gateway SFGW000002' }) as HTMLInputElement).disabled).toBe(true);
    // A click beside a checkbox, in the selection cell, does not open the gateway.
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select gateway SFGW000002' }).closest('td')!);
    expect(screen.getByTestId('location').textContent).toBe('/device/gateway');
    fireEvent.click(screen.getByTestId('gateway-status-1'));
    expect(screen.getByTestId('location').textContent).toBe('/device/gateway/1');
  }, 30_000);
});

describe('gateway detail: restart, settings and debug', () => {
  it('restarts the gateway after a confirmation naming it and its plant, and shows the result', async () => {
    const calls = serve([
      on(devicesApi.getGateway, detail()),
      on(commandsApi.restartGateways, { batchId: BATCH, jobs: [job('SFGW000001', 'sent')] }),
      on(commandsApi.restartProgress, { batchId: BATCH, jobs: [job('SFGW000001', 'timed_out')] }),
    ]);
    renderDetail(shell(STAFF));
    fireEvent.click(await screen.findByTestId('gateway-restart', {}, T));
    expect((await screen.findAllByTestId('restart-confirm-title'))[0]!.textContent).toBe(
      'Restart Gateway 1 at Madrid Solar Home?',
    );
    fireEvent.click(screen.getByTestId('restart-confirm-ok'));
    await waitFor(() => expect(callsTo(calls, '/api/v1/gateway/SFGW000001/restart', 'POST')).toHaveLength(1));
    await waitFor(() => expect(screen.getByTestId('restart-job-SFGW000001').dataset.state).toBe('timed_out'), T);
    expect(screen.getByTestId('restart-job-SFGW000001').textContent).toContain('No answer from the gateway in time');
  }, 30_000);

  it('a visitor (no right on the gateway) and an account without the permissions see no restart, settings or debug', async () => {
    for (const [caller, extra] of [
      [shell(STAFF), { canEdit: false }],
      [shell(['gateway.view']), {}],
    ] as const) {
      serve([on(devicesApi.getGateway, detail(extra))]);
      const view = renderDetail(caller);
      await screen.findByTestId('gateway-detail-page', {}, T);
      expect(screen.queryByTestId('gateway-restart')).toBeNull();
      expect(screen.queryByTestId('gateway-settings')).toBeNull();
      expect(screen.queryByTestId('gateway-debug')).toBeNull();
      view.unmount();
    }
  }, 30_000);

  it('switches the upload interval within the contract’s range', async () => {
    const calls = serve([
      on(devicesApi.getGateway, detail()),
      on(commandsApi.gatewaySettingSwitch, { ...job('SFGW000001', 'succeeded'), type: 'settings' }),
    ]);
    renderDetail(shell(STAFF));
    const field = (await screen.findByTestId('setting-interval', {}, T)) as HTMLInputElement;
    const apply = screen.getByTestId('setting-interval-apply') as HTMLButtonElement;
    expect(apply.disabled).toBe(true);
    fireEvent.change(field, { target: { value: '5' } });
    fireEvent.blur(field);
    // Below the range: the field keeps it within 10..3600.
    await waitFor(() => expect(field.value).toBe('10'));
    fireEvent.change(field, { target: { value: '300' } });
    fireEvent.blur(field);
    await waitFor(() => expect(apply.disabled).toBe(false));
    fireEvent.click(apply);
    await waitFor(() => expect(callsTo(calls, '/api/v1/gateway/SFGW000001/settings/switch', 'POST')).toHaveLength(1));
    expect(callsTo(calls, '/api/v1/gateway/SFGW000001/settings/switch', 'POST')[0]!.body).toBe('name=uploadInterval&value=300');
    expect(await screen.findByText('The gateway applied the setting')).toBeTruthy();
  }, 30_000);
});
