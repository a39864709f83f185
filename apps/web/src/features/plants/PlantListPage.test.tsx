import { QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { createQueryClient } from '../../api/hooks.ts';
import { PageContext } from '../../app/pageContext.ts';
import { ShellContext, type ShellInfo } from '../../app/shell/shellContext.ts';
import { serveUrls } from '../../test/pages.tsx';
import { renderWithApp } from '../../test/render.tsx';
import PlantListPage from './PlantListPage.tsx';
import { plantSelection } from './selection.ts';

const row = (id: number, name: string, extra: Record<string, unknown> = {}) => ({
  id,
  name,
  alias: null,
  status: 'normal',
  type: 0,
  capacity: 10,
  power: 2500,
  todayEnergy: 12_000,
  totalEnergy: 3_400_000,
  lastUpdate: new Date().toISOString(),
  createdAt: new Date().toISOString(),
  alarms: 0,
  owner: { id: 3, account: 'owner@example.com', nickname: 'Marta' },
  company: null,
  role: 'owner',
  thumbnail: null,
  address: null,
  timezone: 'Europe/Madrid',
  canEdit: true,
  canManage: true,
  ...extra,
});

function serve(list: unknown[]) {
  return serveUrls((url) => {
    if (url.startsWith('/api/v1/plants?')) return { total: list.length, list };
    if (url.startsWith('/api/v1/overview/plantCount'))
      return { total: list.length, normal: list.length, offline: 0, warning: 0, fault: 0, upgrading: 0 };
    if (url.startsWith('/api/v1/dict/plantTypes')) return [{ value: 0, name: 'Grid-tied' }];
    if (url.startsWith('/api/v1/overview/eventCount')) return { total: 4, fault: 3, warning: 1, info: 0 };
    return null;
  });
}

/** The list page for an account granted the plant page and `buttons` (read-only or not). */
function renderPage(buttons: string[], readOnly = false) {
  const shell = {
    profile: { readOnly },
    routes: [],
    forbidden: [],
    buttons: { 'station.view': buttons },
    rights: { granted: new Set(['station.view', ...buttons]), readOnly },
  } as unknown as ShellInfo;
  return renderWithApp(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter initialEntries={['/plants']}>
        <ShellContext.Provider value={shell}>
          <PageContext.Provider value={{ route: null, buttons }}>
            <PlantListPage />
          </PageContext.Provider>
        </ShellContext.Provider>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const ownerButtons = ['station.create', 'station.edit', 'station.delete', 'station.share', 'station.transfer'];

afterEach(() => act(() => plantSelection.dispatch({ type: 'reset' })));

describe('plant list page', () => {
  it('asks the server for the default view (type -1, createAt, order 2) and shows counts and rows', async () => {
    const calls = serve([row(1, 'Rooftop North'), row(2, 'Farm South', { status: 'fault', alarms: 3, power: null })]);
    renderPage(['station.create', 'station.edit', 'station.delete']);
    expect(await screen.findByText('Rooftop North', {}, { timeout: 5000 })).toBeTruthy();
    const list = calls.find((u) => u.startsWith('/api/v1/plants?'))!;
    expect(new URL(list, 'http://x').searchParams.toString()).toBe('type=-1&sort=createAt&order=2&page=1&size=20');
    expect(screen.getByTestId('status-card-total').textContent).toContain('2');
    expect(screen.getByTestId('add-plant')).toBeTruthy();
    // Columns: capacity, power (-- when unknown), energy with units.
    const table = screen.getByTestId('plant-table').textContent ?? '';
    expect(table).toContain('10 kWp');
    expect(table).toContain('2.5 kW');
    expect(table).toContain('3.4 MWh');
    expect(table).toContain('--');
    expect(screen.getByTestId('plant-edit-1')).toBeTruthy();
    expect(screen.queryByTestId('plant-share-1')).toBeNull();
    // Open events of the visible plants by level (overview/eventCount).
    expect((await screen.findByTestId('open-alarms')).textContent).toContain('4 open events');
    expect(screen.getByTestId('open-alarms-fault').textContent).toBe('Faults: 3');
    // Event levels in antd's status colours, which the theme seeds from the company colour's palette.
    expect(screen.getByTestId('open-alarms-fault').className).toContain('ant-tag-error');
    expect(screen.getByTestId('open-alarms-warning').className).toContain('ant-tag-warning');
    expect(screen.getByTestId('open-alarms-info').className).toContain('ant-tag-processing');
  }, 20_000);

  it('selecting rows shows the bulk bar with the count; a status card filters on the server', async () => {
    const calls = serve([row(1, 'Rooftop North'), row(2, 'Farm South')]);
    renderPage(['station.delete']);
    await screen.findByText('Farm South', {}, { timeout: 5000 });
    expect(screen.queryByTestId('bulk-bar')).toBeNull();
    fireEvent.click(screen.getByLabelText('Select Rooftop North'));
    fireEvent.click(screen.getByLabelText('Select Farm South'));
    await waitFor(() => expect(screen.getByTestId('bulk-count').textContent).toBe('2 plants selected'));
    expect(screen.getByTestId('bulk-delete').textContent).toContain('Delete 2 plants');
    fireEvent.click(screen.getByTestId('status-card-fault'));
    await waitFor(() => expect(calls.some((u) => u.includes('status=fault'))).toBe(true));
    // The selection survives filtering.
    expect(screen.getByTestId('bulk-count').textContent).toBe('2 plants selected');
  }, 20_000);

  it('a plant the caller only visits has no edit, share, transfer or delete; the caller’s own plant has them', async () => {
    serve([
      row(1, 'Rooftop North'),
      row(2, 'Neighbour Roof', {
        role: 'visitor',
        canEdit: false,
        canManage: false,
        owner: { id: 9, account: null, nickname: 'N' },
      }),
    ]);
    renderPage(ownerButtons);
    await screen.findByText('Neighbour Roof', {}, { timeout: 5000 });
    for (const action of ['edit', 'share', 'transfer', 'delete']) {
      expect(screen.getByTestId(`plant-${action}-1`)).toBeTruthy();
      expect(screen.queryByTestId(`plant-${action}-2`)).toBeNull();
    }
    expect(screen.getByTestId('add-plant')).toBeTruthy();
  }, 20_000);

  it('a manager of a plant edits it but has no owner rights on it', async () => {
    serve([row(1, 'Shared Roof', { role: 'manager', canEdit: true, canManage: false })]);
    renderPage(ownerButtons);
    await screen.findByText('Shared Roof', {}, { timeout: 5000 });
    expect(screen.getByTestId('plant-edit-1')).toBeTruthy();
    for (const action of ['share', 'transfer', 'delete']) expect(screen.queryByTestId(`plant-${action}-1`)).toBeNull();
  }, 20_000);

  it('a read-only account has no writing button, whatever it holds', async () => {
    serve([row(1, 'Rooftop North')]);
    renderPage(ownerButtons, true);
    await screen.findByText('Rooftop North', {}, { timeout: 5000 });
    expect(screen.queryByTestId('add-plant')).toBeNull();
    expect(screen.queryByText('Actions')).toBeNull();
    expect(screen.queryByLabelText('Select Rooftop North')).toBeNull();
  }, 20_000);

  it('a read-only account gets no checkboxes and no action column', async () => {
    serve([row(1, 'Rooftop North', { role: 'visitor', canEdit: false, canManage: false })]);
    renderPage([]);
    await screen.findByText('Rooftop North', {}, { timeout: 5000 });
    expect(screen.queryByLabelText('Select Rooftop North')).toBeNull();
    expect(screen.queryByText('Actions')).toBeNull();
    expect(screen.queryByTestId('add-plant')).toBeNull();
  }, 20_000);
});
