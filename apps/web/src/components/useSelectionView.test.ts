import { renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { selectionView, useSelectionView } from './useSelectionView.ts';

describe('selection view', () => {
  it('counts every selected key and those whose rows are not shown', () => {
    expect(selectionView([1, 2, 3], [2, 4, 5])).toEqual({ count: 3, hidden: 2, hiddenKeys: [1, 3] });
  });

  it('hides nothing while every selected row is shown', () => {
    expect(selectionView(['a', 'b'], ['a', 'b', 'c'])).toEqual({ count: 2, hidden: 0, hiddenKeys: [] });
  });

  it('a filter that shows no rows hides the whole selection', () => {
    expect(selectionView(new Set([7, 8]), [])).toEqual({ count: 2, hidden: 2, hiddenKeys: [7, 8] });
  });

  it('counts nothing as hidden when the rows are not shown as a list', () => {
    expect(selectionView([1, 2], null)).toEqual({ count: 2, hidden: 0, hiddenKeys: [] });
  });

  it('follows the rows shown: a filter that hides a selected row raises the hidden count, clearing it lowers it', () => {
    const selected = new Set([1, 2]);
    const { result, rerender } = renderHook(({ shown }) => useSelectionView(selected, shown), {
      initialProps: { shown: [1, 2, 3] as readonly number[] },
    });
    expect(result.current.hidden).toBe(0);
    rerender({ shown: [2] });
    expect(result.current).toMatchObject({ count: 2, hidden: 1, hiddenKeys: [1] });
    rerender({ shown: [1, 2] });
    expect(result.current.hidden).toBe(0);
  });
});
