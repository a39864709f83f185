/**
 * The operators' gateway list shows what the rest of the portal shows: the customer or agent by
 * its name alone, and a gateway without a protocol of its own the protocols of its devices.
 */
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderPage, serve } from '../../test/pages.tsx';
import GatewayStockPage from './GatewayStockPage.tsx';

const row = (sn: string, extra: Record<string, unknown> = {}) => ({
  id: sn.length,
  sn,
  alias: null,
  plant: { id: 3, name: 'Sevilla Roof', timezone: 'Europe/Madrid' },
  company: { id: 1, name: 'Demo Solar Installers' },
  swVersion: 'SFG-2_4_1',
  hwVersion: 'HW-1',
  commType: 'wifi',
  rssi: -60,
  signalBars: 3,
  status: 'online',
  lastOnlineAt: '2026-05-20T10:00:00.000Z',
  lastSeenAt: '2026-05-20T10:00:00.000Z',
  uploadInterval: 300,
  protocol: null,
  protocols: ['sunfleet-hybrid-1p', 'sunfleet-meter-3p'],
  devices: 2,
  createdAt: '2026-01-01T00:00:00.000Z',
  canEdit: true,
  ...extra,
});

describe('gateway stock list', () => {
  it('names the customer as the portal does and shows the protocols behind a gateway', async () => {
    const rows = [row('SFGW000001'), row('SFGW000002', { protocol: 'sunfleet-pcs-3p', company: null })];
    serve([
      ['GET', '/api/v1/gateways', () => ({ total: rows.length, list: rows })],
      ['GET', '/api/v1/dict/protocols', () => []],
    ]);
    renderPage(<GatewayStockPage />, { path: '/management/gateway', pattern: '/management/gateway' });
    const customer = await screen.findByTestId('stock-customer-SFGW000001', {}, { timeout: 5000 });
    expect(customer.textContent).toBe('Demo Solar Installers');
    expect(screen.getByTestId('stock-protocol-SFGW000001').textContent).toBe('sunfleet-hybrid-1p, sunfleet-meter-3p');
    expect(screen.getByTestId('stock-protocol-SFGW000002').textContent).toBe('sunfleet-pcs-3p');
  }, 20_000);
});
