/** Server data of the meter pages: the list with its counts, one meter now, its day curve and bars, the master flag. */
import { devicesApi, ErrorCode, plantEnergyApi, type QueryOf } from '@sunfleet/contracts';
import { keepPreviousData } from '@tanstack/react-query';
import { call } from '../../../api/client.ts';
import { useApiQuery } from '../../../api/hooks.ts';
import { dayOptions, LIST_MS, live, meterBars } from '../shared/deviceQueries.ts';

export function useMeterCounts(query: QueryOf<typeof devicesApi.meterCount>) {
  return useApiQuery(devicesApi.meterCount, { query }, { refetchInterval: LIST_MS });
}

export function useMeterList(query: QueryOf<typeof devicesApi.listMeters>) {
  return useApiQuery(devicesApi.listMeters, { query }, { placeholderData: keepPreviousData, refetchInterval: LIST_MS });
}

/** A meter now, every `LIVE_MS`. */
export function useMeterRealtime(sn: string, enabled: boolean) {
  return useApiQuery(devicesApi.meterRealtime, { params: { sn } }, { ...live, enabled });
}

/** A meter's day curve; today's keeps refreshing. */
export function useMeterDay(sn: string, date: string, { enabled, today }: { enabled: boolean; today: boolean }) {
  return useApiQuery(
    devicesApi.meterDay,
    { params: { sn }, query: { date }, quiet: true },
    { enabled, placeholderData: keepPreviousData, ...dayOptions(today) },
  );
}

/** A meter's import and export bars of a month, a year or all time. */
export function useMeterBars(sn: string, period: keyof typeof meterBars, date: string, enabled: boolean) {
  return useApiQuery(
    meterBars[period],
    { params: { sn }, query: { date }, quiet: true },
    { enabled, placeholderData: keepPreviousData, staleTime: 60_000 },
  );
}

/** Make a meter its plant's master (no rights on the plant, or the meter gone, are the screen's to say). */
export function setMasterMeter(sn: string) {
  return call(plantEnergyApi.setMasterMeter, { params: { sn }, tolerate: [ErrorCode.noPermission, ErrorCode.notFound] });
}
