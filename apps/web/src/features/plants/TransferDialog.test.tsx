/** The transfer dialog asks for the owner's password and says the recipient must accept. */

import { ErrorCode } from '@sunfleet/contracts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { callsTo, fail, renderPage, serve } from '../../test/pages.tsx';
import { TransferDialog } from './TransferDialog.tsx';

const PATH = '/api/v1/plant/7/transfer';
const offer = {
  id: 3,
  plantId: 7,
  plantName: 'Casa Marta',
  fromAccount: 'me@example.com',
  toAccount: 'new@example.com',
  status: 'pending',
  createdAt: '2026-01-01T00:00:00.000Z',
  expiresAt: '2026-01-08T00:00:00.000Z',
};

const render = (onClose = vi.fn()) => {
  renderPage(<TransferDialog plant={{ id: 7, name: 'Casa Marta', timezone: 'Europe/Madrid' }} onClose={onClose} />, {
    path: '/plants',
    pattern: '/plants',
  });
  return onClose;
};

const fill = async (account: string, password: string) => {
  fireEvent.change(await screen.findByTestId('transfer-account'), { target: { value: account } });
  fireEvent.change(screen.getByTestId('transfer-password'), { target: { value: password } });
  fireEvent.click(screen.getByTestId('transfer-submit'));
  fireEvent.click((await screen.findAllByTestId('transfer-confirm-ok')).at(-1)!);
};

describe('transfer dialog', { timeout: 30_000 }, () => {
  it('says the recipient must accept, sends the password in the body, and reports the request sent', async () => {
    const calls = serve([['POST', PATH, () => offer]]);
    const onClose = render();
    expect((await screen.findByTestId('transfer-dialog')).textContent).toContain('The other account must accept the transfer');
    await fill('New@Example.com', 'Secret123');
    await waitFor(() => expect(callsTo(calls, PATH, 'POST')).toHaveLength(1));
    const [sent] = callsTo(calls, PATH, 'POST');
    expect(sent!.url.searchParams.get('account')).toBe('new@example.com');
    expect(new URLSearchParams(sent!.body ?? '').get('password')).toBe('Secret123');
    expect(await screen.findByText('Request sent: new@example.com must accept Casa Marta')).toBeTruthy();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it('a wrong password (108) shows under the password and the dialog stays open', async () => {
    serve([['POST', PATH, () => fail(ErrorCode.oldPasswordWrong)]]);
    const onClose = render();
    await fill('new@example.com', 'Wrong1234');
    expect(await screen.findByText('The password is wrong')).toBeTruthy();
    expect(onClose).not.toHaveBeenCalled();
  });

  it('a request already pending (704) says so', async () => {
    serve([['POST', PATH, () => fail(ErrorCode.transferPending)]]);
    render();
    await fill('new@example.com', 'Secret123');
    expect((await screen.findByTestId('transfer-pending')).textContent).toContain('already waiting for an answer');
  });
});
