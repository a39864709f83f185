import { ErrorCode } from '@sunfleet/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../api/hooks.ts';
import { PageContext } from '../../app/pageContext.ts';
import { ShellContext, type ShellInfo } from '../../app/shell/shellContext.ts';
import { callsTo, fail, serve } from '../../test/pages.tsx';
import { renderWithApp } from '../../test/render.tsx';
import InverterFirmwarePage from './InverterFirmwarePage.tsx';

const row = (id: number, version: string, fileName: string, enabled = true) => ({
  id,
  type: 'inverter',
  productId: 3,
  productName: 'HY-5K',
  epn: 'EPN5',
  brand: 'Sunfleet',
  hardwareVersion: 'H1',
  compatibleSoftware: null,
  upgradeMode: 'IAP',
  fileName,
  version,
  size: 2048,
  sha256: 'a'.repeat(64),
  signature: 'c2ln',
  changeLog: null,
  enabled,
  createdAt: '2026-05-01T10:00:00.000Z',
  updatedAt: '2026-05-01T10:00:00.000Z',
});
const product = {
  id: 3,
  type: 'inverter',
  name: 'HY-5K',
  epn: 'EPN5',
  brand: 'Sunfleet',
  inverterTypeId: 1,
  inverterTypeName: 'Hybrid',
  hardwareVersions: ['H1'],
  firmware: 2,
  createdAt: '2026-05-01T10:00:00.000Z',
};

let multipartSent: FormData | null = null;
function server(uploadAnswer: unknown = row(9, 'V3', 'new.bin')) {
  multipartSent = null;
  const calls = serve([
    ['GET', '/api/v1/firmware/page', () => ({ total: 2, list: [row(2, 'V2', 'hy-v2.bin'), row(1, 'V1', 'hy-v1.bin', false)] })],
    ['GET', '/api/v1/firmware/product/', () => [product]],
    [
      'GET',
      '/api/v1/firmware/versions',
      () => ({
        total: 2,
        infos: [
          { id: 2, version: 'V2' },
          { id: 1, version: 'V1' },
        ],
      }),
    ],
    ['GET', '/api/v1/firmware/hardware', () => ['H1']],
    ['GET', /^\/api\/v1\/firmware\/\d+\/delete$/, () => null],
    ['POST', '/api/v1/firmware/save', () => uploadAnswer],
  ]);
  // Multipart bodies are FormData: keep the last one sent.
  const stub = globalThis.fetch as ReturnType<typeof vi.fn>;
  const inner = stub.getMockImplementation() as (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;
  stub.mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
    if (init?.body instanceof FormData) multipartSent = init.body;
    return inner(input, init);
  });
  return calls;
}

function renderPage(granted: string[]) {
  const shell = { profile: {}, routes: [], forbidden: [], buttons: {}, rights: { granted: new Set(granted), readOnly: false } };
  return renderWithApp(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter initialEntries={['/firmware/inv']}>
        <ShellContext.Provider value={shell as unknown as ShellInfo}>
          <PageContext.Provider value={{ route: null, buttons: granted }}>
            <InverterFirmwarePage />
          </PageContext.Provider>
        </ShellContext.Provider>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const editor = ['firmware.management', 'firmware.inverter.view', 'firmware.inverter.edit', 'product.edit'];
afterEach(() => vi.unstubAllGlobals());

async function chooseProduct() {
  const select = within(screen.getByTestId('firmware-upload-product')).getByRole('combobox');
  fireEvent.mouseDown(select);
  fireEvent.click(await screen.findByText('HY-5K · EPN5 · Sunfleet'));
}
const file = (name: string, size: number) => new File([new Uint8Array(size)], name, { type: 'application/octet-stream' });
const dropFile = (f: File) => {
  const input = screen.getByTestId('firmware-upload-form').querySelector('input[type=file]') as HTMLInputElement;
  fireEvent.change(input, { target: { files: [f] } });
};

describe('inverter firmware page', { timeout: 30_000 }, () => {
  it('lists images with their switch; a viewer gets neither upload, delete nor switches', async () => {
    server();
    renderPage(['firmware.management', 'firmware.inverter.view']);
    expect(await screen.findByText('hy-v2.bin')).toBeTruthy();
    expect(screen.getAllByText('2.0 KiB')).toHaveLength(2);
    expect(screen.queryByTestId('firmware-upload')).toBeNull();
    expect(screen.queryByTestId('firmware-delete-2')).toBeNull();
    expect((screen.getByTestId('firmware-enable-2') as HTMLButtonElement).disabled).toBe(true);
  });

  it('refuses a file over 1.5 MiB and a version not higher than the latest before sending anything', async () => {
    const calls = server();
    renderPage(editor);
    fireEvent.click(await screen.findByTestId('firmware-upload'));
    await chooseProduct();
    expect(await screen.findByText('Latest version of this product: V2')).toBeTruthy();
    fireEvent.change(screen.getByTestId('firmware-upload-version'), { target: { value: 'V1_9' } });
    dropFile(file('big.bin', 1.5 * 1024 * 1024 + 1));
    expect(await screen.findByText('The file is larger than 1.5 MiB')).toBeTruthy();
    fireEvent.click(screen.getByTestId('firmware-upload-send'));
    expect(await screen.findByText('The version must be higher than V2')).toBeTruthy();
    expect(callsTo(calls, '/api/v1/firmware/save', 'POST')).toHaveLength(0);
  });

  it('sends the fields and the file; a refusal (4000) shows in the dialog', async () => {
    server(fail(ErrorCode.firmwareNameTaken, 'Duplicate firmware name or software version'));
    renderPage(editor);
    fireEvent.click(await screen.findByTestId('firmware-upload'));
    await chooseProduct();
    fireEvent.change(screen.getByTestId('firmware-upload-version'), { target: { value: 'V3' } });
    dropFile(file('hy-v3.bin', 1.5 * 1024 * 1024));
    fireEvent.click(screen.getByTestId('firmware-upload-send'));
    expect(await screen.findByTestId('firmware-upload-refusal')).toBeTruthy();
    expect(screen.getByTestId('firmware-upload-refusal').textContent).toMatch(/Duplicate firmware name/);
    expect(multipartSent!.get('productId')).toBe('3');
    expect(multipartSent!.get('version')).toBe('V3');
    expect(multipartSent!.get('upgradeMode')).toBe('IAP');
    expect((multipartSent!.get('file') as File).name).toBe('hy-v3.bin');
  });

  it('asks before deleting, naming the file', async () => {
    const calls = server();
    renderPage(editor);
    fireEvent.click(await screen.findByTestId('firmware-delete-2'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getAllByText('Delete hy-v2.bin?').length).toBeGreaterThan(0);
    expect(callsTo(calls, '/api/v1/firmware/2/delete')).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(callsTo(calls, '/api/v1/firmware/2/delete')).toHaveLength(1));
  });
});
