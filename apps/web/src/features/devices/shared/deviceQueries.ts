/**
 * Server data of the device pages. Realtime values refresh every 10 s (a gateway uploads every
 * few seconds to minutes, so a new value shows within one interval), lists and today's curves
 * every minute, past days and bars only when asked again. Realtime calls are quiet: a card
 * shows its own error instead of a toast repeating at each refresh.
 */
import { devicesApi } from '@sunfleet/contracts';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';

export const LIVE_MS = 10_000;
export const LIST_MS = 60_000;

export const live = { refetchInterval: LIVE_MS, staleTime: 0 } as const;
export const slow = { refetchInterval: LIST_MS, staleTime: 0 } as const;
/** A day curve: today's keeps growing, past days do not change. */
export const dayOptions = (isToday: boolean) => (isToday ? slow : { staleTime: 5 * 60_000 });

/** Every endpoint path of a device kind, for invalidation after a change. */
const prefixes = {
  inverter: ['/api/v1/inverter', '/api/v1/gateway'],
  meter: ['/api/v1/meter', '/api/v1/gateway'],
  battery: ['/api/v1/batter', '/api/v1/gateway'],
} as const;

export type EditableKind = keyof typeof prefixes;

export function invalidateDevices(client: QueryClient, kind: EditableKind): Promise<void> {
  return client.invalidateQueries({
    predicate: (q) => {
      const path = q.queryKey[1];
      return typeof path === 'string' && prefixes[kind].some((p) => path.startsWith(p));
    },
  });
}

export function useInvalidateDevices(kind: EditableKind) {
  const client = useQueryClient();
  return useCallback(() => invalidateDevices(client, kind), [client, kind]);
}

/** Month, year and total bars of the devices that have them. */
export const inverterBars = {
  month: devicesApi.inverterMonth,
  year: devicesApi.inverterYear,
  total: devicesApi.inverterTotal,
} as const;
export const groupBars = {
  month: devicesApi.inverterGroupMonth,
  year: devicesApi.inverterGroupYear,
  total: devicesApi.inverterGroupTotal,
} as const;
export const meterBars = {
  month: devicesApi.meterMonth,
  year: devicesApi.meterYear,
  total: devicesApi.meterTotal,
} as const;
