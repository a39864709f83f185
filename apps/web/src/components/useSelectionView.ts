/**
 * What a selection in a filtered or paged list amounts to: the selected keys stay selected when a
 * filter or another page hides their rows (a bulk action acts on all of them), and the list says
 * how many of them are out of sight: "N selected (M hidden)".
 */
import { useMemo } from 'react';

export interface SelectionView<K> {
  /** Every selected key. */
  count: number;
  /** Selected keys whose rows are not among those shown. */
  hidden: number;
  hiddenKeys: K[];
}

/** `shown` null: the rows are not on screen as a list (another view): nothing counts as hidden. */
export function selectionView<K>(selected: Iterable<K>, shown: Iterable<K> | null): SelectionView<K> {
  const keys = [...selected];
  if (shown === null) return { count: keys.length, hidden: 0, hiddenKeys: [] };
  const visible = new Set(shown);
  const hiddenKeys = keys.filter((k) => !visible.has(k));
  return { count: keys.length, hidden: hiddenKeys.length, hiddenKeys };
}

/** The selection view of a list, recomputed when the selection or the rows shown change. */
export function useSelectionView<K>(selected: ReadonlySet<K> | readonly K[], shown: readonly K[] | null): SelectionView<K> {
  return useMemo(() => selectionView(selected, shown), [selected, shown]);
}
