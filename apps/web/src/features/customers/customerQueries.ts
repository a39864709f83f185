/** The customer pages' server data: lists, pickers, the grantable permission tree, and their refresh after a change. */
import { customersApi as api, type DataOf, permissionsApi } from '@sunfleet/contracts';
import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { endpointKey, useApiQuery, useServerLanguage } from '../../api/hooks.ts';
import { type CustomerCriteria, listQuery } from './criteria.ts';

export type CustomerRow = DataOf<typeof api.listCustomers>['list'][number];
export type CustomerTypeRow = DataOf<typeof api.listCustomerTypes>['list'][number];
export type TypePick = DataOf<typeof api.customerTypePicks>[number];

export const useCustomerList = (c: CustomerCriteria) =>
  useApiQuery(api.listCustomers, { query: listQuery(c) }, { placeholderData: keepPreviousData });

export const useTypePicks = () => useApiQuery(api.customerTypePicks, {});
export const useCustomerPicks = () => useApiQuery(api.customerPicks, {});

/** Every permission a customer may hold, as a tree in the interface language. */
export function useGrantableTree() {
  const lan = useServerLanguage();
  return useApiQuery(permissionsApi.customerPermissions, { query: { lan } }, { staleTime: 10 * 60_000 });
}

/** After a change: every customer and type list and picker reloads. */
export function useInvalidateCustomers() {
  const client = useQueryClient();
  return useCallback(
    () =>
      Promise.all(
        [
          api.listCustomers,
          api.customerPicks,
          api.listCustomerTypes,
          api.customerTypePicks,
          api.customerRole,
          api.getCustomerType,
        ].map((ep) => client.invalidateQueries({ queryKey: endpointKey(ep) })),
      ),
    [client],
  );
}

/** A type's name with its parent's, for a picker: "Distributor / Installer". */
export function typeLabel(pick: TypePick, picks: readonly TypePick[]): string {
  const parent = pick.parentId === null ? undefined : picks.find((p) => p.id === pick.parentId);
  return parent ? `${parent.name} / ${pick.name}` : pick.name;
}
