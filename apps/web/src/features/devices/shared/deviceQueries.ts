/**
 * Server data of the device pages. Realtime values refresh every 10 s (a gateway uploads every
 * few seconds to minutes, so a new value shows within one interval), lists and today's curves
 * every minute, past days and bars only when asked again. Realtime calls are quiet: a card
 * shows its own error instead of a toast repeating at each refresh.
 */
import { commandsApi, devicesApi, ErrorCode, eventsApi, plantsApi, type QueryOf } from '@sunfleet/contracts';
import { keepPreviousData, type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { call } from '../../../api/client.ts';
import { useApiQuery } from '../../../api/hooks.ts';

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

/** A device's open events refresh this often. */
export const OPEN_EVENTS_REFRESH_MS = 30_000;

export function useDeviceOpenEvents(sn: string) {
  return useApiQuery(eventsApi.deviceOpenEvents, { params: { sn }, quiet: true }, { refetchInterval: OPEN_EVENTS_REFRESH_MS });
}

/** A device's events in a range, a page at a time. */
export function useDeviceEvents(sn: string, query: QueryOf<typeof eventsApi.deviceEvents>, enabled: boolean) {
  return useApiQuery(
    eventsApi.deviceEvents,
    { params: { sn }, query, quiet: true },
    { enabled, placeholderData: keepPreviousData },
  );
}

/** Plants to filter a list by: the first 20 by name, or those whose name holds `name`. */
export function usePlantOptions(name: string) {
  return useApiQuery(
    plantsApi.listPlants,
    { query: { page: 1, size: 20, sort: 'name', order: 1, type: -1, ...(name ? { name } : {}) }, quiet: true },
    { placeholderData: keepPreviousData, staleTime: 60_000 },
  );
}

/** One plant (a chosen plant's name when it is not among the options). */
export function usePlantNamed(id: number | undefined, enabled: boolean) {
  return useApiQuery(plantsApi.getPlant, { params: { id: id ?? 0 }, quiet: true }, { enabled });
}

const aliasEndpoints = { inverter: devicesApi.inverterAlias, meter: devicesApi.meterAlias } as const;

/** Rename a device; no edit rights on the plant, a refused alias and a device gone are the dialog's to say. */
export function renameDevice(kind: keyof typeof aliasEndpoints, sn: string, alias: string) {
  return call(aliasEndpoints[kind], {
    params: { sn },
    body: { alias },
    tolerate: [ErrorCode.noPermission, ErrorCode.validation, ErrorCode.notFound, ErrorCode.inverterMissing],
  });
}

/** Delete a device (soft); no edit rights on the plant is the screen's to say. */
export async function deleteDevice(kind: EditableKind, device: { id: number; sn: string }): Promise<void> {
  const tolerate = [ErrorCode.noPermission];
  if (kind === 'inverter') await call(devicesApi.deleteInverter, { params: { sn: device.sn }, tolerate });
  else if (kind === 'meter') await call(devicesApi.deleteMeter, { params: { sn: device.sn }, tolerate });
  else await call(devicesApi.deleteBattery, { params: { id: device.id }, tolerate });
}

/** Run a debug code on a gateway; the answer is the gateway's reply. */
export function gatewayDebug(sn: string, code: string) {
  return call(commandsApi.gatewayDebug, { params: { sn }, body: { code } });
}

/** Start a debug code on an inverter; the answer is its job. */
export function inverterDebug(sn: string, code: string) {
  return call(commandsApi.inverterDebug, { params: { sn }, body: { code } });
}

/** The job of an inverter's debug code, the server holding the read up to `waitMs` until it moves. */
export function inverterDebugReply(sn: string, jobId: string, waitMs: number) {
  return call(commandsApi.inverterDebugReply, { params: { sn }, query: { jobId, waitMs } });
}
