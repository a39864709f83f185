/** Avatar files: checked by content (PNG or JPEG), stored under a random name, served with nosniff. */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { sniffImage } from '@sunfleet/contracts';
import { imageUseOfFolder, refuseOversizedImage } from '../../http/image-size.ts';

export const uploadsDir = (dataDir: string) => path.join(dataDir, 'uploads');

/** Pictures and avatars together: at most 10 uploads a minute per account. */
export const uploadLimit = { max: 10, minutes: 1, byAccount: true, name: 'uploads' };

/** `beforeWrite` may refuse (throw) once the file's URL is known and before anything is written. */
export async function storeImage(
  dataDir: string,
  folder: string,
  bytes: Buffer,
  allowed: readonly string[],
  beforeWrite?: (url: string) => Promise<void>,
): Promise<string | null> {
  const kind = sniffImage(bytes.subarray(0, 16));
  if (!kind || !allowed.includes(kind)) return null;
  refuseOversizedImage(bytes, imageUseOfFolder(folder));
  const name = `${randomBytes(16).toString('hex')}.${kind === 'jpeg' ? 'jpg' : kind}`;
  await beforeWrite?.(`/uploads/${folder}/${name}`);
  const dir = path.join(uploadsDir(dataDir), folder);
  await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(path.join(dir, name), bytes);
  return `/uploads/${folder}/${name}`;
}

/** Delete an image stored in `folder` by its URL (the one a new upload replaced); any other URL is left alone. */
export async function removeImage(dataDir: string, folder: string, url: string | null) {
  const name = url?.match(/^\/uploads\/([a-z]+)\/([a-f0-9]{32}\.(?:png|jpg|gif))$/);
  if (!name || name[1] !== folder) return;
  await fs.rm(path.join(uploadsDir(dataDir), folder, name[2]!), { force: true });
}
