/**
 * The import wizard against a fake server: the file is checked (its report shown row by row), the
 * chosen mode is sent with the same file to write, and the result shows the keys once.
 */

import { ErrorCode } from '@sunfleet/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../api/hooks.ts';
import { renderWithApp } from '../../test/render.tsx';
import { ImportWizard } from './ImportWizard.tsx';

interface Sent {
  url: string;
  fields: Record<string, FormDataEntryValue>;
}

const report = {
  rows: 3,
  valid: 2,
  problems: [{ row: 3, sn: 'GW 2', problem: 'snFormat' }],
};
const envelope = (data: unknown) =>
  new Response(JSON.stringify({ code: ErrorCode.ok, msg: 'ok', data }), { headers: { 'content-type': 'application/json' } });

function serve(): Sent[] {
  const sent: Sent[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      const form = init?.body instanceof FormData ? init.body : null;
      // The customer picker's list is not part of the import's conversation.
      if (url.includes('/customers/list')) return envelope([{ id: 7, name: 'Solar Co', agentId: null }]);
      sent.push({ url, fields: form ? Object.fromEntries(form.entries()) : {} });
      if (url.includes('/gateway/import/check')) return envelope(report);
      if (url.includes('/gateway/import/batch'))
        return envelope({
          mode: form?.get('mode'),
          written: 2,
          report,
          gateways: [
            { id: 1, sn: 'GW1', claimKey: 'K1K1K1K1K1K1K1K1K1K1K1K1K1', secret: 'secret-one', firmwareKey: 'FWKEY=' },
            { id: 2, sn: 'GW3', claimKey: 'K3K3K3K3K3K3K3K3K3K3K3K3K3', secret: 'secret-three', firmwareKey: 'FWKEY=' },
          ],
        });
      return envelope([]);
    }),
  );
  return sent;
}

afterEach(() => vi.unstubAllGlobals());

describe('import wizard', () => {
  it('checks the file, shows each bad row, writes the valid rows and shows the keys', async () => {
    const sent = serve();
    renderWithApp(
      <QueryClientProvider client={createQueryClient()}>
        <ImportWizard open onClose={() => {}} />
      </QueryClientProvider>,
    );
    const file = new File([new Uint8Array([0x50, 0x4b, 3, 4])], 'gateways.xlsx');
    fireEvent.change(document.querySelector('input[type="file"]') as HTMLInputElement, { target: { files: [file] } });
    fireEvent.click(await screen.findByTestId('stock-import-check'));

    expect(await screen.findByText('2 of 3 rows are valid; 1 have a problem')).toBeTruthy();
    expect(screen.getByText('GW 2')).toBeTruthy();
    expect(screen.getByText('The SN must be 1 to 32 of A–Z, a–z, 0–9, _ and -')).toBeTruthy();
    expect(sent[0]!.url).toContain('/api/v1/gateway/import/check');
    expect((sent[0]!.fields.file as File).name).toBe('gateways.xlsx');

    fireEvent.click(screen.getByTestId('stock-import-next'));
    fireEvent.click(await screen.findByTestId('stock-mode-all'));
    fireEvent.click(await screen.findByTestId('stock-mode-valid'));
    fireEvent.click(screen.getByTestId('stock-import-write'));

    expect(await screen.findByText('2 gateways created')).toBeTruthy();
    const write = sent.find((s) => s.url.includes('/gateway/import/batch'))!;
    expect(write.fields.mode).toBe('valid');
    expect((write.fields.file as File).name).toBe('gateways.xlsx');
    await waitFor(() => expect(screen.getByTestId('claim-key-GW1').textContent).toBe('K1K1K1K1K1K1K1K1K1K1K1K1K1'));
    expect(screen.getByTestId('secret-GW3').textContent).toBe('secret-three');
    // The key every gateway checks firmware signatures with, shown once above them.
    expect(screen.getByTestId('firmware-key').textContent).toBe('FWKEY=');
  }, 30_000);
});
