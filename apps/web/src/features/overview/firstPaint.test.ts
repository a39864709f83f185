/**
 * The overview paints before ECharts loads: no module the page imports statically (following
 * relative imports, leaving out type-only ones and dynamic `import()`) reaches the chart code.
 * The chart comes through `components/LazyEChart.tsx` after the first paint.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const STATIC_IMPORT = /^import\s+(type\s+)?(?:[^'";]*?\s+from\s+)?'([^']+)';/gm;

function staticGraph(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const text = fs.readFileSync(file, 'utf8');
    for (const m of text.matchAll(STATIC_IMPORT)) {
      if (m[1]) continue; // import type
      const spec = m[2]!;
      if (!spec.startsWith('.')) {
        packages.add(spec);
        continue;
      }
      const target = path.resolve(path.dirname(file), spec);
      if (/\.(tsx?)$/.test(target) && fs.existsSync(target)) visit(target);
    }
  };
  visit(entry);
  return { files, packages };
}

describe('overview first paint', () => {
  it('imports no ECharts statically', () => {
    const { files, packages } = staticGraph(path.resolve(import.meta.dirname, 'OverviewPage.tsx'));
    const names = [...files].map((f) => path.relative(path.resolve(import.meta.dirname, '../..'), f));
    expect(names).toContain('components/LazyEChart.tsx');
    expect(names).not.toContain('components/EChart.tsx');
    expect(names).not.toContain('components/echarts.ts');
    expect([...packages].filter((p) => p === 'echarts' || p.startsWith('echarts/'))).toEqual([]);
  });
});
