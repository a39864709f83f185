/**
 * Company logos: checked by content (JPG, GIF or PNG; never SVG or HTML), stored under the first
 * 32 hex digits of their SHA-256 digest, so one image has one URL and the URL changes when the
 * image does: `/uploads/logos/<digest>.<ext>` is served cached for a year and immutable.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { sniffImage } from '@sunfleet/contracts';
import { refuseOversizedImage } from '../../http/image-size.ts';
import { uploadsDir } from '../users/avatar.ts';

const FOLDER = 'logos';
const extension = { png: 'png', jpeg: 'jpg', gif: 'gif' } as const;

/** Store a logo; null when the bytes are not a JPG, GIF or PNG image. Storing the same image twice writes nothing new. */
export async function storeLogo(dataDir: string, bytes: Buffer): Promise<string | null> {
  const kind = sniffImage(bytes.subarray(0, 16));
  if (!kind) return null;
  refuseOversizedImage(bytes, 'logo');
  const name = `${createHash('sha256').update(bytes).digest('hex').slice(0, 32)}.${extension[kind]}`;
  const dir = path.join(uploadsDir(dataDir), FOLDER);
  await fs.mkdir(dir, { recursive: true });
  const file = path.join(dir, name);
  // Written under a temporary name and renamed: a reader never sees half a file under the final name.
  const exists = await fs.stat(file).then(
    () => true,
    () => false,
  );
  if (!exists) {
    // A random temporary name per upload: two uploads of the same image at once never share one.
    // Renaming over a file the other upload just made is safe: it holds the same bytes.
    const tmp = `${file}.${randomBytes(8).toString('hex')}.tmp`;
    try {
      await fs.writeFile(tmp, bytes, { flag: 'wx' });
      await fs.rename(tmp, file);
    } finally {
      await fs.rm(tmp, { force: true });
    }
  }
  return `/uploads/${FOLDER}/${name}`;
}

/** Whether a logo URL names a stored logo file. */
export async function logoStored(dataDir: string, url: string): Promise<boolean> {
  const name = url.match(/^\/uploads\/logos\/([a-f0-9]{32}\.(?:png|jpg|gif))$/)?.[1];
  if (!name) return false;
  return fs.stat(path.join(uploadsDir(dataDir), FOLDER, name)).then(
    (s) => s.isFile(),
    () => false,
  );
}

/** The bytes of a stored logo (its URL checked with logoStored). */
export const readLogo = (dataDir: string, url: string) => fs.readFile(path.join(uploadsDir(dataDir), FOLDER, path.basename(url)));
