import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * What ingest stores (latest values, day rows, samples) is read by the modules through src/energy
 * only: no module source names those tables in a query. The modules' tests may (they set up and
 * check stored rows).
 */
const TABLES = [
  'device_latest',
  'device_day',
  'plant_day',
  'inverter_samples',
  'battery_samples',
  'meter_samples',
  'weather_samples',
];
const names = TABLES.join('|');
/** A query over one of the tables: Kysely's builders, a raw `from`/`join`, or a table named at run time. */
const QUERY = new RegExp(
  [
    `\\b(selectFrom|innerJoin|leftJoin|rightJoin|fullJoin|updateTable|insertInto|deleteFrom|mergeInto)\\(\\s*['"\`](${names})(['"\`]|\\s+as\\b)`,
    `\\b(from|join|update|into)\\s+"?(${names})\\b(?!_)`,
    `\\bsql\\.table\\(`,
  ].join('|'),
  'i',
);

/** Lines of the source files under `dir` (tests left out) that query the read model's tables. */
function readModelQueries(dir: string): string[] {
  const hits: string[] = [];
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.(ts|mts)$/.test(entry.name) || /\.test\.ts$/.test(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    fs.readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (QUERY.test(line)) hits.push(`${path.relative(dir, file)}:${i + 1}: ${line.trim()}`);
      });
  }
  return hits;
}

describe('the energy read model', () => {
  it('is the only reader of latest values, day rows and samples: no module queries them', () => {
    expect(readModelQueries(path.resolve(import.meta.dirname, '../modules'))).toEqual([]);
  });

  it('finds each way a module could query them', () => {
    const dir = fs.mkdtempSync(path.join(fs.realpathSync(process.env.TMPDIR ?? '/tmp'), 'read-model-'));
    try {
      const lines = [
        "db.selectFrom('device_latest').selectAll()",
        "q.leftJoin('device_day', (j) => j)",
        "db.selectFrom('plant_day as pd')",
        'sql`select ts from inverter_samples where device_id = 1`',
        'const rows = await sql.table(table);',
        "db.selectFrom('plant_day_income')",
        "db.selectFrom('devices').select('plant_day')",
      ];
      fs.writeFileSync(path.join(dir, 'a.ts'), lines.join('\n'));
      fs.writeFileSync(path.join(dir, 'a.test.ts'), "db.selectFrom('device_latest')");
      expect(readModelQueries(dir).map((h) => h.split(':')[1])).toEqual(['1', '2', '3', '4', '5']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
