import { ErrorCode } from '@sunfleet/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ShellContext, type ShellInfo } from '../../../app/shell/shellContext.ts';
import { callsTo, fail, renderPage, serve } from '../../../test/pages.tsx';
import InverterListPage from './InverterListPage.tsx';

const inverter = (sn: string, extra: Record<string, unknown> = {}) => ({
  id: sn.length,
  sn,
  alias: null,
  plant: { id: 7, name: 'Ciudad de México Solar Farmhouse', timezone: 'America/Mexico_City' },
  gateway: { id: 4, sn: 'SFGW000004', alias: null },
  protocol: 'sunfleet-hybrid-3p',
  deviceType: 94,
  typeKey: 'threePhaseHighVoltage',
  ratedPower: 10_000,
  power: 3579,
  todayEnergy: 31_600,
  totalEnergy: 59_354_900,
  status: 'normal',
  state: 'normal',
  lastUpdate: new Date().toISOString(),
  createdAt: '2026-01-01T00:00:00.000Z',
  canEdit: true,
  canDelete: true,
  ...extra,
});
const counts = { total: 2, normal: 1, offline: 0, warning: 0, fault: 1, upgrading: 0, off: 0 };

function standard(
  rows = [
    inverter('HYABVNAAB1ME'),
    inverter('HYK4V1O8XI0L', {
      alias: 'East roof',
      deviceType: 2,
      typeKey: 'singlePhase',
      status: 'fault',
      state: 'fault',
      power: null,
    }),
  ],
) {
  return serve([
    ['GET', '/api/v1/inverters', () => ({ total: rows.length, list: rows })],
    ['GET', '/api/v1/inverters/count', () => counts],
    ['GET', '/api/v1/plants', () => ({ total: 1, list: [{ id: 7, name: 'Ciudad de México Solar Farmhouse' }] })],
  ]);
}

const render = (buttons: string[] = [], path = '/device/inverter') =>
  renderPage(<InverterListPage />, { path, pattern: '/device/inverter', buttons });

const shell = (granted: string[], readOnly = false) =>
  ({ profile: {}, routes: [], buttons: {}, rights: { granted: new Set(granted), readOnly } }) as unknown as ShellInfo;
const renderAs = (caller: ShellInfo) =>
  renderPage(
    <ShellContext.Provider value={caller}>
      <InverterListPage />
    </ShellContext.Provider>,
    { path: '/device/inverter', pattern: '/device/inverter' },
  );

describe('inverter list: remote settings of the selection', () => {
  it('offers the selected inverters to the remote settings as one batch', async () => {
    standard();
    renderAs(shell(['inverter.view', 'inverter.setting']));
    await screen.findByTestId('inverter-link-HYABVNAAB1ME', {}, { timeout: 5000 });
    expect(screen.queryByTestId('inverter-remote-settings')).toBeNull();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select HYABVNAAB1ME' }));
    expect((await screen.findByTestId('inverter-selected')).textContent).toBe('1 inverter selected');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select HYK4V1O8XI0L' }));
    await waitFor(() => expect(screen.getByTestId('inverter-selected').textContent).toBe('2 inverters selected'));
    fireEvent.click(screen.getByTestId('inverter-remote-settings'));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/device/setting?sns=HYABVNAAB1ME,HYK4V1O8XI0L'));
  }, 20_000);

  it('has no selection without inverter.setting, nor for a read-only account', async () => {
    for (const caller of [shell(['inverter.view']), shell(['inverter.view', 'inverter.setting'], true)]) {
      standard();
      const view = renderAs(caller);
      await screen.findByTestId('inverter-link-HYABVNAAB1ME', {}, { timeout: 5000 });
      expect(screen.queryAllByRole('checkbox')).toHaveLength(0);
      view.unmount();
    }
  }, 20_000);
});

describe('inverter list', () => {
  it('shows a powered-off inverter as off (the server’s state), named by the contracts', async () => {
    standard([inverter('HYABVNAAB1ME', { state: 'off' })]);
    render();
    expect((await screen.findByTestId('status-HYABVNAAB1ME', {}, { timeout: 5000 })).textContent).toBe('Off');
  }, 20_000);

  it('counts powered-off inverters on their own card and filters by off, as the badges show', async () => {
    const calls = serve([
      ['GET', '/api/v1/inverters', () => ({ total: 1, list: [inverter('HYABVNAAB1ME', { state: 'off' })] })],
      ['GET', '/api/v1/inverters/count', () => ({ total: 2, normal: 1, offline: 0, warning: 0, fault: 0, upgrading: 0, off: 1 })],
      ['GET', '/api/v1/plants', () => ({ total: 0, list: [] })],
    ]);
    render();
    const card = await screen.findByTestId('status-card-off', {}, { timeout: 5000 });
    await waitFor(() => expect(card.textContent).toBe('Off1'));
    fireEvent.click(card);
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/device/inverter?status=off'));
    await waitFor(() => expect(callsTo(calls, '/api/v1/inverters').at(-1)!.url.searchParams.get('status')).toBe('off'));
    expect((await screen.findByTestId('status-HYABVNAAB1ME')).textContent).toBe('Off');
  }, 20_000);

  it('keeps an off filter from the address', async () => {
    const calls = standard();
    render([], '/device/inverter?status=off');
    await screen.findByTestId('inverter-link-HYABVNAAB1ME', {}, { timeout: 5000 });
    expect(callsTo(calls, '/api/v1/inverters')[0]!.url.searchParams.get('status')).toBe('off');
  }, 20_000);

  it('asks for SN order, first page of 20, and shows type names, power and counts', async () => {
    const calls = standard();
    render();
    await screen.findByTestId('inverter-link-HYABVNAAB1ME', {}, { timeout: 5000 });
    const list = callsTo(calls, '/api/v1/inverters')[0]!;
    expect(list.url.searchParams.toString()).toBe('page=1&size=20&sort=sn&order=1');
    const table = screen.getByTestId('inverter-table').textContent ?? '';
    expect(table).toContain('Three-phase high-voltage'); // type register 94
    expect(table).toContain('Single-phase'); // 2
    expect(table).not.toContain('Single-phase hybrid');
    expect(table).toContain('3.6 kW');
    expect(table).toContain('10.0 kW');
    expect(table).toContain('31.6 kWh');
    expect(table).toContain('East roof');
    expect(screen.getByTestId('status-HYK4V1O8XI0L').textContent).toBe('Fault');
    await waitFor(() => expect(screen.getByTestId('status-card-fault').textContent).toContain('1'));
    expect(screen.getByTestId('status-card-total').textContent).toContain('All inverters');
    // No rename/delete buttons without inverter.alias / inverter.delete.
    expect(screen.queryByTestId('rename-HYABVNAAB1ME')).toBeNull();
    expect(screen.queryByTestId('delete-HYABVNAAB1ME')).toBeNull();
  }, 20_000);

  it('filters by status card, type and keyword on the server; counts leave out the status', async () => {
    const calls = standard();
    render();
    await screen.findByTestId('inverter-link-HYABVNAAB1ME', {}, { timeout: 5000 });
    fireEvent.click(screen.getByTestId('status-card-fault'));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/device/inverter?status=fault'));
    await waitFor(() =>
      expect(callsTo(calls, '/api/v1/inverters').some((c) => c.url.searchParams.get('status') === 'fault')).toBe(true),
    );
    fireEvent.change(screen.getByTestId('filter-keyword'), { target: { value: 'HYK4' } });
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/device/inverter?status=fault&keyword=HYK4'), {
      timeout: 3000,
    });
    await waitFor(() => {
      const last = callsTo(calls, '/api/v1/inverters/count').at(-1)!;
      expect(last.url.searchParams.toString()).toBe('keyword=HYK4');
    });
    const list = callsTo(calls, '/api/v1/inverters').at(-1)!;
    expect(list.url.searchParams.get('keyword')).toBe('HYK4');
    expect(list.url.searchParams.get('status')).toBe('fault');
    expect(screen.getByTestId('filters-reset')).toBeTruthy();
  }, 20_000);

  it('reads a type filter and sort from the address and a row opens the inverter', async () => {
    const calls = standard();
    render([], '/device/inverter?type=micro&sort=power&order=2&page=2');
    await screen.findByTestId('inverter-link-HYABVNAAB1ME', {}, { timeout: 5000 });
    const list = callsTo(calls, '/api/v1/inverters')[0]!;
    expect(Object.fromEntries(list.url.searchParams)).toMatchObject({ type: 'micro', sort: 'power', order: '2', page: '2' });
    expect(callsTo(calls, '/api/v1/inverters/count')[0]!.url.searchParams.get('type')).toBe('micro');
    // A click on the row (not on a link in it) opens the inverter.
    fireEvent.click(screen.getAllByText('Three-phase high-voltage')[0]!);
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/device/inverter/HYABVNAAB1ME'));
  }, 20_000);

  it('renames within 32 bytes (not characters) and shows what the server refuses', async () => {
    const calls = standard();
    let refuse = true;
    serve([
      ['GET', '/api/v1/inverters', () => ({ total: 1, list: [inverter('HYABVNAAB1ME')] })],
      ['GET', '/api/v1/inverters/count', () => counts],
      ['GET', '/api/v1/plants', () => ({ total: 0, list: [] })],
      [
        'POST',
        '/api/v1/inverter/HYABVNAAB1ME/alias',
        (c) => {
          calls.push(c);
          return refuse
            ? fail(ErrorCode.noPermission, 'You do not have permission for this')
            : { sn: 'HYABVNAAB1ME', alias: 'Tejado Muñoz' };
        },
      ],
    ]);
    render(['inverter.alias', 'inverter.delete']);
    fireEvent.click(await screen.findByTestId('rename-HYABVNAAB1ME', {}, { timeout: 5000 }));
    const input = await screen.findByTestId('alias-input');
    // 16 × "ñ" = 32 bytes: allowed; one more letter: 33 bytes, refused before any request.
    fireEvent.change(input, { target: { value: `${'ñ'.repeat(16)}a` } });
    await waitFor(() => expect(screen.getByTestId('alias-bytes').textContent).toContain('33 of 32 bytes'));
    fireEvent.click(screen.getByTestId('alias-save'));
    expect(await screen.findByText('The alias can be at most 32 bytes')).toBeTruthy();
    expect(callsTo(calls, '/api/v1/inverter/HYABVNAAB1ME/alias', 'POST')).toHaveLength(0);

    fireEvent.change(input, { target: { value: 'Tejado Muñoz' } });
    await waitFor(() => expect(screen.getByTestId('alias-bytes').textContent).toContain('13 of 32 bytes'));
    fireEvent.click(screen.getByTestId('alias-save'));
    const dialog = screen.getByTestId('alias-dialog');
    await waitFor(() => expect(within(dialog).getByText('You do not have permission for this')).toBeTruthy());
    const sent = callsTo(calls, '/api/v1/inverter/HYABVNAAB1ME/alias', 'POST')[0]!;
    expect(new URLSearchParams(sent.body ?? '').get('alias')).toBe('Tejado Muñoz');

    refuse = false;
    fireEvent.click(screen.getByTestId('alias-save'));
    expect(await screen.findByText('Alias saved')).toBeTruthy();
  }, 20_000);

  it('deletes after a confirmation', async () => {
    const deleted: string[] = [];
    serve([
      ['GET', '/api/v1/inverters', () => ({ total: 1, list: [inverter('HYABVNAAB1ME')] })],
      ['GET', '/api/v1/inverters/count', () => counts],
      ['GET', '/api/v1/plants', () => ({ total: 0, list: [] })],
      [
        'POST',
        /^\/api\/v1\/inverter\/[^/]+\/delete$/,
        (c) => {
          deleted.push(c.url.pathname);
          return null;
        },
      ],
    ]);
    render(['inverter.delete']);
    fireEvent.click(await screen.findByTestId('delete-HYABVNAAB1ME', {}, { timeout: 5000 }));
    expect(screen.queryByTestId('rename-HYABVNAAB1ME')).toBeNull();
    expect((await screen.findAllByText('Delete HYABVNAAB1ME?', {}, { timeout: 5000 })).length).toBeGreaterThan(0);
    expect(deleted).toEqual([]);
    fireEvent.click(screen.getByTestId('delete-confirm-ok'));
    await waitFor(() => expect(deleted).toEqual(['/api/v1/inverter/HYABVNAAB1ME/delete']));
    expect(await screen.findByText('HYABVNAAB1ME was deleted', {}, { timeout: 5000 })).toBeTruthy();
  }, 20_000);

  it('a row the server gives no rights shows no rename or delete, even where the page grants them', async () => {
    serve([
      [
        'GET',
        '/api/v1/inverters',
        () => ({
          total: 2,
          list: [inverter('HYABVNAAB1ME'), inverter('HYVISITOR001', { canEdit: false, canDelete: false })],
        }),
      ],
      ['GET', '/api/v1/inverters/count', () => counts],
      ['GET', '/api/v1/plants', () => ({ total: 0, list: [] })],
    ]);
    render(['inverter.alias', 'inverter.delete']);
    await screen.findByTestId('delete-HYABVNAAB1ME', {}, { timeout: 5000 });
    expect(screen.getByTestId('rename-HYABVNAAB1ME')).toBeTruthy();
    expect(screen.getByTestId('inverter-link-HYVISITOR001')).toBeTruthy();
    expect(screen.queryByTestId('delete-HYVISITOR001')).toBeNull();
    expect(screen.queryByTestId('rename-HYVISITOR001')).toBeNull();
  }, 20_000);

  it('says so when there are no inverters at all', async () => {
    serve([
      ['GET', '/api/v1/inverters', () => ({ total: 0, list: [] })],
      ['GET', '/api/v1/inverters/count', () => ({ total: 0, normal: 0, offline: 0, warning: 0, fault: 0, upgrading: 0 })],
    ]);
    render();
    expect(await screen.findByText(/No inverters yet/, {}, { timeout: 5000 })).toBeTruthy();
  }, 20_000);
});
