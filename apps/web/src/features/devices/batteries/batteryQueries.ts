/** Server data of the battery pages: the list with its counts and slave packs, one battery's facts, values now and day curve. */
import { devicesApi, type QueryOf } from '@sunfleet/contracts';
import { keepPreviousData } from '@tanstack/react-query';
import { useApiQuery } from '../../../api/hooks.ts';
import { dayOptions, LIST_MS, live } from '../shared/deviceQueries.ts';

export function useBatteryCounts(query: QueryOf<typeof devicesApi.batteryCount>) {
  return useApiQuery(devicesApi.batteryCount, { query }, { refetchInterval: LIST_MS });
}

export function useBatteryList(query: QueryOf<typeof devicesApi.listBatteries>) {
  return useApiQuery(devicesApi.listBatteries, { query }, { placeholderData: keepPreviousData, refetchInterval: LIST_MS });
}

/** The slave packs of a battery in the list (fetched when its row opens). */
export function useBatterySlaves(id: number) {
  return useApiQuery(devicesApi.batterySlaves, { params: { id }, quiet: true }, { staleTime: 10_000 });
}

export function useBatteryInfo(sn: string, enabled: boolean) {
  return useApiQuery(devicesApi.batteryInfo, { params: { sn } }, { enabled, staleTime: 60_000 });
}

/** A battery now, every `LIVE_MS`. */
export function useBatteryRealtime(sn: string, enabled: boolean) {
  return useApiQuery(devicesApi.batteryRealtime, { params: { sn }, quiet: true }, { ...live, enabled });
}

/** A battery's day curve; today's keeps refreshing. */
export function useBatteryDay(sn: string, date: string, { enabled, today }: { enabled: boolean; today: boolean }) {
  return useApiQuery(
    devicesApi.batteryDay,
    { params: { sn }, query: { date }, quiet: true },
    { enabled, placeholderData: keepPreviousData, ...dayOptions(today) },
  );
}
