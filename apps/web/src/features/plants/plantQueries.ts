/** Server data of the plant pages: dictionaries, cache refresh after a change, selection checks. */
import { dictsApi, ErrorCode, plantsApi } from '@sunfleet/contracts';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { ApiError, call } from '../../api/client.ts';
import { endpointKey, useApiQuery, useServerLanguage } from '../../api/hooks.ts';
import { plantSelection, type SelectionStore, toSelected } from './selection.ts';

const DICT = { staleTime: 60 * 60_000 };

export function usePlantTypes() {
  const lan = useServerLanguage();
  return useApiQuery(dictsApi.plantTypes, { query: { lan } }, DICT);
}
export function useTimezones() {
  return useApiQuery(dictsApi.timezones, {}, DICT);
}
export function useCurrencies() {
  const lan = useServerLanguage();
  return useApiQuery(dictsApi.currencies, { query: { lan } }, DICT);
}

/** Everything that shows plants: list, counts, map, filter options, details. */
export function invalidatePlants(client: QueryClient): Promise<void> {
  const endpoints = [
    plantsApi.listPlants,
    plantsApi.overviewPlantCount,
    plantsApi.plantsMap,
    plantsApi.plantFilter,
    plantsApi.getPlant,
    plantsApi.getShareUsers,
  ];
  return Promise.all(endpoints.map((ep) => client.invalidateQueries({ queryKey: endpointKey(ep) }))).then(() => undefined);
}

/**
 * Check selected plants against the server: each id is
 * asked for; one the caller can no longer see (700: deleted, transferred, share ended) drops out,
 * the others get fresh values. At most `concurrency` requests at a time.
 */
export function useSelectionCheck(store: SelectionStore = plantSelection, concurrency = 4) {
  return useCallback(
    async (ids: readonly number[] = [...store.getState().selected.keys()]): Promise<void> => {
      const present: number[] = [];
      const checked: number[] = [];
      const queue = [...ids];
      const worker = async () => {
        for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
          try {
            const plant = await call(plantsApi.getPlant, { params: { id }, quiet: true });
            present.push(id);
            checked.push(id);
            store.dispatch({ type: 'refresh', plants: [toSelected(plant)] });
          } catch (err) {
            // Only "no such plant" says it is gone; a network failure proves nothing.
            if (err instanceof ApiError && err.code === ErrorCode.plantMissing) checked.push(id);
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(concurrency, ids.length) }, worker));
      store.dispatch({ type: 'validate', current: present, checked });
    },
    [store, concurrency],
  );
}

/** Invalidate after a change, from inside a component. */
export function useInvalidatePlants() {
  const client = useQueryClient();
  return useCallback(() => invalidatePlants(client), [client]);
}
