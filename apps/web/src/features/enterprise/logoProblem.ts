/** Why a file cannot be a company logo (JPG, JPEG, GIF or PNG by content, at most 1 MB), or null. */
import { companyApi, sniffImage } from '@sunfleet/contracts';

export async function logoProblem(file: Blob, maxBytes = companyApi.companyLimits.logoBytes): Promise<'type' | 'size' | null> {
  if (file.size > maxBytes) return 'size';
  return sniffImage(new Uint8Array(await file.slice(0, 16).arrayBuffer())) ? null : 'type';
}
