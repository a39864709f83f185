import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ShellContext, type ShellInfo } from '../../app/shell/shellContext.ts';
import { renderPage, serve } from '../../test/pages.tsx';
import EnrollmentPlanPage from './EnrollmentPlanPage.tsx';

const enrolments = {
  total: 1,
  list: [
    {
      id: 3,
      programId: 'p1',
      programName: 'BESS-DR-2026',
      state: 'pending',
      email: 'a@b.c',
      firstName: 'A',
      lastName: 'B',
      utilityAccount: 'acct-1',
      devices: 2,
      createdAt: '2026-01-02T10:00:00Z',
      updatedAt: '2026-01-02T10:00:00Z',
    },
  ],
};

// The enrolment form's test renders the whole form: seconds on a loaded machine.
describe('EnrollmentPlanPage', { timeout: 30_000 }, () => {
  it('without a VTN says the area is not connected, and still lists the enrolments', async () => {
    serve([
      ['GET', '/api/v1/oadr/listProgram', () => ({ connected: false, live: false, programs: [] })],
      ['GET', '/api/v1/oadr/enrollments', () => enrolments],
    ]);
    renderPage(<EnrollmentPlanPage />, { path: '/energyHub/enrollmentPlan', pattern: '/energyHub/enrollmentPlan' });
    expect((await screen.findByTestId('dr-not-connected')).textContent).toContain('Not connected to a utility programme server');
    expect(await screen.findByText('acct-1')).toBeTruthy();
    expect(screen.getByText('Pending')).toBeTruthy();
  });

  it('lists the programmes with their terms; one without terms cannot be enrolled in', async () => {
    serve([
      [
        'GET',
        '/api/v1/oadr/listProgram',
        () => ({
          connected: true,
          live: false,
          programs: [
            {
              id: 'p1',
              name: 'BESS-DR-2026',
              type: 'BATTERY_DISCHARGE',
              termsUrl: '/assets/vpp/bess-dr-2026.pdf',
              descriptionUrls: [],
            },
            { id: 'p2', name: 'Pilot', type: null, termsUrl: null, descriptionUrls: [] },
          ],
        }),
      ],
      ['GET', '/api/v1/oadr/enrollments', () => ({ total: 0, list: [] })],
    ]);
    renderPage(<EnrollmentPlanPage />, { path: '/energyHub/enrollmentPlan', pattern: '/energyHub/enrollmentPlan' });
    const link = await screen.findByRole('link', { name: 'Terms (PDF)' });
    expect(link.getAttribute('href')).toBe('/assets/vpp/bess-dr-2026.pdf');
    expect(screen.getByText('No terms available: enrolment is not possible')).toBeTruthy();
    expect(screen.getByText('The programme server did not answer: these are the programmes read last.')).toBeTruthy();
    await waitFor(() => expect(screen.getAllByText('No enrolments yet').length).toBeGreaterThan(0));
  });

  const programme = { id: 'p1', name: 'BESS-DR-2026', type: 'BATTERY_DISCHARGE', termsUrl: '/t.pdf', descriptionUrls: [] };
  const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();
  const showVtn = (vtn: unknown) => {
    serve([
      ['GET', '/api/v1/oadr/listProgram', () => ({ connected: true, live: true, programs: [programme], vtn })],
      ['GET', '/api/v1/oadr/enrollments', () => ({ total: 0, list: [] })],
    ]);
    renderPage(<EnrollmentPlanPage />, { path: '/energyHub/enrollmentPlan', pattern: '/energyHub/enrollmentPlan' });
  };
  const stamp = /\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} \(/;

  it('a registered portal shows its utility connection: registered, when it last checked (relative and absolute)', async () => {
    showVtn({ registered: true, lastPollAt: minutesAgo(5), lastOkAt: minutesAgo(5), lastError: null });
    const block = await screen.findByTestId('dr-vtn');
    expect(block.textContent).toContain('Utility connection');
    expect(screen.getByTestId('dr-vtn-state').textContent).toBe('Registered');
    expect(screen.getByTestId('dr-vtn-state').className).toContain('success');
    const check = screen.getByTestId('dr-vtn-last-check').textContent ?? '';
    expect(check).toContain('Last check: 5 minutes ago');
    expect(check).toMatch(stamp);
    expect(screen.queryByTestId('dr-vtn-error')).toBeNull();
    expect(screen.queryByTestId('dr-vtn-last-ok')).toBeNull();
  });

  it('a portal the utility lost shows not registered, the last error as a warning and the last check that went through', async () => {
    showVtn({
      registered: false,
      lastPollAt: minutesAgo(1),
      lastOkAt: minutesAgo(120),
      lastError: 'VTN answered 503 to GET /vens',
    });
    expect((await screen.findByTestId('dr-vtn-state')).textContent).toBe('Not registered');
    expect(screen.getByTestId('dr-vtn-state').className).toContain('error');
    expect(screen.getByTestId('dr-vtn-error').textContent).toContain('VTN answered 503 to GET /vens');
    expect(screen.getByTestId('dr-vtn-error').className).toContain('warning');
    expect(screen.getByTestId('dr-vtn-last-ok').textContent).toContain('Last successful check: 2 hours ago');
    expect(screen.getByText('The portal registers again at its next check.')).toBeTruthy();
  });

  it('a portal that has not checked yet says so; without connection facts the block is not shown', async () => {
    showVtn({ registered: false, lastPollAt: null, lastOkAt: null, lastError: null });
    expect((await screen.findByTestId('dr-vtn-last-check')).textContent).toBe('Last check: Not checked yet');
    cleanup();
    showVtn(null);
    await screen.findByTestId('dr-programmes');
    expect(screen.queryByTestId('dr-vtn')).toBeNull();
  });

  it('an enrolment with fields missing shows what is wrong and sends nothing', async () => {
    const calls = serve([
      [
        'GET',
        '/api/v1/oadr/listProgram',
        () => ({
          connected: true,
          live: true,
          programs: [{ id: 'p1', name: 'BESS-DR-2026', type: 'BATTERY_DISCHARGE', termsUrl: '/t.pdf', descriptionUrls: [] }],
        }),
      ],
      ['GET', '/api/v1/oadr/enrollments', () => ({ total: 0, list: [] })],
      ['GET', /^\/api\/v1\/oadr\/userStationList/, () => []],
    ]);
    const shell = { profile: {}, routes: [], buttons: {}, rights: { granted: new Set(['energyhub.enroll']), readOnly: false } };
    renderPage(
      <ShellContext.Provider value={shell as unknown as ShellInfo}>
        <EnrollmentPlanPage />
      </ShellContext.Provider>,
      { path: '/energyHub/enrollmentPlan', pattern: '/energyHub/enrollmentPlan' },
    );
    fireEvent.click(await screen.findByTestId('enrol-p1'));
    fireEvent.click(await screen.findByTestId('accept-terms'));
    await waitFor(() => expect((screen.getByTestId('enrol-submit') as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(screen.getByTestId('enrol-submit'));
    await waitFor(() => expect(document.querySelectorAll('.ant-form-item-explain-error').length).toBeGreaterThan(3));
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
  });
});
