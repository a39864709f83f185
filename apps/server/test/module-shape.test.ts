// The server modules' shape, checked on their sources (tests aside):
// - a module's SQL lives in its repositories (`*.repo.ts`): no other source builds or runs a query
//   (a Kysely builder call, an `sql` template or helper, `.execute()` on a builder). A service may
//   open a transaction that spans several repository calls, `db.transaction().execute((trx) => …)`,
//   and pass `trx` to the repository functions: that is the one query call allowed outside them;
// - module folders import each other in one direction only: no cycle between them (what two
//   modules share goes into `src/<concern>`).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const modulesDir = path.resolve(import.meta.dirname, '../src/modules');

const BUILDERS = ['selectFrom', 'selectNoFrom', 'insertInto', 'replaceInto', 'updateTable', 'deleteFrom', 'mergeInto'];
/** Query building or running: a builder call, an `sql` template or helper, a builder run. */
const QUERY = new RegExp(
  [
    `\\.\\s*(${BUILDERS.join('|')})\\s*[(<]`,
    '\\.\\s*(with|withRecursive)\\s*\\(\\s*[\'"`]',
    '\\bsql\\s*(<[^`]*>)?\\s*`',
    '\\bsql\\.\\w+\\s*[(<`]',
    '\\.\\s*(execute|executeTakeFirst|executeTakeFirstOrThrow|stream)\\s*\\(\\s*\\)',
    '\\.\\s*executeQuery\\s*\\(',
  ].join('|'),
);
/** A transaction is opened only to hand its `trx` to repository functions (the chain may wrap a line). */
const TRANSACTION = /\.\s*transaction\s*\(\s*\)(?!\s*\.\s*execute\s*\(\s*(async\s*)?\(?\s*\w+\s*\)?\s*=>)/;
const comment = /^\s*(\/\/|\/\*|\*)/;

const isSource = (name: string) => /\.(ts|mts)$/.test(name) && !/\.test\.ts$/.test(name) && !name.endsWith('.d.ts');

function sources(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && isSource(e.name))
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

/** Lines outside `*.repo.ts` that build or run a query, as `file:line: text` relative to `dir`. */
export function queriesOutsideRepos(dir: string): string[] {
  const hits: string[] = [];
  for (const file of sources(dir)) {
    if (file.endsWith('.repo.ts')) continue;
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    lines.forEach((line, i) => {
      if (comment.test(line)) return;
      const opened = TRANSACTION.exec(`${line} ${lines[i + 1]?.trim() ?? ''}`);
      if (QUERY.test(line) || (opened && opened.index < line.length))
        hits.push(`${path.relative(dir, file)}:${i + 1}: ${line.trim()}`);
    });
  }
  return hits;
}

/** The module folders each module folder imports from (static and dynamic imports, type ones too). */
export function moduleImports(dir: string): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sources(dir)) {
    const from = path.relative(dir, file).split(path.sep)[0]!;
    if (!graph.has(from)) graph.set(from, new Set());
    const text = fs.readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"](\.{1,2}\/[^'"]+)['"]/gm)) {
      const target = path.relative(dir, path.resolve(path.dirname(file), m[1]!));
      const to = target.split(path.sep)[0]!;
      if (!target.startsWith('..') && target.includes(path.sep) && to !== from) graph.get(from)!.add(to);
    }
  }
  return graph;
}

/** Every cycle between module folders, each once, as `a → b → a` starting from its smallest name. */
export function moduleCycles(graph: Map<string, Set<string>>): string[] {
  const cycles = new Set<string>();
  const walk = (start: string, at: string, trail: string[]) => {
    for (const next of graph.get(at) ?? []) {
      if (next === start) cycles.add([...trail, start].join(' → '));
      else if (next > start && !trail.includes(next)) walk(start, next, [...trail, next]);
    }
  };
  for (const start of [...graph.keys()].sort()) walk(start, start, [start]);
  return [...cycles].sort();
}

describe('the server modules', () => {
  it('keep their SQL in their repositories (*.repo.ts)', () => {
    expect(queriesOutsideRepos(modulesDir)).toEqual([]);
  });

  it('import each other in one direction only: no cycle between module folders', () => {
    expect(moduleCycles(moduleImports(modulesDir))).toEqual([]);
  });
});

describe('the module shape check', () => {
  const scratch = (files: Record<string, string>, check: (dir: string) => void) => {
    const dir = fs.mkdtempSync(path.join(fs.realpathSync(process.env.TMPDIR ?? '/tmp'), 'module-shape-'));
    try {
      for (const [name, text] of Object.entries(files)) {
        fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
        fs.writeFileSync(path.join(dir, name), text);
      }
      check(dir);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };

  it('finds each way a source outside a repository builds or runs a query, naming file:line', () => {
    const lines = [
      "const row = await db.selectFrom('plants').selectAll().executeTakeFirst();",
      '  .insertInto("users")',
      "await trx.updateTable('devices').set({ a: 1 }).execute();",
      "db.deleteFrom('x')",
      'const n = sql<number>`count(*)`;',
      'await sql`select 1`.execute(db);',
      "sql.ref('plants.id')",
      "db.with('recent', (q) => q)",
      '  .execute();',
      'const t = await db.transaction();',
      'await db.transaction().execute(async (trx) => repo.save(trx, row));',
      'const id = await db',
      '  .transaction()',
      '  .execute(async (trx) => repo.save(trx, row))',
      '// db.selectFrom in a comment',
      'const plants = await repo.plantsOf(db, caller);',
      "import type { Selectable } from 'kysely';",
    ];
    scratch(
      {
        'plants/plants.service.ts': lines.join('\n'),
        'plants/plants.repo.ts': "db.selectFrom('plants')",
        'plants/plants.test.ts': "db.selectFrom('plants')",
      },
      (dir) => {
        const hits = queriesOutsideRepos(dir);
        expect(hits.map((h) => h.split(':').slice(0, 2).join(':'))).toEqual(
          [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => `plants/plants.service.ts:${n}`),
        );
      },
    );
  });

  it('finds a cycle between module folders and names it, whatever the import form', () => {
    scratch(
      {
        'a/x.ts': "import { y } from '../b/y.ts';\nimport '../c/side.ts';",
        'b/y.ts': "export const y = 1;\nconst lazy = () => import('../c/z.ts');",
        'c/z.ts': "import type { X } from '../a/x.ts';\nimport { own } from './own.ts';",
        'c/side.ts': "import { ok } from '../../shared/ok.ts';",
        'd/w.ts': "import { y } from '../b/y.ts';",
      },
      (dir) => {
        expect(moduleCycles(moduleImports(dir))).toEqual(['a → b → c → a', 'a → c → a']);
      },
    );
    scratch({ 'a/x.ts': "import { y } from '../b/y.ts';", 'b/y.ts': "import { z } from './z.ts';" }, (dir) => {
      expect(moduleCycles(moduleImports(dir))).toEqual([]);
    });
  });
});
