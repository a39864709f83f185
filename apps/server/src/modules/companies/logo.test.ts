/** Storing logos: the same image uploaded many times at once lands once, and no upload fails. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { storeLogo } from './logo.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sunfleet-logo-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

// The smallest PNG: signature, IHDR (1×1), IDAT, IEND.
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

describe('storeLogo', () => {
  it('40 identical uploads at once all succeed with one URL, one file and no temporary files left', async () => {
    const results = await Promise.allSettled(Array.from({ length: 40 }, () => storeLogo(dataDir, png)));
    const failed = results.filter((r) => r.status === 'rejected');
    expect(failed.map((r) => String((r as PromiseRejectedResult).reason))).toEqual([]);
    const urls = new Set(results.map((r) => (r as PromiseFulfilledResult<string | null>).value));
    expect(urls.size).toBe(1);
    const [url] = [...urls];
    expect(url).toMatch(/^\/uploads\/logos\/[a-f0-9]{32}\.png$/);
    const dir = path.join(dataDir, 'uploads', 'logos');
    expect(fs.readdirSync(dir)).toEqual([path.basename(url as string)]);
    expect(fs.readFileSync(path.join(dir, path.basename(url as string)))).toEqual(png);
  });
});
