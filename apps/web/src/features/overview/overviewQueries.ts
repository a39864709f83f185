/**
 * Server data of the overview. The realtime card and the flow refresh every 10 s (a gateway
 * uploads every 1–5 minutes, so a new value shows within one interval); counts, events, the
 * weather and today's curve every minute. Every call is quiet: a card shows its own error
 * instead of a toast repeating at each refresh.
 */
import { plantEnergyApi, plantsApi } from '@sunfleet/contracts';
import { keepPreviousData } from '@tanstack/react-query';
import { useApiQuery } from '../../api/hooks.ts';
import type { ChartPeriod } from '../../lib/dateNav.ts';

export const LIVE_MS = 10_000;
export const SLOW_MS = 60_000;

const live = { refetchInterval: LIVE_MS, staleTime: 0 };
const slow = { refetchInterval: SLOW_MS, staleTime: 0 };

export const usePlant = (id: number) =>
  useApiQuery(plantsApi.getPlant, { params: { id } }, { enabled: id > 0, staleTime: 30_000 });

export const useRealtime = (id: number) =>
  useApiQuery(plantEnergyApi.plantRealtime, { params: { id }, quiet: true }, { ...live, enabled: id > 0 });

export const useFlow = (id: number) =>
  useApiQuery(plantEnergyApi.plantEnergyFlow, { params: { id }, quiet: true }, { ...live, enabled: id > 0 });

/** The day curve; today's keeps growing, so it refreshes, past days do not. */
export const usePowerDay = (id: number, date: string, isToday: boolean, enabled = true) =>
  useApiQuery(
    plantEnergyApi.plantPowerDay,
    { params: { id }, query: { date }, quiet: true },
    { enabled: enabled && id > 0, placeholderData: keepPreviousData, ...(isToday ? slow : { staleTime: 5 * 60_000 }) },
  );

export const generationEndpoint = {
  month: plantEnergyApi.plantPowerMonth,
  year: plantEnergyApi.plantPowerYear,
  total: plantEnergyApi.plantPowerTotal,
} as const;

export const useGeneration = (id: number, period: 'month' | 'year' | 'total', date: string, enabled = true) =>
  useApiQuery(
    generationEndpoint[period],
    { params: { id }, query: { date }, quiet: true },
    { enabled: enabled && id > 0, placeholderData: keepPreviousData, staleTime: 60_000 },
  );

const breakdownEndpoint = {
  day: plantEnergyApi.plantEnergyDay,
  month: plantEnergyApi.plantEnergyMonth,
  year: plantEnergyApi.plantEnergyYear,
  total: plantEnergyApi.plantEnergyTotal,
} as const;

export const useBreakdown = (id: number, period: ChartPeriod, date: string) =>
  useApiQuery(
    breakdownEndpoint[period],
    { params: { id }, query: { date }, quiet: true },
    { enabled: id > 0, placeholderData: keepPreviousData, ...slow },
  );

export const useGenerationUse = (id: number, period: ChartPeriod, date: string) =>
  useApiQuery(
    plantEnergyApi.plantGenerationUse,
    { params: { id }, query: { period, date }, quiet: true },
    { enabled: id > 0, placeholderData: keepPreviousData, ...slow },
  );

export const useInverterCount = (id: number) => useApiQuery(plantsApi.plantInverterCount, { params: { id }, quiet: true }, slow);
export const useEventCount = (id: number) => useApiQuery(plantsApi.plantEventCount, { params: { id }, quiet: true }, slow);
export const useDeviceCheck = (id: number) =>
  useApiQuery(plantsApi.checkDevice, { params: { stationId: id }, quiet: true }, slow);
export const useInverters = (id: number) =>
  useApiQuery(plantsApi.plantInverters, { params: { stationId: id }, query: { page: 1, size: 5 }, quiet: true }, slow);

/** The plant's weather station values (stationId is the plant id). */
export const useWeather = (id: number) =>
  useApiQuery(plantEnergyApi.plantWeatherRealtime, { params: { stationId: id }, quiet: true }, { ...slow, enabled: id > 0 });

/** The plant's weather stations and the station products the portal reads (the station dialog). */
export const useWeatherStations = (id: number, enabled: boolean) =>
  useApiQuery(
    plantEnergyApi.weatherStationInfo,
    { query: { plantId: id }, quiet: true },
    { enabled: enabled && id > 0, staleTime: 0 },
  );
export const useWeatherProducts = (enabled: boolean) =>
  useApiQuery(plantEnergyApi.weatherStationProducts, { quiet: true }, { enabled, staleTime: 5 * 60_000 });

export const useOneHourEvents = () => useApiQuery(plantEnergyApi.eventOneHour, { quiet: true }, slow);

export interface EventsFilter {
  state: 'open' | 'all';
  startDate?: string;
  endDate?: string;
  page: number;
}
export const useEvents = (id: number, filter: EventsFilter, enabled = true) =>
  useApiQuery(
    plantsApi.plantEvents,
    {
      params: { id },
      query: {
        page: filter.page,
        size: 5,
        ...(filter.state === 'open' ? { state: 'open' as const } : {}),
        ...(filter.startDate ? { startDate: filter.startDate } : {}),
        ...(filter.endDate ? { endDate: filter.endDate } : {}),
      },
      quiet: true,
    },
    { enabled: enabled && id > 0, placeholderData: keepPreviousData, ...slow },
  );
