import { ErrorCode } from '@sunfleet/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../api/hooks.ts';
import { PageContext } from '../../app/pageContext.ts';
import { ShellContext, type ShellInfo } from '../../app/shell/shellContext.ts';
import { todayIn } from '../../lib/dateNav.ts';
import { renderWithApp } from '../../test/render.tsx';
import WorkdataPage from './WorkdataPage.tsx';

// Canvas charts do not draw in jsdom: the chart shows which series it was given.
vi.mock('../../components/EChart.tsx', () => ({
  EChart: ({ option, testId }: { option: { series: Array<{ id?: string }> }; testId?: string }) => (
    <div data-testid={testId} data-series={option.series.map((s) => s.id ?? '').join(',')} />
  ),
}));

const param = (key: string, name: string, unit: string | null, extra: Record<string, unknown> = {}) => ({
  key,
  name,
  unit,
  numeric: true,
  stored: true,
  options: null,
  ...extra,
});
const usual = [
  param('power_w', 'Output power', 'W'),
  param('soc', 'State of charge', '%'),
  param('mode', 'Work mode', null, { stored: false, options: { '1': 'Selling first', '2': 'Backup' } }),
  param('serial', 'Serial number', null, { numeric: false, stored: false }),
];
let params = usual;
let defaults = ['power_w', 'mode', 'soc'];
/** Chart values by parameter (signed power in the convention: grid + import, battery + discharge). */
const chartValues: Record<string, number[]> = { grid_power_w: [-500, 300, 0], battery_power_w: [800, -200, 0] };
let head = { sn: 'INV1', kind: 'inverter', alias: 'Roof east', timezone: 'Europe/Madrid' };
const T1 = '2026-05-20T10:00:00.000Z';
const T2 = '2026-05-20T10:05:00.000Z';
const T3 = '2026-05-20T10:10:00.000Z';

function serve() {
  const calls: URL[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://portal');
      calls.push(url);
      const ok = (data: unknown) => new Response(JSON.stringify({ code: ErrorCode.ok, msg: 'ok', data }), { status: 200 });
      const q = url.searchParams;
      switch (url.pathname) {
        case '/api/v1/plants':
          return ok({ total: 1, list: [{ id: 12, name: 'Milano Roof' }] });
        case '/api/v1/inverters':
          return ok({ total: 1, list: [{ sn: 'INV1', alias: 'Roof east' }] });
        case '/api/v1/workdata/params':
          return ok({ ...head, protocol: 'sunfleet-hybrid', params, defaults });
        case '/api/v1/workdata/dynamic': {
          const chosen = params.filter((p) => q.getAll('params').includes(p.key));
          const row = (ts: string, i: number) => ({ ts, values: chosen.map((p) => (p.key === 'mode' ? 1 : 1000 + i)) });
          if (!q.get('after'))
            return ok({ ...head, params: chosen, total: 3, list: [row(T1, 0), row(T2, 1)], next: Date.parse(T2) });
          return ok({ ...head, params: chosen, total: 3, list: [row(T3, 2)], next: null });
        }
        case '/api/v1/workdata/dynamic/chart':
          return ok({
            ...head,
            params: params.filter((p) => q.getAll('params').includes(p.key)),
            bucketSeconds: 0,
            ts: [T1, T2, T3],
            series: q.getAll('params').map((key) => {
              const values = chartValues[key] ?? [1, 2, 3];
              return { key, avg: values, min: values, max: values };
            }),
          });
        case '/api/v1/workdata/event':
        case '/api/v1/workdata/battery/event': {
          const chosen = params.filter((p) => q.getAll('params').includes(p.key));
          const ev = (id: number, code: string, text: string) => ({
            id,
            sn: head.sn,
            code,
            level: 'warning',
            source: 'device',
            text,
            startedAt: T2,
            endedAt: null,
            plantId: 12,
            plantName: 'Milano Roof',
            kind: head.kind,
            alias: head.alias,
            pack: head.kind === 'battery' ? 2 : null,
            action: '',
            acknowledged: false,
            ackAt: null,
            ackBy: null,
            ackNote: null,
            canAck: false,
          });
          return ok({
            ...head,
            params: chosen,
            total: 2,
            list: [
              {
                event: ev(5, 'lowInsulation', 'Low insulation'),
                sample: { ts: T1, values: chosen.map((p) => (p.key === 'mode' ? 2 : 4321)) },
              },
              { event: ev(6, 'fanWarning', 'Fan speed low'), sample: null },
            ],
          });
        }
        case '/api/v1/workdata/dynamic/download':
          return new Response('PK-xlsx', { status: 200 });
      }
      return ok(null);
    }),
  );
  return calls;
}

function renderPage(path: string, buttons: string[] = ['workdata.export']) {
  const shell = { profile: {}, routes: [], buttons: { 'workdata.view': buttons, 'inverter.view': [] } } as unknown as ShellInfo;
  return renderWithApp(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter initialEntries={[path]}>
        <ShellContext.Provider value={shell}>
          <PageContext.Provider value={{ route: null, buttons }}>
            <WorkdataPage />
          </PageContext.Provider>
        </ShellContext.Provider>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const PATH = '/workdata/list?plantId=12&sn=INV1&start=2026-05-19&end=2026-05-20';
const of = (calls: URL[], path: string) => calls.filter((c) => c.pathname === path);

describe('operation data page', () => {
  afterEach(() => {
    head = { ...head, kind: 'inverter', timezone: 'Europe/Madrid' };
    params = usual;
    defaults = ['power_w', 'mode', 'soc'];
  });

  it('without a chosen period it shows today of the plant, in the plant’s zone', async () => {
    head = { ...head, timezone: 'Pacific/Kiritimati' };
    const calls = serve();
    renderPage('/workdata/list?sn=INV1');
    await waitFor(() => expect(of(calls, '/api/v1/workdata/dynamic').length).toBeGreaterThan(0), { timeout: 5000 });
    const q = of(calls, '/api/v1/workdata/dynamic').at(-1)!.searchParams;
    const day = todayIn('Pacific/Kiritimati');
    expect([q.get('startDate'), q.get('endDate')]).toEqual([day, day]);
    // Nothing is asked for with the browser's day first.
    expect(of(calls, '/api/v1/workdata/dynamic').every((c) => c.searchParams.get('startDate') === day)).toBe(true);
  }, 20_000);

  it('without a device it asks to choose one; choosing plant → device loads its data', async () => {
    const calls = serve();
    renderPage('/workdata/list?plantId=12&start=2026-05-19&end=2026-05-20');
    expect(screen.getByText('Choose a plant and one of its devices to see its operation data')).toBeTruthy();
    await waitFor(() => expect(of(calls, '/api/v1/inverters')).toHaveLength(1));
    expect(of(calls, '/api/v1/inverters')[0]!.searchParams.get('plantId')).toBe('12');
    fireEvent.mouseDown(within(screen.getByTestId('workdata-device')).getByRole('combobox'));
    fireEvent.click(await screen.findByText('Roof east · INV1', {}, { timeout: 5000 }));
    await waitFor(() => expect(of(calls, '/api/v1/workdata/params')).toHaveLength(1), { timeout: 5000 });
    expect(of(calls, '/api/v1/workdata/params')[0]!.searchParams.get('sn')).toBe('INV1');
    expect(await screen.findByTestId('sample-table', {}, { timeout: 5000 })).toBeTruthy();
  }, 20_000);

  it('samples of the usual set in the plant zone, keyset paging, and the chart of the first numeric ones', async () => {
    const calls = serve();
    renderPage(PATH);
    expect(await screen.findByText('2026-05-20 12:00:00', {}, { timeout: 5000 })).toBeTruthy();
    const first = of(calls, '/api/v1/workdata/dynamic')[0]!.searchParams;
    expect(first.getAll('params')).toEqual(['power_w', 'mode', 'soc']);
    expect([first.get('sn'), first.get('startDate'), first.get('endDate'), first.get('size'), first.get('after')]).toEqual([
      'INV1',
      '2026-05-19',
      '2026-05-20',
      '200',
      null,
    ]);
    const table = screen.getByTestId('sample-table').textContent ?? '';
    expect(table).toContain('Output power (W)');
    expect(table).toContain('1,000');
    expect(table).toContain('Selling first');
    expect(screen.getByTestId('sample-total').textContent).toBe('3 samples');
    expect(screen.getByTestId('sample-range').textContent).toBe('1–2 of 3');

    // The chart: the measurements of the usual set, at most two at first (not the work-mode enum).
    const chart = await screen.findByTestId('workdata-chart', {}, { timeout: 5000 });
    expect(of(calls, '/api/v1/workdata/dynamic/chart')[0]!.searchParams.getAll('params')).toEqual(['power_w', 'soc']);
    expect(chart.getAttribute('data-series')).toBe('line-power_w,line-soc');

    fireEvent.click(screen.getByTestId('sample-next'));
    expect(await screen.findByText('2026-05-20 12:10:00', {}, { timeout: 5000 })).toBeTruthy();
    expect(of(calls, '/api/v1/workdata/dynamic').at(-1)!.searchParams.get('after')).toBe(String(Date.parse(T2)));
    expect(screen.getByTestId('sample-range').textContent).toBe('3–3 of 3');
    expect((screen.getByTestId('sample-next') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByTestId('sample-prev'));
    expect(await screen.findByText('2026-05-20 12:00:00', {}, { timeout: 5000 })).toBeTruthy();
  }, 20_000);

  it('signed power: the chart draws grid as Import and Export and battery as Discharge and Charge; the table names the convention', async () => {
    params = [
      param('grid_power_w', 'Grid power', 'W', { flow: 'grid' }),
      param('battery_power_w', 'Battery power', 'W', { flow: 'battery' }),
    ];
    defaults = ['grid_power_w', 'battery_power_w'];
    serve();
    renderPage(PATH);
    const chart = await screen.findByTestId('workdata-chart', {}, { timeout: 5000 });
    expect(chart.getAttribute('data-series')).toBe(
      'line-grid_power_w.gridImport,line-grid_power_w.gridExport,line-battery_power_w.discharge,line-battery_power_w.charge',
    );
    await screen.findByText('2026-05-20 12:00:00', {}, { timeout: 5000 });
    const table = screen.getByTestId('sample-table').textContent ?? '';
    expect(table).toContain('Grid power (W, + import / − export)');
    expect(table).toContain('Battery power (W, + discharge / − charge)');
  }, 20_000);

  it('the download sends the device, the period, the parameters and the language', async () => {
    const calls = serve();
    const saved: string[] = [];
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:x'), revokeObjectURL: vi.fn() }));
    vi.spyOn(HTMLElement.prototype, 'click').mockImplementation(function (this: HTMLElement) {
      if (this instanceof HTMLAnchorElement) saved.push(this.download);
    });
    renderPage(PATH);
    fireEvent.click(await screen.findByTestId('workdata-download', {}, { timeout: 5000 }));
    await waitFor(() => expect(saved).toEqual(['workdata-INV1-2026-05-19_2026-05-20.xlsx']));
    const q = of(calls, '/api/v1/workdata/dynamic/download')[0]!.searchParams;
    expect(q.getAll('params')).toEqual(['power_w', 'mode', 'soc']);
    expect([q.get('sn'), q.get('startDate'), q.get('endDate'), q.get('lan')]).toEqual(['INV1', '2026-05-19', '2026-05-20', 'en']);
  }, 20_000);

  it('no download without workdata.export', async () => {
    serve();
    renderPage(PATH, []);
    await screen.findByTestId('sample-table', {}, { timeout: 5000 });
    expect(screen.queryByTestId('workdata-download')).toBeNull();
  }, 20_000);

  it('the events tab of an inverter lists its events with the reading at their start', async () => {
    const calls = serve();
    renderPage(PATH);
    fireEvent.click(await screen.findByTestId('workdata-tab-events', {}, { timeout: 5000 }));
    expect(await screen.findByText('Low insulation', {}, { timeout: 5000 })).toBeTruthy();
    const q = of(calls, '/api/v1/workdata/event')[0]!.searchParams;
    expect([q.get('sn'), q.get('startDate'), q.get('endDate'), q.get('page'), q.get('size')]).toEqual([
      'INV1',
      '2026-05-19',
      '2026-05-20',
      '1',
      '10',
    ]);
    expect(q.getAll('params')).toEqual(['power_w', 'mode', 'soc']);
    expect(of(calls, '/api/v1/workdata/battery/event')).toHaveLength(0);
    const table = screen.getByTestId('workdata-events-table').textContent ?? '';
    expect(table).toContain('lowInsulation');
    expect(table).toContain('Output power (W)');
    expect(table).toContain('4,321');
    expect(table).toContain('Backup');
    expect(table).toContain('2026-05-20 12:05:00');
    expect(table).toContain('No reading');
    expect(screen.getByTestId('workdata-events-total').textContent).toBe('2 events');
  }, 20_000);

  it('the events tab of a battery asks the battery events', async () => {
    head = { ...head, kind: 'battery' };
    const calls = serve();
    renderPage(PATH);
    fireEvent.click(await screen.findByTestId('workdata-tab-events', {}, { timeout: 5000 }));
    expect(await screen.findByText('Low insulation', {}, { timeout: 5000 })).toBeTruthy();
    expect(of(calls, '/api/v1/workdata/battery/event')[0]!.searchParams.get('sn')).toBe('INV1');
    expect(of(calls, '/api/v1/workdata/event')).toHaveLength(0);
    expect(screen.getByTestId('workdata-events-table').textContent).toContain('(pack 2)');
  }, 20_000);

  it('a period over 90 days is refused with a message and no samples are asked for', async () => {
    const calls = serve();
    renderPage('/workdata/list?sn=INV1&start=2026-01-01&end=2026-05-20');
    expect((await screen.findByTestId('workdata-range-problem')).textContent).toBe(
      'The period can be at most 90 days. Choose a shorter one.',
    );
    await screen.findByTestId('workdata-device-info', {}, { timeout: 5000 });
    await new Promise((r) => setTimeout(r, 300));
    expect(of(calls, '/api/v1/workdata/dynamic')).toHaveLength(0);
    expect(of(calls, '/api/v1/workdata/dynamic/chart')).toHaveLength(0);
    expect((screen.getByTestId('workdata-download') as HTMLButtonElement).disabled).toBe(true);
  }, 20_000);
});
