/** TanStack Query wrappers around the one client; screens use these, never `fetch`. */
import { account, type DataOf, type Endpoint, permissionsApi } from '@sunfleet/contracts';
import { QueryClient, type UseQueryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { serverLanguage } from '../app/language.ts';
import { type ApiError, type CallInput, call } from './client.ts';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      // The client already refreshes tokens and reports failures; a silent retry would repeat toasts.
      queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
      mutations: { retry: false },
    },
  });
}

type QueryOptions<E extends Endpoint> = Omit<UseQueryOptions<DataOf<E>, ApiError>, 'queryKey' | 'queryFn'>;

export function endpointKey(ep: Endpoint, input?: unknown): unknown[] {
  return input === undefined ? [ep.method, ep.path] : [ep.method, ep.path, input];
}

/** A GET through an endpoint contract. */
export function useApiQuery<E extends Endpoint>(ep: E, input: CallInput<E>, options: QueryOptions<E> = {}) {
  return useQuery<DataOf<E>, ApiError>({
    queryKey: endpointKey(ep, input),
    queryFn: ({ signal }) => (call as (e: E, i: CallInput<E>) => Promise<DataOf<E>>)(ep, { ...input, signal }),
    ...options,
  });
}

/** A write through an endpoint contract. */
export function useApiMutation<E extends Endpoint>(ep: E) {
  return useMutation<DataOf<E>, ApiError, CallInput<E>>({
    mutationFn: (input) => (call as (e: E, i: CallInput<E>) => Promise<DataOf<E>>)(ep, input),
  });
}

export function useServerLanguage(): string {
  return serverLanguage(useTranslation().i18n.language);
}

/** The signed-in user's profile in the interface language. */
export function useProfile() {
  const lan = useServerLanguage();
  return useApiQuery(account.getUser, { query: { lan } }, { staleTime: 5 * 60_000 });
}

/** The granted permission tree: fetched once per session. */
export function usePermissionTree() {
  const lan = useServerLanguage();
  const query = useApiQuery(
    permissionsApi.myPermissions,
    { query: { lan } },
    { staleTime: Number.POSITIVE_INFINITY, gcTime: Number.POSITIVE_INFINITY },
  );
  return query;
}

/** After a profile change: store the answer (the server returns the new profile). */
export function useProfileUpdater() {
  const client = useQueryClient();
  const lan = useServerLanguage();
  return (profile: DataOf<typeof account.getUser>) =>
    client.setQueryData(endpointKey(account.getUser, { query: { lan } }), profile);
}
