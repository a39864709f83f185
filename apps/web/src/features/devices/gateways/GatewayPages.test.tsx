import { type DataOf, devicesApi, ErrorCode, plantsApi } from '@sunfleet/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { callsTo, fail, on, renderPage, serve } from '../../../test/pages.tsx';
import GatewayDetailPage from './GatewayDetailPage.tsx';
import GatewayListPage from './GatewayListPage.tsx';

type GatewayRow = DataOf<typeof devicesApi.listGateways>['list'][number];
const gateway = (id: number, extra: Partial<GatewayRow> = {}): GatewayRow => ({
  id,
  sn: `SFGW00000${id}`,
  alias: `Gateway ${id}`,
  plant: { id: 4, name: 'Madrid Solar Home', timezone: 'Europe/Madrid' },
  company: { id: 1, name: 'Demo Solar Installers' },
  swVersion: 'SFG-2.4.1',
  hwVersion: 'SFG-4G-B',
  commType: 'wifi',
  rssi: -83,
  signalBars: 2,
  status: 'online',
  lastOnlineAt: new Date().toISOString(),
  lastSeenAt: new Date().toISOString(),
  uploadInterval: 60,
  protocol: null,
  protocols: ['sunfleet-battery', 'sunfleet-hybrid-1p', 'sunfleet-meter-3p'],
  devices: 3,
  canEdit: true,
  createdAt: '2026-01-01T00:00:00.000Z',
  ...extra,
});

describe('gateway list', () => {
  it('shows versions, connection, signal bars, customer, protocols and the counts; cards filter', async () => {
    const calls = serve([
      on(devicesApi.listGateways, {
        total: 2,
        list: [gateway(1), gateway(2, { rssi: -60, signalBars: 4, status: 'offline', commType: '4g', plant: null })],
      }),
      on(devicesApi.gatewayCount, { total: 2, online: 1, offline: 1, unbound: 1 }),
      on(plantsApi.listPlants, { total: 0, list: [] }),
    ]);
    renderPage(<GatewayListPage />, { path: '/device/gateway', pattern: '/device/gateway' });
    await screen.findByTestId('gateway-link-1', {}, { timeout: 5000 });
    expect(callsTo(calls, '/api/v1/gateways')[0]!.url.searchParams.toString()).toBe('page=1&size=20&sort=sn&order=1');
    expect(screen.getByTestId('signal-1').dataset.bars).toBe('2');
    expect(screen.getByTestId('signal-1').getAttribute('aria-label')).toBe('-83 dBm · fair');
    expect(screen.getByTestId('signal-2').dataset.bars).toBe('4');
    const table = screen.getByTestId('gateway-table').textContent ?? '';
    for (const text of [
      'SFG-2.4.1',
      'SFG-4G-B',
      'Wi-Fi',
      '4G',
      'Demo Solar Installers',
      'sunfleet-battery, sunfleet-hybrid-1p, sunfleet-meter-3p',
      '3 devices',
      'Not bound to a plant',
    ])
      expect(table).toContain(text);
    expect(screen.getByTestId('gateway-status-2').textContent).toBe('Offline');
    await waitFor(() => expect(screen.getByTestId('status-card-unbound').textContent).toContain('1'));

    fireEvent.click(screen.getByTestId('status-card-unbound'));
    await waitFor(() => expect(callsTo(calls, '/api/v1/gateways').at(-1)!.url.searchParams.get('binding')).toBe('unbound'));
    fireEvent.click(screen.getByTestId('status-card-offline'));
    await waitFor(() => {
      const q = callsTo(calls, '/api/v1/gateways').at(-1)!.url.searchParams;
      expect([q.get('status'), q.get('binding')]).toEqual(['offline', null]);
    });
    expect(screen.getByTestId('location').textContent).toBe('/device/gateway?status=offline');
  }, 20_000);
});

describe('gateway detail', () => {
  it('lists the devices behind it with links and the connection history', async () => {
    const now = Date.now();
    const iso = (hoursAgo: number) => new Date(now - hoursAgo * 3_600_000).toISOString();
    serve([
      on(devicesApi.getGateway, {
        ...gateway(1),
        deviceList: [
          {
            id: 2,
            sn: 'BTDIBTVFI0KK',
            kind: 'battery',
            alias: null,
            protocol: 'sunfleet-battery',
            status: 'normal',
            state: 'normal',
            lastUpdate: iso(0),
          },
          {
            id: 1,
            sn: 'HYK4V1O8XI0L',
            kind: 'inverter',
            alias: 'Roof',
            protocol: 'sunfleet-hybrid-1p',
            status: 'normal',
            state: 'off',
            lastUpdate: iso(0),
          },
        ],
        history: [
          { state: 'online', from: iso(2), to: null, durationS: 7200 },
          { state: 'offline', from: iso(5), to: iso(2), durationS: 3 * 3600 },
          { state: 'online', from: iso(48), to: iso(5), durationS: 43 * 3600 },
        ],
        historySource: 'sessions',
        canEdit: true,
      }),
    ]);
    renderPage(<GatewayDetailPage />, { path: '/device/gateway/1', pattern: '/device/gateway/:id' });
    expect((await screen.findByTestId('detail-name', {}, { timeout: 5000 })).textContent).toBe('Gateway 1');
    const devices = screen.getByTestId('gateway-devices');
    expect(within(devices).getByTestId('behind-HYK4V1O8XI0L').getAttribute('href')).toBe('/device/inverter/HYK4V1O8XI0L');
    expect(within(devices).getByTestId('behind-BTDIBTVFI0KK').getAttribute('href')).toBe('/device/battery/BTDIBTVFI0KK');
    expect(devices.textContent).toContain('2 devices behind this gateway');
    // A powered-off inverter (stored status normal) is off, as on its own page.
    expect(devices.textContent).toContain('Off');
    expect(devices.textContent).not.toContain('Fault');
    const history = screen.getByTestId('history-table');
    expect(history.textContent).toContain('Ongoing');
    expect(history.textContent).toContain('3 h');
    expect(history.textContent).toContain('1 d 19 h');
    // 45 of the 48 recorded hours online.
    expect(screen.getByTestId('online-share').textContent).toBe('Online 93.8 % of the recorded time');
    const states = [...screen.getByTestId('history-bar').querySelectorAll('[data-state]')].map(
      (e) => (e as HTMLElement).dataset.state,
    );
    expect(states).toEqual(['unknown', 'online', 'offline', 'online']);
    expect(screen.getByTestId('gateway-info').textContent).toContain('1 min');
  }, 20_000);

  it('says "not found" for a gateway the caller cannot see (305)', async () => {
    serve([on(devicesApi.getGateway, fail(ErrorCode.gatewayMissing, 'The gateway does not exist'))]);
    renderPage(<GatewayDetailPage />, { path: '/device/gateway/99', pattern: '/device/gateway/:id' });
    expect(await screen.findByTestId('device-missing', {}, { timeout: 5000 })).toBeTruthy();
  }, 20_000);
});
