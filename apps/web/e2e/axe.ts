/**
 * The accessibility check of a page in the browser tests: axe-core (WCAG 2.x A and AA rules and
 * axe's best practices) over the rendered page; a serious or critical violation fails the test,
 * named with the rule and the elements it was found on.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';

export interface AxeProblem {
  rule: string;
  impact: string;
  help: string;
  targets: string[];
}

/** The serious and critical axe violations on the page as it is now. */
export async function seriousViolations(page: Page): Promise<AxeProblem[]> {
  const result = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    // Only violations are read: axe then skips describing every node that passed (a table's
    // hundreds of cells), which was most of an audit's time.
    .options({ resultTypes: ['violations'] })
    .analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      rule: v.id,
      impact: v.impact ?? '',
      help: v.help,
      targets: v.nodes
        .slice(0, 5)
        .map((n) => `${n.target.join(' ')}${n.failureSummary ? ` — ${n.failureSummary.replace(/\s+/g, ' ')}` : ''}`),
    }));
}
