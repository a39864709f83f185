/**
 * Why a file cannot be uploaded as a JPG/PNG image of at most `maxBytes`, or null. Checked by
 * content (the first bytes), as the server checks it, not by the file's name or stated type.
 */
import { sniffImage } from '@sunfleet/contracts';

export async function imageProblem(file: Blob, maxBytes: number): Promise<'type' | 'size' | null> {
  if (file.size > maxBytes) return 'size';
  const kind = sniffImage(new Uint8Array(await file.slice(0, 16).arrayBuffer()));
  return kind === 'png' || kind === 'jpeg' ? null : 'type';
}
