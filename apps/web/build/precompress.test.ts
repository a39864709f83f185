import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { precompressDir } from './precompress.ts';

let dir = '';
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('precompressed build output', () => {
  it('writes .br and .gz beside every text file, in subfolders too, that decode to the original', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'precompress-'));
    fs.mkdirSync(path.join(dir, 'assets'));
    const js = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `word${i % 37}`))};\n`;
    fs.writeFileSync(path.join(dir, 'assets/app-abc123.js'), js);
    fs.writeFileSync(path.join(dir, 'assets/app-abc123.css'), 'body { margin: 0; padding: 0; }\n'.repeat(50));
    fs.writeFileSync(
      path.join(dir, 'index.html'),
      `<!doctype html><html><head>${'<meta name="x" content="y">'.repeat(20)}</head></html>`,
    );
    fs.writeFileSync(path.join(dir, 'robots.txt'), 'User-agent: *\nDisallow: /api/\n'.repeat(10));
    fs.writeFileSync(
      path.join(dir, 'logo.svg'),
      `<svg xmlns="http://www.w3.org/2000/svg">${'<rect width="1" height="1"/>'.repeat(30)}</svg>`,
    );
    fs.writeFileSync(path.join(dir, 'photo.png'), Buffer.alloc(4096, 7));
    const r = await precompressDir(dir);
    expect(r.files).toBe(5);
    for (const f of ['assets/app-abc123.js', 'assets/app-abc123.css', 'index.html', 'robots.txt', 'logo.svg']) {
      const raw = fs.readFileSync(path.join(dir, f));
      const br = fs.readFileSync(path.join(dir, `${f}.br`));
      const gz = fs.readFileSync(path.join(dir, `${f}.gz`));
      expect(zlib.brotliDecompressSync(br).equals(raw)).toBe(true);
      expect(zlib.gunzipSync(gz).equals(raw)).toBe(true);
      expect(br.length).toBeLessThan(raw.length);
    }
    // Not text: left alone.
    expect(fs.existsSync(path.join(dir, 'photo.png.br'))).toBe(false);
    expect(fs.existsSync(path.join(dir, 'photo.png.gz'))).toBe(false);
  });

  it('a file compression would not shrink gets no copy (the server sends it as it is)', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'precompress-'));
    fs.writeFileSync(path.join(dir, 'tiny.txt'), 'a');
    await precompressDir(dir);
    expect(fs.readdirSync(dir)).toEqual(['tiny.txt']);
  });
});
