import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ShellContext, type ShellInfo } from '../../app/shell/shellContext.ts';
import { renderPage, serve } from '../../test/pages.tsx';
import EnergyEventsPage from './EnergyEventsPage.tsx';

const hour = 3_600_000;
const at = (ms: number) => new Date(ms).toISOString();

function event(id: number, name: string, extra: Record<string, unknown> = {}) {
  const start = Date.now() - hour / 2;
  return {
    id,
    vtnEventId: `vtn-${id}`,
    programId: 'p1',
    programName: 'BESS-DR-2026',
    name,
    state: 'active',
    optedOut: false,
    participationLevel: 1,
    powerDischarge: 2,
    start: at(start),
    end: at(start + hour),
    localStart: '2026-12-07 15:00:00',
    localEnd: '2026-12-07 16:00:00',
    timezone: 'Europe/Madrid',
    durationMinutes: 60,
    ignoredReason: null,
    endedReason: null,
    ...extra,
  };
}

const acted = event(1, 'Evening peak');
const ignored = event(2, 'Other feeder', { ignoredReason: 'targets group-7, ven-other name neither this VEN nor its resources' });
const gone = event(3, 'Morning peak', { state: 'cancelled', endedReason: 'the VTN no longer has this event' });
const detail = (e: ReturnType<typeof event>, report: unknown) => ({ ...e, intervals: [], dispatches: [], report });

/** The events page with the three events; each detail answers the report given. */
function show(reports: Partial<Record<number, unknown>> = {}) {
  serve([
    ['GET', '/api/v1/oadr/events', () => ({ total: 3, list: [acted, ignored, gone] })],
    [
      'GET',
      /^\/api\/v1\/oadr\/event\/\d+$/,
      (c) => {
        const id = Number(c.url.pathname.split('/').pop());
        return detail([acted, ignored, gone].find((e) => e.id === id)!, reports[id] ?? null);
      },
    ],
  ]);
  const shell = {
    profile: {},
    routes: [],
    buttons: {},
    rights: { granted: new Set(['energyhub.event.cancel']), readOnly: false },
  };
  renderPage(
    <ShellContext.Provider value={shell as unknown as ShellInfo}>
      <EnergyEventsPage />
    </ShellContext.Provider>,
    { path: '/energyHub/event', pattern: '/energyHub/event' },
  );
}

const open = async (id: number) => {
  fireEvent.click(await screen.findByTestId(`dr-event-${id}`));
  return screen.findByTestId('dr-event-detail');
};

// Each test renders the page and opens drawers: seconds on a loaded machine.
describe('EnergyEventsPage', { timeout: 30_000 }, () => {
  it('marks the event not for this portal (reason in a tooltip) and says why an event ended early', async () => {
    show();
    const row = (await screen.findByTestId('dr-event-2')).closest('tr')!;
    const tag = within(row).getByTestId('dr-event-ignored');
    expect(tag.textContent).toBe('Not for this portal');
    fireEvent.mouseEnter(tag);
    expect((await screen.findByRole('tooltip', {}, { timeout: 10_000 })).textContent).toContain(
      'Its targets (group-7, ven-other) are neither this portal nor its devices',
    );
    // The event the portal acts on has no such mark; the one the VTN dropped says so beside "Cancelled".
    expect(within(screen.getByTestId('dr-event-1').closest('tr')!).queryByTestId('dr-event-ignored')).toBeNull();
    const goneRow = screen.getByTestId('dr-event-3').closest('tr')!;
    expect(within(goneRow).getByText('Cancelled')).toBeTruthy();
    expect(within(goneRow).getByTestId('dr-event-ended').textContent).toBe('The utility no longer has this event');
    // The reason wraps under the state: the cell does not cut it with an ellipsis.
    expect(within(goneRow).getByTestId('dr-event-ended').closest('td')!.className).not.toContain('ellipsis');
  });

  it('an ignored event says why in full and cannot be opted out of; one the portal acts on can', async () => {
    show();
    const ignoredDetail = await open(2);
    expect(within(ignoredDetail).getByTestId('dr-event-ignored-detail').textContent).toContain(
      'The portal does not act on this eventIts targets (group-7, ven-other) are neither this portal nor its devices',
    );
    expect(screen.queryByTestId('dr-opt-out')).toBeNull();
    expect(within(ignoredDetail).getByTestId('dr-report').textContent).toContain(
      'No report is owed to the utility for this event',
    );
    fireEvent.click(screen.getByTestId('dr-event-1'));
    expect(await screen.findByTestId('dr-opt-out')).toBeTruthy();
    expect(screen.queryByTestId('dr-event-ignored-detail')).toBeNull();
    expect(screen.getByTestId('dr-report').textContent).toContain('The report is made once the event ends');
  });

  it('the detail shows the ended reason beside the cancelled state', async () => {
    show();
    const d = await open(3);
    expect(within(d).getByTestId('dr-event-state').textContent).toBe('Cancelled');
    expect(within(d).getByTestId('dr-event-ended').textContent).toBe('The utility no longer has this event');
  });

  it('a report still waiting shows its attempts and last error, and that it is sent again', async () => {
    show({
      3: { state: 'waiting', attempts: 4, lastError: 'VTN answered 502', madeAt: at(Date.now() - hour), at: null },
    });
    const d = await open(3);
    const report = within(d).getByTestId('dr-report');
    expect(within(report).getByTestId('dr-report-state').textContent).toBe('Waiting');
    expect(within(report).getByTestId('dr-report-attempts').textContent).toBe('4');
    expect(report.textContent).toContain('Made at');
    expect(report.textContent).not.toContain('Sent at');
    const error = within(report).getByTestId('dr-report-error');
    expect(error.textContent).toContain('VTN answered 502');
    expect(error.textContent).toContain('sends it again');
  });

  it('a report given up shows when and why; a sent one when, without an error', async () => {
    show({
      3: {
        state: 'given-up',
        attempts: 1,
        lastError: 'VTN refused it: 400 event_id does not refer to an existing event',
        madeAt: '2026-12-07T14:00:00Z',
        at: '2026-12-07T14:00:05Z',
      },
      1: { state: 'sent', attempts: 2, lastError: null, madeAt: '2026-12-07T14:00:00Z', at: '2026-12-07T14:10:00Z' },
    });
    let report = within(await open(3)).getByTestId('dr-report');
    expect(within(report).getByTestId('dr-report-state').textContent).toBe('Given up');
    expect(report.textContent).toContain('Given up at2026-12-07 15:00:05 (Europe/Madrid)');
    expect(within(report).getByTestId('dr-report-error').textContent).toContain(
      'Given up: the utility will not get this reportLast error: VTN refused it: 400 event_id does not refer to an existing event',
    );
    fireEvent.click(screen.getByTestId('dr-event-1'));
    report = (await screen.findByText('Sent')).closest('section')!;
    expect(report.textContent).toContain('Sent at2026-12-07 15:10:00 (Europe/Madrid)');
    expect(report.textContent).toContain('Made at2026-12-07 15:00:00 (Europe/Madrid)');
    expect(within(report).queryByTestId('dr-report-error')).toBeNull();
  });
});
