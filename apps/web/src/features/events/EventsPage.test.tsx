import { ErrorCode } from '@sunfleet/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../api/hooks.ts';
import { PageContext } from '../../app/pageContext.ts';
import { ShellContext, type ShellInfo } from '../../app/shell/shellContext.ts';
import { quickRange } from '../../lib/dateRange.ts';
import { eventRow } from '../../test/events.ts';
import { renderWithApp } from '../../test/render.tsx';
import EventsPage from './EventsPage.tsx';

const event = eventRow;

interface Call {
  url: URL;
  method: string;
  body: string | null;
}

/** A fake server: lists, per-level totals, detail, acknowledgement and the downloads. */
function serve(list: ReturnType<typeof event>[], opts: { totals?: Record<string, number>; snStatus?: number } = {}) {
  const calls: Call[] = [];
  const totals = opts.totals ?? { fault: 2, warning: 5, info: 1 };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://portal');
      const method = init?.method ?? 'GET';
      calls.push({ url, method, body: typeof init?.body === 'string' ? init.body : null });
      const ok = (data: unknown) => new Response(JSON.stringify({ code: ErrorCode.ok, msg: 'ok', data }), { status: 200 });
      const path = url.pathname;
      if (path === '/api/v1/events') {
        if (url.searchParams.get('sn') === 'NOPE1')
          return new Response(JSON.stringify({ code: ErrorCode.notFound, msg: 'Not found', data: null }));
        const level = url.searchParams.get('level');
        if (url.searchParams.get('size') === '1' && level) return ok({ total: totals[level] ?? 0, list: [] });
        return ok({ total: list.length, list });
      }
      if (path === '/api/v1/battery/events') {
        const level = url.searchParams.get('level');
        if (url.searchParams.get('size') === '1' && level) return ok({ total: totals[level] ?? 0, list: [] });
        return ok({ total: list.length, list: list.map((e) => ({ ...e, kind: 'battery', pack: 2 })) });
      }
      if (path === '/api/v1/plants') return ok({ total: 1, list: [{ id: 7, name: 'Casa Marta Rooftop' }] });
      const detail = path.match(/^\/api\/v1\/event\/(\d+)\/detail$/);
      if (detail) return ok(list.find((e) => e.id === Number(detail[1])));
      const ack = path.match(/^\/api\/v1\/event\/(\d+)\/ack$/);
      if (ack) {
        const e = list.find((x) => x.id === Number(ack[1]))!;
        return ok({
          ...e,
          acknowledged: true,
          canAck: false,
          ackBy: 'Ana',
          ackAt: '2026-05-20T10:00:00.000Z',
          ackNote: 'Called the utility',
        });
      }
      if (path.endsWith('/download')) return new Response('PK-xlsx', { status: 200 });
      return ok(null);
    }),
  );
  return calls;
}

const shell = (buttons: Record<string, string[]>) => ({ profile: {}, routes: [], buttons }) as unknown as ShellInfo;

function renderPage(path = '/device/event', buttons: Record<string, string[]> = { 'event.view': ['event.export'] }) {
  return renderWithApp(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter initialEntries={[path]}>
        <ShellContext.Provider value={shell(buttons)}>
          <PageContext.Provider value={{ route: null, buttons: buttons['event.view'] ?? [] }}>
            <EventsPage />
          </PageContext.Provider>
        </ShellContext.Provider>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const lists = (calls: Call[]) =>
  calls.filter((c) => c.url.pathname === '/api/v1/events' && c.url.searchParams.get('size') !== '1');

describe('events page', () => {
  it('asks for the last 7 days in the browser zone and shows counts per level, levels and open events', async () => {
    const calls = serve([event(1), event(2, { level: 'warning', code: 'fanWarning', text: 'Fan speed low', endedAt: null })]);
    renderPage();
    expect(await screen.findByText('Grid over-voltage 1', {}, { timeout: 5000 })).toBeTruthy();
    const week = quickRange('last7');
    const q = lists(calls)[0]!.url.searchParams;
    expect(q.get('startDate')).toBe(week.start);
    expect(q.get('endDate')).toBe(week.end);
    expect(q.get('timezone')).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect([q.get('page'), q.get('size'), q.get('level')]).toEqual(['1', '20', null]);
    // Per-level totals: one one-row page per level, the sum is "All events".
    await waitFor(() => expect(screen.getByTestId('level-count-total').textContent).toBe('8'));
    expect(screen.getByTestId('level-count-fault').textContent).toBe('2');
    expect(screen.getByTestId('level-count-warning').textContent).toBe('5');
    expect(screen.getByTestId('level-count-info').textContent).toBe('1');
    expect(screen.getByTestId('event-level-1').textContent).toBe('Fault');
    expect(screen.getByTestId('event-level-2').textContent).toBe('Warning');
    const table = screen.getByTestId('event-table').textContent ?? '';
    expect(table).toContain('Ongoing');
    expect(table).toContain('1 h 30 min');
    expect(table).toContain('Inverter · Roof east');
    expect(screen.getByText('2 events')).toBeTruthy();
  }, 20_000);

  it('a level card and the state filter go to the server; the reset clears them', async () => {
    const calls = serve([event(1)]);
    renderPage();
    await screen.findByText('Grid over-voltage 1', {}, { timeout: 5000 });
    fireEvent.click(screen.getByTestId('level-card-fault'));
    await waitFor(() => expect(lists(calls).some((c) => c.url.searchParams.get('level') === 'fault')).toBe(true));
    fireEvent.click(within(screen.getByTestId('event-state-filter')).getByText('Open'));
    await waitFor(() =>
      expect(
        lists(calls).some((c) => c.url.searchParams.get('level') === 'fault' && c.url.searchParams.get('state') === 'open'),
      ).toBe(true),
    );
    // The counts keep every level but follow the other filters.
    const counts = calls.filter((c) => c.url.searchParams.get('size') === '1');
    expect(counts.at(-1)!.url.searchParams.get('state')).toBe('open');
    expect(screen.getByTestId('level-card-fault').getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(screen.getByTestId('event-filters-reset'));
    await waitFor(() => expect(screen.getByTestId('level-card-total').getAttribute('aria-pressed')).toBe('true'));
    expect(screen.queryByTestId('event-filters-reset')).toBeNull();
  }, 20_000);

  it('a period over 90 days is refused with a message and never asked for', async () => {
    const calls = serve([event(1)]);
    renderPage('/device/event?start=2026-01-01&end=2026-04-30');
    expect((await screen.findByTestId('event-range-problem')).textContent).toBe(
      'The period can be at most 90 days. Choose a shorter one.',
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(calls.filter((c) => c.url.pathname === '/api/v1/events')).toHaveLength(0);
    expect((screen.getByTestId('event-download-battery') as HTMLButtonElement).disabled).toBe(true);
  }, 20_000);

  it('a linked SN nobody can see is said under the field (no list); typing searches from 2 characters', async () => {
    const calls = serve([event(1)]);
    renderPage('/device/event?sn=NOPE1');
    expect(await screen.findByText('No device or gateway you can see has the SN NOPE1', {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.queryByText('Grid over-voltage 1')).toBeNull();
    const before = calls.length;
    fireEvent.change(screen.getByTestId('event-sn-filter'), { target: { value: 'r' } });
    expect(await screen.findByText('Type at least 2 characters', {}, { timeout: 3000 })).toBeTruthy();
    await new Promise((r) => setTimeout(r, 600));
    expect(lists(calls.slice(before)).some((c) => c.url.searchParams.has('search'))).toBe(false);
    fireEvent.change(screen.getByTestId('event-sn-filter'), { target: { value: ' Roof east ' } });
    await waitFor(() => expect(lists(calls).some((c) => c.url.searchParams.get('search') === 'Roof east')).toBe(true), {
      timeout: 8000,
    });
    const sent = lists(calls).find((c) => c.url.searchParams.get('search') === 'Roof east')!.url.searchParams;
    expect(sent.get('sn')).toBeNull();
    expect(await screen.findByText('Grid over-voltage 1', {}, { timeout: 3000 })).toBeTruthy();
  }, 20_000);

  it('an event shows its text over its code, the suggested action in its tooltip, times under a header naming the zone', async () => {
    serve([event(1)]);
    renderPage();
    const cell = await screen.findByTestId('event-text-1', {}, { timeout: 5000 });
    expect(cell.textContent).toBe('Grid over-voltage 1gridOverVoltage');
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    // One header on the page (the table's hidden measure row repeats the titles, not the cell).
    expect(screen.getByTestId('event-time-header').textContent).toBe(`Started / ended (${zone})`);
    fireEvent.mouseEnter(cell);
    expect(
      (
        await screen.findByText(
          /Suggested action: Ask the grid operator whether the voltage is within limits\./,
          {},
          { timeout: 3000 },
        )
      ).textContent,
    ).toContain('Suggested action');
  }, 20_000);

  it('the drawer shows the detail and acknowledges with a note', async () => {
    const calls = serve([event(1), event(2, { canAck: false })]);
    renderPage();
    fireEvent.click(await screen.findByTestId('event-detail-1', {}, { timeout: 5000 }));
    const drawer = await screen.findByTestId('event-detail');
    expect(within(drawer).getByTestId('event-action').textContent).toBe(
      'Ask the grid operator whether the voltage is within limits.',
    );
    expect(drawer.textContent).toContain('gridOverVoltage');
    expect(drawer.textContent).toContain('1 h 30 min');
    fireEvent.change(within(drawer).getByTestId('event-ack-note'), { target: { value: 'Called the utility' } });
    fireEvent.click(within(drawer).getByTestId('event-ack'));
    const info = await screen.findByTestId('event-ack-info', {}, { timeout: 5000 });
    expect(info.textContent).toContain('Acknowledged by: Ana');
    expect(info.textContent).toContain('Called the utility');
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.url.pathname).toBe('/api/v1/event/1/ack');
    expect(JSON.parse(post.body!)).toEqual({ note: 'Called the utility' });
  }, 20_000);

  it('no acknowledge button for an event the caller may not acknowledge', async () => {
    serve([event(2, { canAck: false })]);
    renderPage();
    fireEvent.click(await screen.findByTestId('event-detail-2', {}, { timeout: 5000 }));
    expect(await screen.findByTestId('event-cannot-ack')).toBeTruthy();
    expect(screen.queryByTestId('event-ack')).toBeNull();
  }, 20_000);

  it('downloads follow the grants and send the filters and the language', async () => {
    const calls = serve([event(1)]);
    const saved: string[] = [];
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:x'), revokeObjectURL: vi.fn() }));
    vi.spyOn(HTMLElement.prototype, 'click').mockImplementation(function (this: HTMLElement) {
      if (this instanceof HTMLAnchorElement) saved.push(this.download);
    });
    renderPage('/device/event?level=fault&kind=battery', {
      'event.view': ['event.export'],
      'inverter.view': ['inverter.export'],
    });
    await screen.findByText('Grid over-voltage 1', {}, { timeout: 5000 });
    fireEvent.click(screen.getByTestId('event-download-inverter'));
    await waitFor(() => expect(calls.some((c) => c.url.pathname === '/api/v1/inverter/events/download')).toBe(true));
    await waitFor(() => expect(saved).toHaveLength(1));
    const file = calls.find((c) => c.url.pathname === '/api/v1/inverter/events/download')!.url.searchParams;
    const week = quickRange('last7');
    expect(file.get('level')).toBe('fault');
    expect(file.get('kind')).toBeNull();
    expect(file.get('lan')).toBe('en');
    expect([file.get('startDate'), file.get('endDate')]).toEqual([week.start, week.end]);
    expect(saved[0]).toBe(`events-inverter-${week.start}_${week.end}.xlsx`);
  }, 20_000);

  it('the battery type lists through the battery events list (with the batteries page)', async () => {
    const calls = serve([event(1)]);
    renderPage('/device/event?kind=battery&level=fault', { 'event.view': [], 'battery.list.view': [] });
    await screen.findByText('Grid over-voltage 1', {}, { timeout: 5000 });
    const battery = calls.filter((c) => c.url.pathname === '/api/v1/battery/events');
    const page = battery.find((c) => c.url.searchParams.get('size') === '20')!.url.searchParams;
    expect(page.get('level')).toBe('fault');
    expect(page.get('kind')).toBeNull();
    expect(page.get('startDate')).toBe(quickRange('last7').start);
    await waitFor(() => expect(screen.getByTestId('level-count-total').textContent).toBe('8'));
    expect(calls.filter((c) => c.url.pathname === '/api/v1/events')).toHaveLength(0);
    expect(screen.getByTestId('event-table').textContent).toContain('Battery · Roof east');
  }, 20_000);

  it('"Download all" sends the filters with the type and the language', async () => {
    const calls = serve([event(1)]);
    const saved: string[] = [];
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:x'), revokeObjectURL: vi.fn() }));
    vi.spyOn(HTMLElement.prototype, 'click').mockImplementation(function (this: HTMLElement) {
      if (this instanceof HTMLAnchorElement) saved.push(this.download);
    });
    renderPage('/device/event?level=warning&kind=meter&state=open');
    await screen.findByText('Grid over-voltage 1', {}, { timeout: 5000 });
    fireEvent.click(screen.getByTestId('event-download-all'));
    await waitFor(() => expect(saved).toHaveLength(1));
    const file = calls.find((c) => c.url.pathname === '/api/v1/events/download')!.url.searchParams;
    const week = quickRange('last7');
    expect([file.get('level'), file.get('kind'), file.get('state'), file.get('lan')]).toEqual(['warning', 'meter', 'open', 'en']);
    expect([file.get('startDate'), file.get('endDate')]).toEqual([week.start, week.end]);
    expect(file.get('timezone')).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(saved[0]).toBe(`events-all-${week.start}_${week.end}.xlsx`);
  }, 20_000);

  it('without the export grants there are no download buttons', async () => {
    serve([event(1)]);
    renderPage('/device/event', { 'event.view': [] });
    await screen.findByText('Grid over-voltage 1', {}, { timeout: 5000 });
    expect(screen.queryByTestId('event-download-inverter')).toBeNull();
    expect(screen.queryByTestId('event-download-battery')).toBeNull();
    expect(screen.queryByTestId('event-download-all')).toBeNull();
  }, 20_000);
});
