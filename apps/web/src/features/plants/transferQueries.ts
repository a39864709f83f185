/** Plant transfer requests: the caller's pending list, and what to refresh after a step. */
import { plantsApi } from '@sunfleet/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { endpointKey, useApiQuery } from '../../api/hooks.ts';
import { invalidatePlants } from './plantQueries.ts';

export function usePendingTransfers() {
  return useApiQuery(plantsApi.listPlantTransfers, {}, { staleTime: 0 });
}

/** After a request, an answer or a cancel: the transfer list, and the plants (an accepted one arrives). */
export function useInvalidateTransfers() {
  const client = useQueryClient();
  return useCallback(
    () =>
      Promise.all([
        client.invalidateQueries({ queryKey: endpointKey(plantsApi.listPlantTransfers) }),
        invalidatePlants(client),
      ]).then(() => undefined),
    [client],
  );
}
