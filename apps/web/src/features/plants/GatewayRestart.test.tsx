/** Restart from the plant's gateways: offered to those who operate the plant, named with its plant. */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ShellContext, type ShellInfo } from '../../app/shell/shellContext.ts';
import { callsTo, renderPage, serve } from '../../test/pages.tsx';
import { GatewaySection } from './Gateway.tsx';

const shell = (granted: string[], readOnly = false) =>
  ({ profile: {}, routes: [], buttons: {}, rights: { granted: new Set(granted), readOnly } }) as unknown as ShellInfo;

const render = (caller: ShellInfo, canOperate: boolean) =>
  renderPage(
    <ShellContext.Provider value={caller}>
      <GatewaySection
        plantId={7}
        plantName="Casa Marta"
        timezone="Europe/Madrid"
        gateways={[{ sn: 'SFGW000007', alias: 'Roof gateway', online: true, lastOnlineAt: null }]}
        canChange={false}
        canOperate={canOperate}
        onChanged={() => {}}
      />
    </ShellContext.Provider>,
    { path: '/plants/edit/7', pattern: '/plants/edit/:id' },
  );

describe("the plant's gateways: restart", () => {
  it('asks naming the gateway and the plant, then restarts that gateway', async () => {
    const calls = serve([
      [
        'POST',
        '/api/v1/gateway/SFGW000007/restart',
        () => ({
          batchId: '00000000-0000-4000-8000-0000000000b7',
          jobs: [
            {
              jobId: 'j',
              sn: 'SFGW000007',
              gatewaySn: 'SFGW000007',
              type: 'restart',
              state: 'succeeded',
              error: null,
              requestedAt: '2026-01-01T00:00:00.000Z',
              sentAt: null,
              finishedAt: null,
            },
          ],
        }),
      ],
    ]);
    render(shell(['station.view', 'gateway.restart']), true);
    fireEvent.click(screen.getByTestId('gateway-restart-SFGW000007'));
    expect((await screen.findAllByTestId('restart-confirm-title'))[0]!.textContent).toBe('Restart Roof gateway at Casa Marta?');
    fireEvent.click(screen.getAllByTestId('restart-confirm-ok').at(-1)!);
    await waitFor(() => expect(callsTo(calls, '/api/v1/gateway/SFGW000007/restart', 'POST')).toHaveLength(1));
    expect((await screen.findByTestId('restart-job-SFGW000007')).dataset.state).toBe('succeeded');
  });

  it('is not offered to a visitor of the plant, nor without gateway.restart, nor to a read-only account', () => {
    for (const [caller, operate] of [
      [shell(['station.view', 'gateway.restart']), false],
      [shell(['station.view']), true],
      [shell(['station.view', 'gateway.restart'], true), true],
    ] as const) {
      const view = render(caller, operate);
      expect(screen.getByTestId('gateway-SFGW000007')).toBeTruthy();
      expect(screen.queryByTestId('gateway-restart-SFGW000007')).toBeNull();
      view.unmount();
    }
  });
});
