/**
 * File downloads from `file: true` endpoints (the .xlsx and PDF exports): the one client returns
 * the body as a Blob, which is saved under a name through an anchor click.
 */
import type { Endpoint } from '@sunfleet/contracts';
import { type CallInput, call } from '../api/client.ts';

/** Save a blob under a file name (the browser's download). */
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  // Kept a minute: a browser that asks where to save reads the file only once the user has chosen.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
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
