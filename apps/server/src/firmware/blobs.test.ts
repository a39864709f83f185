import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BlobTooLarge, deleteBlob, openBlob, STALE_PART_MS, stageBlob, sweepStaleParts } from './blobs.ts';
import { firmwareBlobPath, firmwareDir } from './signing.ts';

let dataDir: string;
beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fwlib-blobs-'));
});
afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

/** Every file under the firmware folder (temporary ones included). */
const filesUnder = (dir: string): string[] =>
  fs.existsSync(dir)
    ? fs
        .readdirSync(dir, { withFileTypes: true })
        .flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [e.name]))
    : [];

/** `total` bytes made chunk by chunk as the reader asks (nothing made ahead). */
function lazyStream(total: number, chunk = 64 * 1024) {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= total) return this.push(null);
      const n = Math.min(chunk, total - sent);
      sent += n;
      this.push(Buffer.alloc(n, sent & 0xff));
    },
  });
}

describe('firmware blob store', () => {
  it('stages a stream with its SHA-256 and size, and keeps it under its digest', async () => {
    const bytes = randomBytes(200_000);
    const staged = await stageBlob(dataDir, Readable.from([bytes.subarray(0, 1000), bytes.subarray(1000)]), 1_000_000);
    expect(staged.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(staged.size).toBe(bytes.length);
    const target = await staged.keep();
    expect(target).toBe(firmwareBlobPath(dataDir, staged.sha256));
    expect(fs.readFileSync(target).equals(bytes)).toBe(true);
    expect(filesUnder(path.join(firmwareDir(dataDir), 'tmp'))).toEqual([]);
    const back: Buffer[] = [];
    for await (const c of openBlob(dataDir, staged.sha256, { start: 10, end: 19 })) back.push(c as Buffer);
    expect(Buffer.concat(back).equals(bytes.subarray(10, 20))).toBe(true);
    await deleteBlob(dataDir, staged.sha256);
    expect(fs.existsSync(target)).toBe(false);
  });

  it('a discarded upload leaves no file', async () => {
    const staged = await stageBlob(dataDir, Readable.from([randomBytes(1000)]), 1000);
    await staged.discard();
    expect(filesUnder(firmwareDir(dataDir))).toEqual([]);
  });

  it('stops at one byte over the limit and removes what it wrote; the limit itself passes', async () => {
    const max = 1.5 * 1024 * 1024;
    const ok = await stageBlob(dataDir, lazyStream(max), max);
    expect(ok.size).toBe(max);
    await ok.discard();
    await expect(stageBlob(dataDir, lazyStream(max + 1), max)).rejects.toBeInstanceOf(BlobTooLarge);
    expect(filesUnder(firmwareDir(dataDir))).toEqual([]);
  });

  it('streams: bytes read ahead of the disk stay a few chunks, however large the image', async () => {
    const total = 64 * 1024 * 1024;
    const tmp = path.join(firmwareDir(dataDir), 'tmp');
    let sent = 0;
    let ahead = 0;
    const source = new Readable({
      read() {
        // Bytes handed over so far minus bytes already on disk: what the store holds in memory.
        const file = fs.existsSync(tmp) ? fs.readdirSync(tmp)[0] : undefined;
        const written = file ? fs.statSync(path.join(tmp, file)).size : 0;
        ahead = Math.max(ahead, sent - written);
        if (sent >= total) return this.push(null);
        sent += 64 * 1024;
        this.push(Buffer.alloc(64 * 1024, 7));
      },
    });
    const staged = await stageBlob(dataDir, source, total);
    expect(staged.size).toBe(total);
    await staged.discard();
    // Held whole, the image would be 64 MiB ahead of the disk; streamed, a few chunks are in flight.
    expect(ahead).toBeLessThan(1024 * 1024);
  });

  it('sweeps temporary files a crash left behind after a day, and leaves younger ones and blobs', async () => {
    const tmp = path.join(firmwareDir(dataDir), 'tmp');
    fs.mkdirSync(tmp, { recursive: true });
    const now = Date.now();
    const old = path.join(tmp, 'old.part');
    const young = path.join(tmp, 'young.part');
    fs.writeFileSync(old, 'x');
    fs.writeFileSync(young, 'x');
    fs.utimesSync(old, new Date(now - STALE_PART_MS - 60_000), new Date(now - STALE_PART_MS - 60_000));
    const kept = await stageBlob(dataDir, Readable.from([Buffer.from('image')]), 100);
    await kept.keep();
    expect(await sweepStaleParts(dataDir, now)).toBe(1);
    expect(fs.existsSync(old)).toBe(false);
    expect(fs.existsSync(young)).toBe(true);
    expect(fs.existsSync(firmwareBlobPath(dataDir, kept.sha256))).toBe(true);
    expect(await sweepStaleParts(fs.mkdtempSync(path.join(os.tmpdir(), 'fwlib-none-')), now)).toBe(0);
  });
});
