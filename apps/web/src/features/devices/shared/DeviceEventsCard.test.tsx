import { ErrorCode, eventsApi } from '@sunfleet/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ShellContext, type ShellInfo } from '../../../app/shell/shellContext.ts';
import { todayIn } from '../../../lib/dateNav.ts';
import { dayDate, quickRange } from '../../../lib/dateRange.ts';
import { type EventRow, eventRow } from '../../../test/events.ts';
import { type Call, callsTo, on, renderPage, serve } from '../../../test/pages.tsx';
import { DeviceEventsCard } from './DeviceEventsCard.tsx';

/** A choice of the open select (a table cell cut with an ellipsis carries the same title). */
const option = (title: string) =>
  waitFor(() => {
    const el = document.querySelector<HTMLElement>(`.ant-select-item-option[title="${title}"]`);
    if (!el) throw new Error(`no option ${title}`);
    return el;
  });

const SN = 'HYABVNAAB1ME';
/** The events of this card's device. */
const event = (id: number, extra: Partial<EventRow> = {}) => eventRow(id, { sn: SN, ...extra });

const shell = (buttons: Record<string, string[]>) => ({ profile: {}, routes: [], buttons }) as unknown as ShellInfo;

function render(buttons: Record<string, string[]> = { 'event.view': [] }, timezone = 'Europe/Madrid') {
  return renderPage(
    <ShellContext.Provider value={shell(buttons)}>
      <DeviceEventsCard sn={SN} timezone={timezone} />
    </ShellContext.Provider>,
    { path: `/device/inverter/${SN}`, pattern: '/device/inverter/:sn' },
  );
}

const history = (calls: Call[]) => callsTo(calls, `/api/v1/event/${SN}`);

describe('device events card', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("counts the last 7 days to the plant's today, which the server reads the dates in, not the browser's", async () => {
    // 05:00 UTC: 18:00 the day before in Pago Pago (UTC−11).
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-26T05:00:00Z'));
    const calls = serve([on(eventsApi.deviceOpenEvents, []), on(eventsApi.deviceEvents, { total: 0, list: [] })]);
    render(undefined, 'Pacific/Pago_Pago');
    await waitFor(() => expect(history(calls)).toHaveLength(1));
    const q = history(calls)[0]!.url.searchParams;
    expect([q.get('startDate'), q.get('endDate')]).toEqual(['2026-11-19', '2026-11-25']);
  });

  it('shows the open events and the history of the last 7 days, paged by the server', async () => {
    const calls = serve([
      on(eventsApi.deviceOpenEvents, [event(9, { endedAt: null, level: 'warning', text: 'Fan speed low' })]),
      on(eventsApi.deviceEvents, { total: 25, list: [event(1), event(2, { level: 'info' })] }),
    ]);
    render();
    const open = await screen.findByTestId('device-events-open-table', {}, { timeout: 5000 });
    await waitFor(() => expect(open.textContent).toContain('Fan speed low'));
    expect(screen.getByTestId('device-event-level-9').textContent).toBe('Warning');
    expect(await screen.findByText('Grid over-voltage 1', {}, { timeout: 5000 })).toBeTruthy();
    const table = screen.getByTestId('device-events-table');
    expect(table.textContent).toContain('2026-05-20 10:00');
    // The plant's zone is named over the times; the event's text over its code.
    const headers = [...table.querySelectorAll('th')].map((th) => th.textContent);
    expect(headers).toEqual(expect.arrayContaining(['Started (Europe/Madrid)', 'Ended (Europe/Madrid)']));
    expect(screen.getAllByTestId('device-event-text-1')[0]!.textContent).toBe('Grid over-voltage 1gridOverVoltage');
    expect(screen.getByText('25 events')).toBeTruthy();
    expect(callsTo(calls, `/api/v1/event/${SN}/realtime`)).toHaveLength(1);
    const q = history(calls)[0]!.url.searchParams;
    const week = quickRange('last7', dayDate(todayIn('Europe/Madrid')));
    expect([q.get('page'), q.get('size'), q.get('startDate'), q.get('endDate'), q.get('level'), q.get('state')]).toEqual([
      '1',
      '10',
      week.start,
      week.end,
      null,
      null,
    ]);
    expect(screen.getByTestId('device-events-all').getAttribute('href')).toBe(`/device/event?sn=${SN}`);

    // Level and state filters go to the server and go back to the first page.
    fireEvent.mouseDown(within(screen.getByTestId('device-events-level')).getByRole('combobox'));
    fireEvent.click(await option('Fault'));
    await waitFor(() => expect(history(calls).at(-1)!.url.searchParams.get('level')).toBe('fault'));
    fireEvent.mouseDown(within(screen.getByTestId('device-events-state')).getByRole('combobox'));
    fireEvent.click(await option('Closed'));
    await waitFor(() => expect(history(calls).at(-1)!.url.searchParams.get('state')).toBe('closed'));
    // The next page.
    fireEvent.click(within(screen.getByTestId('device-events-history')).getByTitle('2'));
    await waitFor(() => expect(history(calls).at(-1)!.url.searchParams.get('page')).toBe('2'));
  }, 20_000);

  it('says when nothing is open and when the history is empty', async () => {
    serve([on(eventsApi.deviceOpenEvents, []), on(eventsApi.deviceEvents, { total: 0, list: [] })]);
    render();
    expect(await screen.findByText('No open events', {}, { timeout: 5000 })).toBeTruthy();
    expect(await screen.findByText('No events in this period', {}, { timeout: 5000 })).toBeTruthy();
  }, 20_000);

  it('shows an error with a retry when the history is refused', async () => {
    serve([
      on(eventsApi.deviceOpenEvents, []),
      on(eventsApi.deviceEvents, { __code: ErrorCode.validation, msg: 'The period can be at most 90 days' }),
    ]);
    render();
    const error = await screen.findByTestId('device-events-error', {}, { timeout: 5000 });
    expect(error.textContent).toContain('The period can be at most 90 days');
  }, 20_000);

  it('nothing without the events page', async () => {
    const calls = serve([]);
    render({ 'inverter.view': [] });
    await new Promise((r) => setTimeout(r, 200));
    expect(screen.queryByTestId('device-events')).toBeNull();
    expect(calls).toHaveLength(0);
  }, 20_000);
});
