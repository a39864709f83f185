/** Server data of the weather-station pages: the list with its counts, one station, its values now and its day curve. */
import { devicesApi, plantEnergyApi, type QueryOf } from '@sunfleet/contracts';
import { keepPreviousData } from '@tanstack/react-query';
import { useApiQuery } from '../../../api/hooks.ts';
import { dayOptions, LIST_MS, live } from '../shared/deviceQueries.ts';

export function useWeatherCounts(query: QueryOf<typeof devicesApi.weatherCount>) {
  return useApiQuery(devicesApi.weatherCount, { query }, { refetchInterval: LIST_MS });
}

export function useWeatherList(query: QueryOf<typeof devicesApi.listWeatherStations>) {
  return useApiQuery(devicesApi.listWeatherStations, { query }, { placeholderData: keepPreviousData, refetchInterval: LIST_MS });
}

/** The stations whose SN or alias has `sn` in it (the list is where a station's plant comes from). */
export function useWeatherStationSearch(sn: string, enabled: boolean) {
  return useApiQuery(
    devicesApi.listWeatherStations,
    { query: { keyword: sn, page: 1, size: 20 } },
    { enabled, staleTime: 60_000 },
  );
}

/** A station now, every `LIVE_MS`. */
export function useWeatherRealtime(sn: string, enabled: boolean) {
  return useApiQuery(plantEnergyApi.weatherStationRealtime, { params: { sn }, quiet: true }, { ...live, enabled });
}

/** A station's day curve; today's keeps refreshing. */
export function useWeatherDay(sn: string, date: string, { enabled, today }: { enabled: boolean; today: boolean }) {
  return useApiQuery(
    plantEnergyApi.weatherStationDay,
    { params: { sn }, query: { date }, quiet: true },
    { enabled, placeholderData: keepPreviousData, ...dayOptions(today) },
  );
}
