#!/usr/bin/env node
// The production bundle in dist/: the server (main.js), the ingest edge worker it starts
// (edge-worker.js), the demo simulator it runs as a child process (simulator.js) and the
// spreadsheet worker (copied). Workspace packages are bundled in; every npm dependency stays
// external and loads from node_modules (native addons, and packages that read their own files).
// dist/ sits beside src/ at the same depth, so paths built from import.meta.url (the web app's
// dist, workers) resolve alike from the sources and from the bundle.
//   node build.mjs [folder]   another folder beside src/ instead of dist/ (the bundle's own test
//                             builds there, so it never replaces the dist/ a running server uses)
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const here = import.meta.dirname;
const root = path.resolve(here, '../..');
const folder = process.argv[2] ?? 'dist';
if (!/^[\w-]+$/.test(folder)) throw new Error(`the output folder is a name beside src/, got "${folder}"`);
const outdir = path.join(here, folder);
const pkg = (dir) => JSON.parse(fs.readFileSync(path.join(root, dir, 'package.json'), 'utf8'));
const external = [
  ...new Set(
    ['apps/server', 'apps/simulator', 'packages/contracts', 'packages/protocols'].flatMap((dir) =>
      Object.keys(pkg(dir).dependencies ?? {}).filter((name) => !name.startsWith('@sunfleet/')),
    ),
  ),
];

const started = Date.now();
fs.rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: {
    main: path.join(here, 'src/main.ts'),
    'edge-worker': path.join(here, 'src/telemetry/ingest/edge-worker.ts'),
    simulator: path.join(root, 'apps/simulator/src/cli.ts'),
  },
  outdir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  external,
  sourcemap: true,
  logLevel: 'warning',
});
fs.copyFileSync(path.join(here, 'src/modules/reports/sheet-reader.worker.mjs'), path.join(outdir, 'sheet-reader.worker.mjs'));
console.log(`server bundle built in ${Date.now() - started} ms: ${path.relative(process.cwd(), outdir)}`);
