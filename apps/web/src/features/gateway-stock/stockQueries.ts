/** The stock list, the protocol list and the refresh after a change. */
import { type DataOf, devicesApi, dictsApi } from '@sunfleet/contracts';
import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { endpointKey, useApiQuery, useServerLanguage } from '../../api/hooks.ts';
import { type StockCriteria, serverFilters } from './criteria.ts';

export type StockRow = DataOf<typeof devicesApi.listGateways>['list'][number];

export function useStockList(c: StockCriteria) {
  return useApiQuery(
    devicesApi.listGateways,
    { query: { ...serverFilters(c), page: c.page, size: c.size } },
    { placeholderData: keepPreviousData },
  );
}

/** The protocols a gateway may be given: id and name in the interface language. */
export function useProtocols() {
  const lan = useServerLanguage();
  return useApiQuery(dictsApi.protocols, { query: { lan } }, { staleTime: 10 * 60_000 });
}

/** After a change: the lists and counts of gateways are read again. */
export function useInvalidateStock() {
  const client = useQueryClient();
  return useCallback(async () => {
    await client.invalidateQueries({ queryKey: endpointKey(devicesApi.listGateways) });
    await client.invalidateQueries({ queryKey: endpointKey(devicesApi.gatewayCount) });
  }, [client]);
}
