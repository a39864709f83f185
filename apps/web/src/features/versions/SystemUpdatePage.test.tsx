import { ErrorCode } from '@sunfleet/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ShellContext, type ShellInfo } from '../../app/shell/shellContext.ts';
import { callsTo, fail, renderPage, serve } from '../../test/pages.tsx';
import SystemUpdatePage from './SystemUpdatePage.tsx';

const version = (id: number, number: string) => ({
  id,
  number,
  contentZh: `版本 ${number}`,
  contentEn: `Release ${number}`,
  publisher: 'Ops',
  publishedAt: '2026-01-10T12:00:00.000Z',
  updatedAt: '2026-01-10T12:00:00.000Z',
});

const shell = (granted: string[], readOnly = false) =>
  ({
    profile: {},
    routes: [],
    forbidden: [],
    buttons: {},
    rights: { granted: new Set(granted), readOnly },
  }) as unknown as ShellInfo;

function show(granted: string[] = [], readOnly = false) {
  return renderPage(
    <ShellContext.Provider value={shell(granted, readOnly)}>
      <SystemUpdatePage />
    </ShellContext.Provider>,
    { path: '/systemupdate', pattern: '/systemupdate' },
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('system update page', () => {
  it('shows the timeline with the English notes, and no write buttons to a reader', async () => {
    serve([['GET', '/api/v1/version/timeline', () => ({ total: 2, list: [version(2, '2.0'), version(1, '1.0')] })]]);
    show();
    expect((await screen.findByTestId('version-notes-2', {}, { timeout: 5000 })).textContent).toContain('Release 2.0');
    expect(screen.getByTestId('version-2').textContent).toContain('Current');
    expect(screen.getByTestId('version-1').textContent).not.toContain('Current');
    expect(screen.queryByTestId('version-add')).toBeNull();
    expect(screen.queryByTestId('version-edit-2')).toBeNull();
    expect(screen.queryByTestId('version-delete-2')).toBeNull();
  }, 20_000);

  it('says when nothing is published, and shows an error with a retry', async () => {
    serve([['GET', '/api/v1/version/timeline', () => ({ total: 0, list: [] })]]);
    const { unmount } = show();
    expect(await screen.findByTestId('versions-empty', {}, { timeout: 5000 })).toBeTruthy();
    unmount();
    vi.unstubAllGlobals();
    serve([['GET', '/api/v1/version/timeline', () => new Response('down', { status: 503 })]]);
    show();
    expect(await screen.findByRole('alert', {}, { timeout: 5000 })).toBeTruthy();
  }, 20_000);

  it('an operator deletes a version only after confirming', async () => {
    const calls = serve([
      ['GET', '/api/v1/version/timeline', () => ({ total: 2, list: [version(2, '2.0'), version(1, '1.0')] })],
      ['GET', '/api/v1/version/1/delete', () => null],
    ]);
    show(['system.version', 'system.version.edit']);
    fireEvent.click(await screen.findByTestId('version-delete-1', {}, { timeout: 5000 }));
    const ok = await screen.findByTestId('version-delete-ok');
    expect(callsTo(calls, '/api/v1/version/1/delete')).toHaveLength(0);
    fireEvent.click(ok);
    await waitFor(() => expect(callsTo(calls, '/api/v1/version/1/delete')).toHaveLength(1));
  }, 20_000);

  it('a read-only operator account gets no write buttons', async () => {
    serve([['GET', '/api/v1/version/timeline', () => ({ total: 1, list: [version(2, '2.0')] })]]);
    show(['system.version', 'system.version.edit'], true);
    await screen.findByTestId('version-2', {}, { timeout: 5000 });
    expect(screen.queryByTestId('version-add')).toBeNull();
    expect(screen.queryByTestId('version-delete-2')).toBeNull();
  }, 20_000);

  it('publishing a number out of order shows why on the number, in the interface language', async () => {
    const calls = serve([
      ['GET', '/api/v1/version/timeline', () => ({ total: 1, list: [version(2, '2.0')] })],
      ['GET', '/api/v1/version/check', () => null],
      ['POST', '/api/v1/version', () => fail(ErrorCode.validation, 'Invalid input: number: must be higher than 2.0')],
    ]);
    show(['system.version', 'system.version.edit']);
    fireEvent.click(await screen.findByTestId('version-add', {}, { timeout: 5000 }));
    const dialog = await screen.findByTestId('version-dialog');
    fireEvent.change(within(document.body).getByTestId('version-number'), { target: { value: '1.5' } });
    fireEvent.change(within(document.body).getByTestId('version-content-en'), { target: { value: 'Old' } });
    fireEvent.change(within(document.body).getByTestId('version-content-zh'), { target: { value: '旧' } });
    fireEvent.click(within(document.body).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(callsTo(calls, '/api/v1/version', 'POST')).toHaveLength(1), { timeout: 5000 });
    expect(JSON.parse(callsTo(calls, '/api/v1/version', 'POST')[0]!.body!)).toEqual({
      number: '1.5',
      contentZh: '旧',
      contentEn: 'Old',
    });
    expect(await within(document.body).findByText('Must be higher than 2.0, published before it')).toBeTruthy();
    expect(dialog).toBeTruthy();
  }, 20_000);
});
