import { ErrorCode, grantedTree } from '@sunfleet/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { screen, waitFor } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../api/hooks.ts';
import { storeTokens } from '../api/session.ts';
import { renderWithApp } from '../test/render.tsx';
import { AppRoutes } from './AppRoutes.tsx';

function Where() {
  return <output data-testid="where">{useLocation().pathname}</output>;
}

function renderAt(path: string) {
  return renderWithApp(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter initialEntries={[path]}>
        <AppRoutes />
        <Where />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const profile = {
  id: 3,
  account: 'owner@example.com',
  kind: 'end_user',
  role: 'Owner',
  nickname: 'Marta',
  name: null,
  gender: null,
  phone: null,
  avatar: null,
  company: null,
  temperatureUnit: 'C',
  language: 'en',
  readOnly: false,
  notifyEnabled: false,
};

describe('top-level routing', () => {
  it('sends a visitor without a stored user from any signed-in path to /login', async () => {
    renderAt('/device/inverter');
    expect(await screen.findByTestId('login-form', {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByTestId('where').textContent).toBe('/login');
  });

  it('serves public pages without a stored user', async () => {
    renderAt('/agreementen');
    expect(await screen.findByText('User agreement', { selector: 'h2' })).toBeTruthy();
  });

  it('sends a signed-in user from /login to the plant list, built from the granted tree', async () => {
    storeTokens({ access_token: 'a', refresh_token: 'r', token_type: 'bearer', expires_in: 900, userId: 3 });
    const tree = grantedTree(new Set(['station.view', 'station.create', 'workdata.view']), 'en');
    const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
      const url = String(input);
      const data = url.startsWith('/api/v1/permission') ? tree : profile;
      return new Response(JSON.stringify({ code: ErrorCode.ok, msg: 'ok', data }), { status: 200 });
    });
    vi.stubGlobal('fetch', fetchMock);
    renderAt('/login');
    const menu = await screen.findByTestId('side-menu', {}, { timeout: 5000 });
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/plants'));
    expect(menu.textContent).toContain('Plants');
    expect(menu.textContent).toContain('Operation data');
    expect(menu.textContent).not.toContain('Devices');
    expect(await screen.findByTestId('add-plant', {}, { timeout: 5000 })).toBeTruthy();
    // The permission tree is asked for once, in the interface language.
    expect(fetchMock.mock.calls.filter(([u]) => String(u).startsWith('/api/v1/permission'))).toHaveLength(1);
    expect(fetchMock.mock.calls.map(([u]) => String(u))).toContain('/api/v1/permission?lan=en');
  });
});
