/** The transfers page: offers to accept or decline, own requests to cancel, each after a confirmation. */

import { ErrorCode } from '@sunfleet/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ShellContext, type ShellInfo } from '../../app/shell/shellContext.ts';
import { callsTo, fail, renderPage, serve } from '../../test/pages.tsx';
import TransfersPage from './TransfersPage.tsx';

const LIST = '/api/v1/plantTransfers';
const base = {
  status: 'pending',
  createdAt: '2026-01-01T00:00:00.000Z',
  expiresAt: '2026-01-08T00:00:00.000Z',
};
const offered = {
  ...base,
  id: 3,
  plantId: 7,
  plantName: 'Casa Marta',
  fromAccount: 'giver@example.com',
  toAccount: 'me@example.com',
};
const sent = {
  ...base,
  id: 4,
  plantId: 8,
  plantName: 'Roof North',
  fromAccount: 'me@example.com',
  toAccount: 'taker@example.com',
};

const shell = (readOnly = false) =>
  ({ profile: {}, routes: [], buttons: {}, rights: { granted: new Set(['station.view']), readOnly } }) as unknown as ShellInfo;
const render = (path = '/plants/transfers', readOnly = false) =>
  renderPage(
    <ShellContext.Provider value={shell(readOnly)}>
      <TransfersPage />
    </ShellContext.Provider>,
    { path, pattern: '/plants/transfers' },
  );

describe('transfers page', { timeout: 30_000 }, () => {
  it('lists what is offered and what was sent; accepting asks first, then accepts and reads the list again', async () => {
    let answered = false;
    const calls = serve([
      ['GET', LIST, () => (answered ? { offered: [], sent: [sent] } : { offered: [offered], sent: [sent] })],
      [
        'POST',
        '/api/v1/plantTransfer/3/accept',
        () => {
          answered = true;
          return { ...offered, status: 'accepted' };
        },
      ],
    ]);
    render('/plants/transfers?id=3');
    const item = await screen.findByTestId('transfer-3');
    expect(item.textContent).toContain('Casa Marta');
    expect(item.textContent).toContain('From giver@example.com');
    expect(item.textContent).toContain('From your e-mail');
    expect(within(screen.getByTestId('transfers-sent')).getByTestId('transfer-4').textContent).toContain('To taker@example.com');
    expect(screen.queryByTestId('transfer-accept-4')).toBeNull();
    fireEvent.click(screen.getByTestId('transfer-accept-3'));
    expect((await screen.findAllByText('Accept Casa Marta?')).length).toBeGreaterThan(0);
    expect(callsTo(calls, '/api/v1/plantTransfer/3/accept', 'POST')).toHaveLength(0);
    fireEvent.click((await screen.findAllByTestId('transfer-step-ok')).at(-1)!);
    await waitFor(() => expect(callsTo(calls, '/api/v1/plantTransfer/3/accept', 'POST')).toHaveLength(1));
    expect(await screen.findByText('Casa Marta is now yours')).toBeTruthy();
    await waitFor(() => expect(screen.queryByTestId('transfer-3')).toBeNull());
    expect(screen.getByText('No plant is offered to you')).toBeTruthy();
  });

  it('cancelling a request that is no longer pending (705) says so', async () => {
    const calls = serve([
      ['GET', LIST, () => ({ offered: [], sent: [sent] })],
      ['POST', '/api/v1/plantTransfer/4/cancel', () => fail(ErrorCode.transferClosed)],
    ]);
    render();
    fireEvent.click(await screen.findByTestId('transfer-cancel-4'));
    expect((await screen.findAllByText('Cancel the transfer of Roof North?')).length).toBeGreaterThan(0);
    fireEvent.click((await screen.findAllByTestId('transfer-step-ok')).at(-1)!);
    await waitFor(() => expect(callsTo(calls, '/api/v1/plantTransfer/4/cancel', 'POST')).toHaveLength(1));
    expect(await screen.findByText('This transfer is no longer pending')).toBeTruthy();
  });

  it('a read-only account sees the requests but no button to answer them', async () => {
    serve([['GET', LIST, () => ({ offered: [offered], sent: [sent] })]]);
    render('/plants/transfers', true);
    expect((await screen.findByTestId('transfer-3')).textContent).toContain('Casa Marta');
    for (const id of ['accept-3', 'decline-3', 'cancel-4']) expect(screen.queryByTestId(`transfer-${id}`)).toBeNull();
  });
});
