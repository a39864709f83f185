// Rules the whole repository keeps, checked on its files:
// - a source file (.ts, .tsx, .mjs; tests aside) is at most 500 lines;
// - a line of the docs (docs/**/*.md) and of every README.md is at most 400 characters, tables included;
// - the architecture, module and web READMEs name only files and folders that exist, and list
//   every server module and every web feature.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');
const MAX_SOURCE_LINES = 500;
const MAX_DOC_LINE = 400;
/** Folders never walked: installed packages, build output, local data, measured results. */
const skipped = new Set(['node_modules', '.git', 'dist', 'data', 'results', 'test-results', '.tmp']);

function walk(dir: string, keep: (name: string) => boolean, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!skipped.has(entry.name) && !entry.name.startsWith('dist-test-')) walk(path.join(dir, entry.name), keep, out);
    } else if (entry.isFile() && keep(entry.name)) out.push(path.join(dir, entry.name));
  }
  return out;
}

const rel = (file: string) => path.relative(root, file);
const isTest = (name: string) => /\.(test|e2e)\.tsx?$/.test(name);

/** Source files over the line limit, with their line counts. */
export function longSources(dir: string): string[] {
  return walk(dir, (name) => /\.(ts|tsx|mjs)$/.test(name) && !name.endsWith('.d.ts') && !isTest(name))
    .map((file) => ({ file, lines: fs.readFileSync(file, 'utf8').replace(/\n$/, '').split('\n').length }))
    .filter((f) => f.lines > MAX_SOURCE_LINES)
    .map((f) => `${rel(f.file)}: ${f.lines} lines`);
}

/** Markdown lines over the limit (characters, not bytes), as file:line: length. */
export function longDocLines(dir: string): string[] {
  const docs = [...walk(path.join(dir, 'docs'), (name) => name.endsWith('.md')), ...walk(dir, (name) => name === 'README.md')];
  const long: string[] = [];
  for (const file of new Set(docs)) {
    fs.readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        const length = [...line].length;
        if (length > MAX_DOC_LINE) long.push(`${rel(file)}:${i + 1}: ${length} characters`);
      });
  }
  return long;
}

/** Every file name in the repository (the folders `walk` skips aside). */
const fileNames = () => new Set(walk(root, () => true).map((f) => path.basename(f)));

/**
 * Paths a doc names in backticks that do not exist. A path is a backticked token that ends with
 * a slash (a folder) or a source or doc extension (not an API path, a topic or a URL); with a
 * slash it may be relative to the doc's folder, to the repository, or to one of the source roots
 * the docs write from; a bare file name must be some file's name.
 */
export function missingPaths(doc: string, names = fileNames()): string[] {
  const bases = [
    path.dirname(doc),
    root,
    'apps/server/src',
    'apps/server/src/modules',
    'apps/server/src/telemetry',
    'apps/server/src/db',
    'apps/server',
    'apps/server/test',
    'bench',
    'apps/web/src',
    'apps/web/src/features',
    'apps/web',
    'packages/contracts/src',
    'packages/contracts/src/api',
    'packages/protocols/src',
    'apps/simulator/src',
  ].map((b) => path.resolve(root, b));
  const tokens = [...fs.readFileSync(doc, 'utf8').matchAll(/`([^`\s]+)`/g)].map((m) => m[1]!);
  const paths = tokens.filter(
    (t) =>
      /^[\w.@-]+(\/[\w.@-]+)*\/?$/.test(t) &&
      (t.endsWith('/') || /\.(ts|tsx|mjs|md|json|yaml|sh|sql)$/.test(t)) &&
      !t.startsWith('api/') &&
      !t.startsWith('sf/'),
  );
  const exists = (p: string) =>
    p.replace(/\/$/, '').includes('/')
      ? bases.some((b) => fs.existsSync(path.join(b, p)))
      : names.has(p) || bases.some((b) => fs.existsSync(path.join(b, p)));
  return [...new Set(paths)].filter((p) => !exists(p));
}

const folders = (dir: string) =>
  fs
    .readdirSync(path.join(root, dir), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name);

describe('repository rules', () => {
  it('no source file is over 500 lines (tests aside)', () => {
    expect(longSources(root)).toEqual([]);
  });

  it('no line of the docs or a README is over 400 characters', () => {
    expect(longDocLines(root)).toEqual([]);
  });

  it('the architecture and catalogue READMEs name only paths that exist', () => {
    const names = fileNames();
    for (const doc of ['docs/ARCHITECTURE.md', 'apps/server/src/modules/README.md', 'apps/web/src/README.md'])
      expect(missingPaths(path.join(root, doc), names), doc).toEqual([]);
  });

  it('the module catalogue lists every server module, the web README every feature', () => {
    const modules = fs.readFileSync(path.join(root, 'apps/server/src/modules/README.md'), 'utf8');
    expect(folders('apps/server/src/modules').filter((m) => !modules.includes(`\`${m}/\``))).toEqual([]);
    const web = fs.readFileSync(path.join(root, 'apps/web/src/README.md'), 'utf8');
    expect(folders('apps/web/src/features').filter((f) => !web.includes(`\`${f}/\``))).toEqual([]);
  });
});
