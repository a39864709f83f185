/**
 * The selected-plants store: the selected plant map (id → what the bulk bar shows),
 * its count, the bulk-action flag and summary, the list's filter criteria and paging, and the
 * report date range. A module-level store read through `useSyncExternalStore`, so the selection
 * survives paging, filtering and a visit to another page; signing out reloads and clears it.
 *
 * Transitions: the selection grows with `add`, drops with `remove`, and is `clear`ed or
 * `validate`d against the ids the server still has. Bulk actions show while the count is above 0.
 */
import type { DataOf, plantsApi } from '@sunfleet/contracts';
import { defaultPlantSort } from '@sunfleet/contracts';
import { useSyncExternalStore } from 'react';
import { type DateRange, quickRange } from '../../lib/dateRange.ts';

export type PlantStatusName = plantsApi.PlantStatusName;
export type PlantSort = plantsApi.PlantSort;
export type PlantRow = DataOf<typeof plantsApi.listPlants>['list'][number];

export interface SelectedPlant {
  id: number;
  name: string;
  /** kWp */
  capacity: number;
  /** W now; null when unknown. */
  power: number | null;
  /** The caller holds owner rights (delete, transfer). */
  canManage: boolean;
}

export interface FilterCriteria {
  status: PlantStatusName | undefined;
  /** -1: every type (the default). */
  type: number;
  name: string;
  sort: PlantSort;
  /** 1 ascending, 2 descending (default: createAt, 2). */
  order: 1 | 2;
}

export interface SelectionSummary {
  capacity: number;
  /** Sum of the known powers; null when none is known. */
  power: number | null;
  manageable: number;
}

export interface SelectionState {
  selected: ReadonlyMap<number, SelectedPlant>;
  count: number;
  /** The bulk-action flag: true while the count is above zero. */
  bulk: boolean;
  summary: SelectionSummary;
  criteria: FilterCriteria;
  page: number;
  size: number;
  range: DateRange;
}

export type SelectionAction =
  | { type: 'add'; plants: readonly SelectedPlant[] }
  | { type: 'remove'; ids: readonly number[] }
  | { type: 'clear' }
  /** Keep only ids in `current`; with `checked`, only ids in `checked` can drop out. */
  | { type: 'validate'; current: Iterable<number>; checked?: Iterable<number> }
  /** Fresher values for plants already selected (others are ignored). */
  | { type: 'refresh'; plants: readonly SelectedPlant[] }
  | { type: 'criteria'; criteria: Partial<FilterCriteria> }
  | { type: 'page'; page: number; size?: number }
  | { type: 'range'; range: DateRange }
  | { type: 'reset' };

export const defaultCriteria: FilterCriteria = {
  status: undefined,
  type: -1,
  name: '',
  sort: defaultPlantSort.sort,
  order: defaultPlantSort.order,
};
export const defaultPageSize = 20;

function withSelection(state: SelectionState, selected: Map<number, SelectedPlant>): SelectionState {
  let capacity = 0;
  let power: number | null = null;
  let manageable = 0;
  for (const p of selected.values()) {
    capacity += p.capacity;
    if (p.power !== null) power = (power ?? 0) + p.power;
    if (p.canManage) manageable++;
  }
  return {
    ...state,
    selected,
    count: selected.size,
    bulk: selected.size > 0,
    summary: { capacity: Math.round(capacity * 100) / 100, power, manageable },
  };
}

export function initialSelection(today = new Date()): SelectionState {
  return withSelection(
    {
      selected: new Map(),
      count: 0,
      bulk: false,
      summary: { capacity: 0, power: null, manageable: 0 },
      criteria: defaultCriteria,
      page: 1,
      size: defaultPageSize,
      range: quickRange('last7', today),
    },
    new Map(),
  );
}

export function selectionReducer(state: SelectionState, action: SelectionAction): SelectionState {
  switch (action.type) {
    case 'add': {
      if (action.plants.length === 0) return state;
      const next = new Map(state.selected);
      for (const p of action.plants) next.set(p.id, p);
      return withSelection(state, next);
    }
    case 'remove': {
      if (!action.ids.some((id) => state.selected.has(id))) return state;
      const next = new Map(state.selected);
      for (const id of action.ids) next.delete(id);
      return withSelection(state, next);
    }
    case 'clear':
      return state.count === 0 ? state : withSelection(state, new Map());
    case 'validate': {
      const current = new Set(action.current);
      const checked = action.checked ? new Set(action.checked) : null;
      const gone = [...state.selected.keys()].filter((id) => !current.has(id) && (!checked || checked.has(id)));
      return gone.length === 0 ? state : selectionReducer(state, { type: 'remove', ids: gone });
    }
    case 'refresh': {
      let changed = false;
      const next = new Map(state.selected);
      for (const p of action.plants) {
        const old = next.get(p.id);
        if (!old) continue;
        if (old.name !== p.name || old.capacity !== p.capacity || old.power !== p.power || old.canManage !== p.canManage) {
          next.set(p.id, p);
          changed = true;
        }
      }
      return changed ? withSelection(state, next) : state;
    }
    case 'criteria':
      // Filtering starts again at the first page; the selection stays.
      return { ...state, criteria: { ...state.criteria, ...action.criteria }, page: 1 };
    case 'page':
      return { ...state, page: action.page, size: action.size ?? state.size };
    case 'range':
      return { ...state, range: action.range };
    case 'reset':
      return initialSelection();
  }
}

/** A tiny external store around the reducer. */
export function createSelectionStore(initial: SelectionState = initialSelection()) {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    getState: () => state,
    dispatch(action: SelectionAction) {
      const next = selectionReducer(state, action);
      if (next === state) return;
      state = next;
      for (const listener of listeners) listener();
    },
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}
export type SelectionStore = ReturnType<typeof createSelectionStore>;

/** The app's one selected-plants store. */
export const plantSelection = createSelectionStore();

export function usePlantSelection(store: SelectionStore = plantSelection): SelectionState {
  return useSyncExternalStore(store.subscribe, store.getState, store.getState);
}

/** A row as the selection keeps it; owner rights (delete, transfer) as the server returned them. */
export function toSelected(row: Pick<PlantRow, 'id' | 'name' | 'capacity' | 'power' | 'canManage'>): SelectedPlant {
  return { id: row.id, name: row.name, capacity: row.capacity, power: row.power, canManage: row.canManage };
}
