/**
 * The upgrade action from the gateway list's selection: an enabled image of the right type, a
 * dialog naming each gateway, one batch call with the waves, the devices left out, the link to the rollout.
 */

import { type DataOf, devicesApi, ErrorCode, plantsApi, upgradesApi } from '@sunfleet/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ShellContext, type ShellInfo } from '../../../app/shell/shellContext.ts';
import { callsTo, on, renderPage, serve } from '../../../test/pages.tsx';
import GatewayListPage from './GatewayListPage.tsx';

const T = { timeout: 10_000 };
const ID = '00000000-0000-4000-8000-0000000000r1';
const shell = (granted: string[]) =>
  ({ profile: {}, routes: [], buttons: {}, rights: { granted: new Set(granted), readOnly: false } }) as unknown as ShellInfo;
type Rollout = DataOf<typeof upgradesApi.gatewaysBatchUpgrade>;
const device = (sn: string): Rollout['devices'][number] => ({
  sn,
  kind: 'gateway',
  gatewaySn: sn,
  rolloutId: ID,
  wave: 0,
  state: 'sending',
  progress: null,
  error: null,
  fromVersion: 'SFG-2.4.1',
  toVersion: 'SFG-2.5.0',
  firmwareId: 9,
  startedAt: null,
  finishedAt: null,
});

const gateway = (id: number, alias: string | null): DataOf<typeof devicesApi.listGateways>['list'][number] => ({
  id,
  sn: `SFGW00000${id}`,
  alias,
  plant: { id: 4, name: 'Madrid Solar Home', timezone: 'Europe/Madrid' },
  company: null,
  swVersion: 'SFG-2.4.1',
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
});

describe('the upgrade action from the gateway list', () => {
  it('picks an enabled gateway image, names each gateway, sends one batch with its waves and links to the rollout', async () => {
    const calls = serve([
      on(devicesApi.listGateways, { total: 2, list: [gateway(1, 'Roof'), gateway(2, null)] }),
      on(devicesApi.gatewayCount, { total: 2, online: 2, offline: 0, unbound: 0 }),
      on(plantsApi.listPlants, { total: 0, list: [] }),
      on(upgradesApi.upgradeFirmwares, [
        {
          id: 9,
          productName: 'SFG 4G',
          version: 'SFG-2.5.0',
          fileName: 'sfg-2.5.0.bin',
          size: 1000,
          changeLog: null,
          createdAt: '2026-01-01T00:00:00.000Z',
        },
      ]),
      on(upgradesApi.gatewaysBatchUpgrade, {
        rolloutId: ID,
        devices: [device('SFGW000001')],
        refused: [{ sn: 'SFGW000002', code: ErrorCode.firmwareLatest, reason: 'the device already runs this version' }],
      }),
    ]);
    renderPage(
      <ShellContext.Provider value={shell(['gateway.view', 'gateway.upgrade'])}>
        <GatewayListPage />
      </ShellContext.Provider>,
      { path: '/device/gateway', pattern: '/device/gateway' },
    );
    await screen.findByTestId('gateway-link-1', {}, T);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select gateway SFGW000001' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select gateway SFGW000002' }));
    // Upgrade only: no restart without its permission.
    expect(screen.queryByTestId('gateway-restart-selected')).toBeNull();
    fireEvent.click(await screen.findByTestId('gateway-upgrade-selected'));
    const form = await screen.findByTestId('upgrade-form');
    expect(screen.getByTestId('upgrade-title').textContent).toBe('Upgrade 2 gateways');
    expect(within(form).getByTestId('upgrade-target-SFGW000001').textContent).toBe('Roof (Madrid Solar Home)');
    expect(within(form).getByTestId('upgrade-target-SFGW000002').textContent).toBe('SFGW000002 (Madrid Solar Home)');
    expect(callsTo(calls, '/api/v1/upgrade/firmwares')[0]!.url.searchParams.get('type')).toBe('gateway');
    expect((screen.getByTestId('upgrade-ok') as HTMLButtonElement).disabled).toBe(true);

    fireEvent.mouseDown(within(screen.getByTestId('upgrade-firmware')).getByRole('combobox'));
    fireEvent.click(await screen.findByText('SFG 4G · SFG-2.5.0 (sfg-2.5.0.bin)'));
    await waitFor(() => expect(screen.getByTestId('upgrade-ok').textContent).toBe('Upgrade 2 devices to SFG-2.5.0'));
    fireEvent.click(screen.getByTestId('upgrade-ok'));
    await waitFor(() => expect(callsTo(calls, '/api/v1/gateways/batch/upgrade', 'POST')).toHaveLength(1));
    expect(JSON.parse(callsTo(calls, '/api/v1/gateways/batch/upgrade', 'POST')[0]!.body ?? '')).toEqual({
      firmId: 9,
      sns: ['SFGW000001', 'SFGW000002'],
      canarySize: 2,
      waveSize: 50,
      failureThreshold: 10,
    });
    const result = await screen.findByTestId('upgrade-result');
    expect(within(result).getByTestId('upgrade-refused-SFGW000002').textContent).toBe('SFGW000002: it already runs this version');
    expect(screen.getByTestId('upgrade-rollout-link').getAttribute('href')).toBe(`/firmware/rollout/${ID}`);
  }, 30_000);
});
