import { ErrorCode } from '@sunfleet/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../api/hooks.ts';
import { renderWithApp } from '../../test/render.tsx';
import { ForecastUpload } from './ForecastUpload.tsx';

interface Sent {
  url: string;
  plantId: FormDataEntryValue | null;
  file: File | null;
}

function serve(answer: { code: number; msg: string; data: unknown }): Sent[] {
  const sent: Sent[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const form = init?.body instanceof FormData ? init.body : null;
      sent.push({ url: String(input), plantId: form?.get('plantId') ?? null, file: (form?.get('file') as File) ?? null });
      return new Response(JSON.stringify(answer), { headers: { 'content-type': 'application/json' } });
    }),
  );
  return sent;
}

function pick(file: File) {
  renderWithApp(
    <QueryClientProvider client={createQueryClient()}>
      <ForecastUpload plantId={42} />
    </QueryClientProvider>,
  );
  const input = document.querySelector('input[type="file"]') as HTMLInputElement;
  fireEvent.change(input, { target: { files: [file] } });
}

afterEach(() => vi.unstubAllGlobals());

describe('forecast upload', () => {
  it('sends the plant and the file as multipart and says how much was stored', async () => {
    const sent = serve({ code: ErrorCode.ok, msg: 'ok', data: { rows: 288, days: ['2026-11-22'] } });
    const file = new File([new Uint8Array([0x50, 0x4b, 3, 4])], 'forecast.xlsx');
    pick(file);
    expect(await screen.findByText('Forecast uploaded: 288 rows for 1 day')).toBeTruthy();
    expect(sent).toHaveLength(1);
    expect(sent[0]!.url).toContain('/api/v1/predicted/import');
    expect(sent[0]!.plantId).toBe('42');
    expect(sent[0]!.file?.name).toBe('forecast.xlsx');
  });

  it('shows the server’s reason when the file is refused', async () => {
    serve({ code: ErrorCode.validation, msg: 'Row 7: the time "tomorrow" is not YYYY-MM-DD HH:mm', data: null });
    pick(new File(['x'], 'bad.xlsx'));
    await waitFor(() => expect(screen.getByText(/Row 7: the time/)).toBeTruthy());
  });
});
