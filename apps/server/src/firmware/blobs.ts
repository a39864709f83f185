/**
 * The firmware blob store: images under `<data>/firmware/<sha256>.bin` (content-addressed, see
 * signing.ts). An upload is streamed to a temporary file in `<data>/firmware/tmp/` while its
 * SHA-256 is computed and its size counted (never held whole in memory); the caller checks the
 * rest and then keeps it (renamed to its blob path) or discards it, so a refused upload leaves
 * nothing behind; what a crash leaves there is removed by housekeeping after a day.
 */
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Db } from '../db/index.ts';
import { firmwareBlobPath, firmwareDir } from './signing.ts';

export class BlobTooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`the image is larger than ${maxBytes} bytes`);
  }
}

/** An image streamed to a temporary file: its digest and size, to keep or discard. */
export interface StagedBlob {
  sha256: string;
  size: number;
  /** Moves it to its blob path (the same bytes stored before: the temporary copy goes). */
  keep(): Promise<string>;
  discard(): Promise<void>;
}

const tmpDir = (dataDir: string) => path.join(firmwareDir(dataDir), 'tmp');

/**
 * Streams `source` to a temporary file, hashing and counting as it goes; more than `maxBytes`
 * stops the copy (BlobTooLarge) and removes what was written.
 */
export async function stageBlob(dataDir: string, source: Readable, maxBytes: number): Promise<StagedBlob> {
  await fs.promises.mkdir(tmpDir(dataDir), { recursive: true });
  const tmp = path.join(tmpDir(dataDir), `${randomUUID()}.part`);
  const hash = createHash('sha256');
  let size = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      if (size > maxBytes) return done(new BlobTooLarge(maxBytes));
      hash.update(chunk);
      done(null, chunk);
    },
  });
  try {
    await pipeline(source, meter, fs.createWriteStream(tmp, { flags: 'wx', mode: 0o640 }));
  } catch (err) {
    await fs.promises.rm(tmp, { force: true });
    throw err;
  }
  const sha256 = hash.digest('hex');
  let settled = false;
  return {
    sha256,
    size,
    async keep() {
      settled = true;
      const target = firmwareBlobPath(dataDir, sha256);
      // rename replaces an existing file atomically: the same bytes, so a reader sees one or the other.
      await fs.promises.rename(tmp, target);
      return target;
    },
    async discard() {
      if (settled) return;
      settled = true;
      await fs.promises.rm(tmp, { force: true });
    },
  };
}

/** A temporary file this old is a copy a crash or a stop left behind (an upload takes minutes). */
export const STALE_PART_MS = 24 * 60 * 60_000;

/** Removes temporary upload files last written more than `olderThanMs` ago; how many. */
export async function sweepStaleParts(dataDir: string, at: number, olderThanMs = STALE_PART_MS): Promise<number> {
  let names: string[];
  try {
    names = await fs.promises.readdir(tmpDir(dataDir));
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    if (!name.endsWith('.part')) continue;
    const file = path.join(tmpDir(dataDir), name);
    const stat = await fs.promises.stat(file).catch(() => null);
    if (!stat || at - stat.mtimeMs <= olderThanMs) continue;
    await fs.promises.rm(file, { force: true });
    removed++;
  }
  return removed;
}

/** A read stream of a stored image (errors with ENOENT when there is none). */
export function openBlob(dataDir: string, sha256: string, range?: { start: number; end?: number }): fs.ReadStream {
  return fs.createReadStream(firmwareBlobPath(dataDir, sha256), range ?? {});
}

export const blobExists = (dataDir: string, sha256: string) =>
  fs.promises.access(firmwareBlobPath(dataDir, sha256)).then(
    () => true,
    () => false,
  );

/** Removes a stored image; the caller has made sure no firmware row names these bytes any more. */
export async function deleteBlob(dataDir: string, sha256: string): Promise<void> {
  await fs.promises.rm(firmwareBlobPath(dataDir, sha256), { force: true });
}

/** Removes the image with these bytes when no firmware row names it any more. */
export async function deleteUnusedBlob(db: Db, dataDir: string, sha256: string): Promise<boolean> {
  const used = await db.selectFrom('firmware').select('id').where('sha256', '=', sha256).limit(1).executeTakeFirst();
  if (used) return false;
  await deleteBlob(dataDir, sha256);
  return true;
}
