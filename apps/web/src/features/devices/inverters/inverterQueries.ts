/**
 * Server data of the inverter pages: the list with its counts, one inverter now, its tabs (flow,
 * inputs and outputs, a group of its values, generation, parameters and their saved profiles),
 * day curves and bars, and the power commands.
 */
import { commandsApi, devicesApi, ErrorCode, type ParamsOf, plantEnergyApi, type QueryOf } from '@sunfleet/contracts';
import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../api/client.ts';
import { endpointKey, useApiQuery } from '../../../api/hooks.ts';
import { dayOptions, groupBars, inverterBars, LIST_MS, live } from '../shared/deviceQueries.ts';
import type { ProfileInput } from './paramProfiles.ts';

type BarsPeriod = keyof typeof inverterBars;
/** A day's options: shown or not, and whether it is today (which keeps refreshing). */
interface DayWhen {
  enabled?: boolean;
  today: boolean;
}
const dayQuery = ({ enabled = true, today }: DayWhen) => ({ enabled, placeholderData: keepPreviousData, ...dayOptions(today) });
const barsQuery = (enabled: boolean) => ({ enabled, placeholderData: keepPreviousData, staleTime: 60_000 });

export function useInverterCounts(query: QueryOf<typeof devicesApi.inverterCount>) {
  return useApiQuery(devicesApi.inverterCount, { query }, { refetchInterval: LIST_MS });
}

export function useInverterList(query: QueryOf<typeof devicesApi.listInverters>) {
  return useApiQuery(devicesApi.listInverters, { query }, { placeholderData: keepPreviousData, refetchInterval: LIST_MS });
}

/** An inverter now, every `LIVE_MS`. */
export function useInverter(sn: string, enabled: boolean) {
  return useApiQuery(devicesApi.getInverter, { params: { sn } }, { ...live, enabled });
}

export function useInverterFlow(sn: string) {
  return useApiQuery(plantEnergyApi.inverterFlow, { params: { sn }, quiet: true }, live);
}

export function useInverterParams(sn: string) {
  return useApiQuery(devicesApi.inverterParams, { query: { sn } }, { staleTime: 10 * 60_000 });
}

/** The day curve of the chosen parameters (the server's default ones when none is chosen). */
export function useInverterDay(sn: string, date: string, params: string[], when: DayWhen) {
  return useApiQuery(
    devicesApi.inverterDay,
    { params: { sn }, query: { date, ...(params.length ? { params } : {}) }, quiet: true },
    dayQuery(when),
  );
}

export function useInverterBars(sn: string, period: BarsPeriod, date: string, enabled: boolean) {
  return useApiQuery(inverterBars[period], { params: { sn }, query: { date }, quiet: true }, barsQuery(enabled));
}

/** Generation bars of a period; a day's keeps refreshing while it is today. */
export function useInverterGeneration(sn: string, period: 'day' | BarsPeriod, date: string, today: boolean) {
  return useApiQuery(
    devicesApi.inverterGen,
    { params: { sn }, query: { period, date }, quiet: true },
    { placeholderData: keepPreviousData, ...(period === 'day' ? dayOptions(today) : { staleTime: 60_000 }) },
  );
}

/** A micro-inverter's energy per panel on a day. */
export function useInverterPanels(sn: string, date: string, today: boolean) {
  return useApiQuery(devicesApi.inverterGenMi, { params: { sn }, query: { date }, quiet: true }, dayQuery({ today }));
}

/** Inputs, outputs and the PV I-V curve now (the curve every minute). */
export function useInverterRealtime(sn: string) {
  const params = { sn };
  const input = useApiQuery(devicesApi.inverterInputRealtime, { params, quiet: true }, live);
  const output = useApiQuery(devicesApi.inverterOutputRealtime, { params, quiet: true }, live);
  const pvIv = useApiQuery(devicesApi.inverterPvIv, { params, quiet: true }, { ...live, refetchInterval: 60_000 });
  return { input, output, pvIv };
}

/** The inputs' or the outputs' day curve. */
export function useInverterSideDay(sn: string, side: 'input' | 'output', date: string, today: boolean) {
  const endpoint = side === 'input' ? devicesApi.inverterInputDay : devicesApi.inverterOutputDay;
  return useApiQuery(endpoint, { params: { sn }, query: { date }, quiet: true }, dayQuery({ today }));
}

/** A group of an inverter's values now, its day curve and its bars. */
export function useInverterGroup(
  params: ParamsOf<typeof devicesApi.inverterGroupRealtime>,
  period: 'day' | BarsPeriod,
  date: string,
  today: boolean,
) {
  const isDay = period === 'day';
  const now = useApiQuery(devicesApi.inverterGroupRealtime, { params, quiet: true }, live);
  const day = useApiQuery(
    devicesApi.inverterGroupDay,
    { params, query: { date }, quiet: true },
    dayQuery({ enabled: isDay, today }),
  );
  const bars = useApiQuery(groupBars[isDay ? 'month' : period], { params, query: { date }, quiet: true }, barsQuery(!isDay));
  return { now, day, bars };
}

export function useParamProfiles() {
  return useApiQuery(devicesApi.inverterParamProfiles, {}, { staleTime: 60_000 });
}

/** Save the whole list (the endpoint replaces it) and keep the answer as the cached list. */
export function useSaveProfiles() {
  const client = useQueryClient();
  return async (profiles: ProfileInput[]) => {
    const saved = await call(devicesApi.saveInverterParamProfiles, { body: { profiles }, tolerate: [ErrorCode.validation] });
    client.setQueryData(endpointKey(devicesApi.inverterParamProfiles, {}), saved);
    return saved;
  };
}

/** Boot (`on`) or shut down an inverter; the answer is the job that carries it. */
export function switchInverterPower(sn: string, on: boolean) {
  return call(on ? commandsApi.inverterBoot : commandsApi.inverterShutdown, { params: { sn } });
}
