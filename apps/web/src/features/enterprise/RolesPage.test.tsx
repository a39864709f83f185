import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../api/hooks.ts';
import { PageContext } from '../../app/pageContext.ts';
import { ShellContext, type ShellInfo } from '../../app/shell/shellContext.ts';
import { callsTo, serve } from '../../test/pages.tsx';
import { renderWithApp } from '../../test/render.tsx';
import RolesPage from './RolesPage.tsx';

const role = (id: number, name: string, users = 0) => ({
  id,
  name,
  permissions: ['station.view'],
  users,
  createdAt: '2026-03-01T00:00:00.000Z',
});
const granted = ['company.management', 'company.role.list.view', 'company.role.add', 'company.role.edit', 'company.role.delete'];
const shell = {
  profile: { id: 1, kind: 'company_admin', role: 'Company administrator' },
  routes: [],
  forbidden: [],
  buttons: {},
  rights: { granted: new Set(granted), readOnly: false },
} as unknown as ShellInfo;

function renderRoles() {
  return renderWithApp(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter initialEntries={['/enterprise/roles']}>
        <ShellContext.Provider value={shell}>
          <PageContext.Provider value={{ route: null, buttons: [] }}>
            <RolesPage />
          </PageContext.Provider>
        </ShellContext.Provider>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('RolesPage', () => {
  it('deleting a role that accounts hold asks where they go and sends that role', async () => {
    const calls = serve([
      ['GET', '/api/v1/company/roles', () => [role(1, 'Installers', 2), role(2, 'Viewers')]],
      ['POST', '/api/v1/company/role/1/delete', () => null],
    ]);
    renderRoles();
    fireEvent.click(await screen.findByTestId('role-delete-1'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/2 accounts hold this role/)).toBeTruthy();
    const ok = within(dialog).getByTestId('role-delete-ok');
    expect((ok as HTMLButtonElement).disabled).toBe(true);
    fireEvent.mouseDown(within(dialog).getByRole('combobox'));
    await waitFor(() => expect(document.querySelector('.ant-select-item-option[title="Viewers"]')).toBeTruthy(), {
      timeout: 5000,
    });
    fireEvent.click(document.querySelector('.ant-select-item-option[title="Viewers"]')!);
    await waitFor(() => expect((ok as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(ok);
    await waitFor(() => expect(callsTo(calls, '/api/v1/company/role/1/delete', 'POST')).toHaveLength(1));
    expect(callsTo(calls, '/api/v1/company/role/1/delete', 'POST')[0]!.url.searchParams.get('moveTo')).toBe('2');
  }, 20_000);

  it('a role nobody holds is deleted after a plain confirmation, without a target', async () => {
    const calls = serve([
      ['GET', '/api/v1/company/roles', () => [role(1, 'Installers', 2), role(2, 'Viewers')]],
      ['POST', '/api/v1/company/role/2/delete', () => null],
    ]);
    renderRoles();
    fireEvent.click(await screen.findByTestId('role-delete-2'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('No account holds this role.')).toBeTruthy();
    fireEvent.click(within(dialog).getByTestId('role-delete-ok'));
    await waitFor(() => expect(callsTo(calls, '/api/v1/company/role/2/delete', 'POST')).toHaveLength(1));
    expect(callsTo(calls, '/api/v1/company/role/2/delete', 'POST')[0]!.url.searchParams.has('moveTo')).toBe(false);
  }, 20_000);

  it('at five roles the add button is off and says why', async () => {
    serve([['GET', '/api/v1/company/roles', () => [1, 2, 3, 4, 5].map((i) => role(i, `Role ${i}`))]]);
    renderRoles();
    expect(await screen.findByTestId('roles-full')).toBeTruthy();
    expect((screen.getByTestId('role-add') as HTMLButtonElement).disabled).toBe(true);
  });
});
