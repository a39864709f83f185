/**
 * File downloads from `file: true` endpoints (the .xlsx exports): the one client returns the
 * body as a Blob, which is saved under a name through an anchor click.
 *
 * The overview has the same `saveBlob` (features/overview/exportOverview.ts), but importing it
 * would pull ECharts and the PDF code into these pages' chunks; see the report of issue 5.
 */
import type { Endpoint } from '@sunfleet/contracts';
import { type CallInput, call } from '../../api/client.ts';

/** Save a blob under a file name (the browser's download). */
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Fetch a file endpoint and save the answer. Rejects (after the client's toast) when refused. */
export async function downloadFile<E extends Endpoint & { file: true }>(
  ep: E,
  input: CallInput<E>,
  fileName: string,
): Promise<void> {
  const blob = (await (call as (e: E, i: CallInput<E>) => Promise<unknown>)(ep, input)) as Blob;
  saveFile(blob, fileName);
}

/** The browser's IANA time zone (the event lists read their dates in it). */
export function browserTimezone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}
