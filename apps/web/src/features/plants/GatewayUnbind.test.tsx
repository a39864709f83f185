/** Unbind, its own action among the plant's gateways: confirmed naming the gateway and the plant. */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ShellContext, type ShellInfo } from '../../app/shell/shellContext.ts';
import { callsTo, renderPage, serve } from '../../test/pages.tsx';
import { GatewaySection } from './Gateway.tsx';

const shell = (granted: string[], readOnly = false) =>
  ({ profile: {}, routes: [], buttons: {}, rights: { granted: new Set(granted), readOnly } }) as unknown as ShellInfo;

const render = (caller: ShellInfo, canChange: boolean, onChanged = () => {}) =>
  renderPage(
    <ShellContext.Provider value={caller}>
      <GatewaySection
        plantId={7}
        plantName="Casa Marta"
        timezone="Europe/Madrid"
        gateways={[{ sn: 'SFGW000007', alias: 'Roof gateway', online: true, lastOnlineAt: null }]}
        canChange={canChange}
        canOperate={canChange}
        onChanged={onChanged}
      />
    </ShellContext.Provider>,
    { path: '/plants/edit/7', pattern: '/plants/edit/:id' },
  );

describe("the plant's gateways: unbind", () => {
  it('asks naming the gateway and the plant, then unbinds that gateway (no replacement asked for)', async () => {
    const calls = serve([['POST', '/api/v1/gateway/SFGW000007/unbind', () => null]]);
    const changed = vi.fn();
    render(shell(['station.view', 'station.gateway']), true, changed);
    fireEvent.click(screen.getByTestId('gateway-unbind-SFGW000007'));
    expect((await screen.findAllByTestId('unbind-confirm-title'))[0]!.textContent).toBe(
      'Unbind Roof gateway (SFGW000007) from Casa Marta?',
    );
    // Asking sent nothing yet.
    expect(callsTo(calls, '/api/v1/gateway/SFGW000007/unbind', 'POST')).toHaveLength(0);
    fireEvent.click(screen.getAllByTestId('unbind-confirm-ok').at(-1)!);
    await waitFor(() => expect(callsTo(calls, '/api/v1/gateway/SFGW000007/unbind', 'POST')).toHaveLength(1));
    await waitFor(() => expect(changed).toHaveBeenCalledTimes(1));
    expect(callsTo(calls, '/api/v1/plant/7/gateway', 'POST')).toHaveLength(0);
    // A dialog and an antd render on a loaded machine take seconds.
  }, 20_000);

  it('is not offered to one who may not change the plant’s gateways', () => {
    render(shell(['station.view']), false);
    expect(screen.getByTestId('gateway-SFGW000007')).toBeTruthy();
    expect(screen.queryByTestId('gateway-unbind-SFGW000007')).toBeNull();
  });
});
