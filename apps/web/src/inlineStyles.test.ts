/**
 * Inline styles only for values computed at run time: every `style={…}` prop in the web app's
 * components is listed here, by file, with what makes it dynamic. A new one fails this test:
 * a fixed look goes to a CSS module, an antd prop or a theme token instead.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** File (below src/) → how many `style=` props it has, and why each is computed. */
const allowed: Record<string, { count: number; why: string }> = {
  'components/CountCard.tsx': { count: 1, why: "the card's accent colour, given by the caller" },
  'components/ChartEmpty.tsx': { count: 1, why: 'the height of the chart it stands for' },
  'components/ChartSkeleton.tsx': { count: 1, why: 'the height of the chart it stands for' },
  'components/EChart.tsx': { count: 1, why: 'the height the chart is given' },
  'components/PlantSelect.tsx': { count: 1, why: 'the width the caller gives' },
  'features/devices/batteries/CellHeatMap.tsx': {
    count: 3,
    why: "the heat scale's gradient, the table's width from its column count, a cell's colour from its value",
  },
  'features/devices/gateways/GatewayDetailPage.tsx': {
    count: 1,
    why: "a history segment's share of the bar and its state's colour",
  },
  'features/enterprise/BrandCard.tsx': { count: 1, why: 'the theme colour being chosen and the text colour picked for it' },
  'features/overview/EnergyCard.tsx': { count: 2, why: "a part's share of the bar and its series colour" },
  'features/plants/PlantMap.tsx': { count: 1, why: "a legend dot in its status's colour" },
};

const root = import.meta.dirname;
const STYLE_PROP = /\bstyle=\{/g;

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.tsx$/.test(entry.name) && !/\.test\.tsx$/.test(entry.name) ? [full] : [];
  });
}

/** `style=` props per file (test files left out: they may style what they render). */
function countInlineStyles(files: Record<string, string>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const [file, text] of Object.entries(files)) {
    const n = text.match(STYLE_PROP)?.length ?? 0;
    if (n > 0) counts[file] = n;
  }
  return counts;
}

describe('inline styles', () => {
  it('counts style props, not antd `styles` props or words in comments about styles', () => {
    expect(
      countInlineStyles({
        'a.tsx': '<div style={{ width }} /><Card styles={{ body: {} }} /> // the style of it',
        'b.tsx': '<Card className={ui.fill} />',
        'c.tsx': '<i style={a} /><i\n  style={{ color }}\n/>',
      }),
    ).toEqual({ 'a.tsx': 1, 'c.tsx': 2 });
  });

  it('stand only where a value is computed at run time (the allow-list)', () => {
    const files = Object.fromEntries(
      sources(root).map((file) => [path.relative(root, file).split(path.sep).join('/'), fs.readFileSync(file, 'utf8')]),
    );
    const found = countInlineStyles(files);
    const expected = Object.fromEntries(Object.entries(allowed).map(([file, a]) => [file, a.count]));
    // A file over its count has a new inline style: move it to a CSS module. A file under its
    // count (or gone) lowers its line here, so the list stays exact.
    expect(found).toEqual(expected);
  });
});
