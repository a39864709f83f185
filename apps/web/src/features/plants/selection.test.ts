import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  createSelectionStore,
  defaultCriteria,
  initialSelection,
  type SelectedPlant,
  selectionReducer,
  toSelected,
  usePlantSelection,
} from './selection.ts';

const plant = (id: number, extra: Partial<SelectedPlant> = {}): SelectedPlant => ({
  id,
  name: `Plant ${id}`,
  capacity: 10,
  power: 1000,
  canManage: true,
  ...extra,
});

describe('selected-plants store', () => {
  it('starts empty with the defaults: type -1 (every type), sort createAt, order 2, a date range', () => {
    const s = initialSelection(new Date(2026, 4, 20));
    expect(s.count).toBe(0);
    expect(s.bulk).toBe(false);
    expect(s.criteria).toEqual({ status: undefined, type: -1, name: '', sort: 'createAt', order: 2 });
    expect(s.range).toEqual({ start: '2026-05-14', end: '2026-05-20' });
  });

  it('grows with add: count, bulk-action flag and summary follow', () => {
    let s = initialSelection();
    s = selectionReducer(s, { type: 'add', plants: [plant(1), plant(2, { capacity: 5.55, power: null, canManage: false })] });
    expect(s.count).toBe(2);
    expect(s.bulk).toBe(true);
    expect(s.summary).toEqual({ capacity: 15.55, power: 1000, manageable: 1 });
    // Adding the same plant again keeps one entry (with the newer values).
    s = selectionReducer(s, { type: 'add', plants: [plant(1, { power: 3000 })] });
    expect(s.count).toBe(2);
    expect(s.summary.power).toBe(3000);
  });

  it('drops with remove; the bulk flag goes off at zero; clear empties it', () => {
    let s = selectionReducer(initialSelection(), { type: 'add', plants: [plant(1), plant(2), plant(3)] });
    s = selectionReducer(s, { type: 'remove', ids: [2, 99] });
    expect([...s.selected.keys()]).toEqual([1, 3]);
    expect(s.count).toBe(2);
    s = selectionReducer(s, { type: 'remove', ids: [1, 3] });
    expect(s.count).toBe(0);
    expect(s.bulk).toBe(false);
    expect(s.summary).toEqual({ capacity: 0, power: null, manageable: 0 });
    s = selectionReducer(s, { type: 'add', plants: [plant(4)] });
    s = selectionReducer(s, { type: 'clear' });
    expect(s.count).toBe(0);
  });

  it('is validated against current ids: plants gone from the server drop out', () => {
    let s = selectionReducer(initialSelection(), { type: 'add', plants: [plant(1), plant(2), plant(3)] });
    s = selectionReducer(s, { type: 'validate', current: [1, 3, 7] });
    expect([...s.selected.keys()]).toEqual([1, 3]);
    // A partial check: only ids that were checked can drop (3 was not looked at).
    s = selectionReducer(s, { type: 'validate', current: [], checked: [1] });
    expect([...s.selected.keys()]).toEqual([3]);
    expect(s.count).toBe(1);
  });

  it('survives paging and filtering: criteria go back to page 1, the selection stays', () => {
    let s = selectionReducer(initialSelection(), { type: 'add', plants: [plant(1)] });
    s = selectionReducer(s, { type: 'page', page: 3, size: 50 });
    expect(s.page).toBe(3);
    s = selectionReducer(s, { type: 'criteria', criteria: { status: 'fault', name: 'North' } });
    expect(s.page).toBe(1);
    expect(s.size).toBe(50);
    expect(s.criteria).toEqual({ ...defaultCriteria, status: 'fault', name: 'North' });
    expect(s.count).toBe(1);
  });

  it('refresh updates values of selected plants only', () => {
    let s = selectionReducer(initialSelection(), { type: 'add', plants: [plant(1)] });
    const before = s;
    s = selectionReducer(s, { type: 'refresh', plants: [plant(2, { power: 5 })] });
    expect(s).toBe(before);
    s = selectionReducer(s, { type: 'refresh', plants: [plant(1, { power: 250, name: 'Renamed' })] });
    expect(s.selected.get(1)).toMatchObject({ name: 'Renamed', power: 250 });
    expect(s.summary.power).toBe(250);
  });

  it('notifies subscribers (useSyncExternalStore) and skips no-op actions', () => {
    const store = createSelectionStore();
    const { result } = renderHook(() => usePlantSelection(store));
    expect(result.current.count).toBe(0);
    act(() => store.dispatch({ type: 'add', plants: [plant(8), plant(9)] }));
    expect(result.current.count).toBe(2);
    const same = result.current;
    act(() => store.dispatch({ type: 'remove', ids: [42] }));
    expect(result.current).toBe(same);
    act(() => store.dispatch({ type: 'validate', current: [9] }));
    expect([...result.current.selected.keys()]).toEqual([9]);
  });
});

describe('owner rights on a row', () => {
  it('are the rights the server returned for the plant', () => {
    const row = { id: 1, name: 'Rooftop 1', capacity: 6, power: null };
    expect(toSelected({ ...row, canManage: true })).toEqual({ ...row, canManage: true });
    expect(toSelected({ ...row, canManage: false })).toEqual({ ...row, canManage: false });
  });
});
