/**
 * Build step: a brotli (quality 11) and a gzip (level 9) copy beside every text file of the
 * built app (`app.js` → `app.js.br`, `app.js.gz`), which the server sends as they are to a
 * browser that accepts them. A copy that would not be smaller is not written.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Files worth compressing: text. Images other than SVG and fonts are compressed already. */
export const TEXT_FILE = /\.(js|mjs|css|html|svg|json|txt|xml|webmanifest|map|wasm)$/i;

async function* files(dir: string): AsyncGenerator<string> {
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (entry.isFile()) yield full;
  }
}

export interface PrecompressResult {
  files: number;
  bytes: number;
  brotli: number;
  gzip: number;
}

/** Write `.br` and `.gz` beside each text file under `dir`; returns the totals. */
export async function precompressDir(dir: string): Promise<PrecompressResult> {
  const result: PrecompressResult = { files: 0, bytes: 0, brotli: 0, gzip: 0 };
  const jobs: Promise<void>[] = [];
  for await (const file of files(dir)) {
    if (!TEXT_FILE.test(file)) continue;
    jobs.push(
      (async () => {
        const raw = await fs.readFile(file);
        const [br, gz] = await Promise.all([
          brotli(raw, {
            params: {
              [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
              [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
              [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
            },
          }),
          gzip(raw, { level: zlib.constants.Z_BEST_COMPRESSION }),
        ]);
        result.files++;
        result.bytes += raw.length;
        if (br.length < raw.length) {
          await fs.writeFile(`${file}.br`, br);
          result.brotli += br.length;
        } else result.brotli += raw.length;
        if (gz.length < raw.length) {
          await fs.writeFile(`${file}.gz`, gz);
          result.gzip += gz.length;
        } else result.gzip += raw.length;
      })(),
    );
  }
  await Promise.all(jobs);
  return result;
}

/** The Vite plugin: precompress the output folder once the build has written it (public files included). */
export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'sunfleet:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const r = await precompressDir(outDir);
      const kib = (n: number) => `${(n / 1024).toFixed(0)} KiB`;
      this.info(`precompressed ${r.files} files: ${kib(r.bytes)} → brotli ${kib(r.brotli)}, gzip ${kib(r.gzip)}`);
    },
  };
}
