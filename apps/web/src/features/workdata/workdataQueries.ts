/** Server data of the operation-data page: a plant's devices, a device's parameters, samples, chart. */
import { devicesApi, type PermissionName, workdataApi } from '@sunfleet/contracts';
import { keepPreviousData } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useApiQuery } from '../../api/hooks.ts';
import { useGranted } from '../../components/Permission.tsx';
import type { DateRange } from '../../lib/dateRange.ts';

export type DeviceKind = 'inverter' | 'battery' | 'meter' | 'weather';
export interface DeviceOption {
  sn: string;
  kind: DeviceKind;
  alias: string | null;
}

const LIST = { staleTime: 60_000, placeholderData: keepPreviousData };
const PAGE = { page: 1, size: 100 } as const;

/**
 * The devices of a plant the caller may list: inverters, batteries, meters, weather stations,
 * each from its own list (and only with that list's permission).
 */
export function usePlantDevices(plantId: number | undefined) {
  const granted = useGranted();
  const on = (permission: PermissionName) => plantId !== undefined && granted(permission);
  const input = { query: { plantId: plantId ?? 0, ...PAGE }, quiet: true };
  const inverters = useApiQuery(devicesApi.listInverters, input, { ...LIST, enabled: on('inverter.view') });
  const batteries = useApiQuery(devicesApi.listBatteries, input, { ...LIST, enabled: on('battery.list.view') });
  const meters = useApiQuery(devicesApi.listMeters, input, { ...LIST, enabled: on('meter.view') });
  const weather = useApiQuery(devicesApi.listWeatherStations, input, { ...LIST, enabled: on('weather.view') });
  const all = [inverters, batteries, meters, weather];
  const loading = all.some((q) => q.isFetching);
  const devices = useMemo(() => {
    const out: DeviceOption[] = [];
    const add = (kind: DeviceKind, list: ReadonlyArray<{ sn: string; alias: string | null }> | undefined) => {
      for (const d of list ?? []) out.push({ sn: d.sn, kind, alias: d.alias });
    };
    if (plantId === undefined) return out;
    add('inverter', inverters.data?.list);
    add('battery', batteries.data?.list);
    add('meter', meters.data?.list);
    add('weather', weather.data?.list);
    return out;
  }, [plantId, inverters.data, batteries.data, meters.data, weather.data]);
  return { devices, loading };
}

export function useWorkdataParams(sn: string | undefined) {
  return useApiQuery(workdataApi.workdataParams, { query: { sn: sn ?? '' } }, { enabled: Boolean(sn), staleTime: 5 * 60_000 });
}

export interface SampleQuery {
  sn: string;
  range: DateRange;
  params: string[];
  after: number | undefined;
  size: number;
}

export function useSamples(q: SampleQuery | null) {
  return useApiQuery(
    workdataApi.workdataDynamic,
    {
      query: {
        sn: q?.sn ?? '',
        startDate: q?.range.start ?? '',
        endDate: q?.range.end ?? '',
        params: q?.params ?? [],
        size: q?.size ?? 200,
        ...(q?.after !== undefined ? { after: q.after } : {}),
      },
    },
    { enabled: q !== null, placeholderData: keepPreviousData },
  );
}

export function useChart(q: { sn: string; range: DateRange; params: string[] } | null) {
  return useApiQuery(
    workdataApi.workdataChart,
    { query: { sn: q?.sn ?? '', startDate: q?.range.start ?? '', endDate: q?.range.end ?? '', params: q?.params ?? [] } },
    { enabled: q !== null && q.params.length > 0, placeholderData: keepPreviousData },
  );
}

export interface EventsQuery {
  sn: string;
  kind: DeviceKind;
  range: DateRange;
  params: string[];
  page: number;
  size: number;
}

/**
 * A device's events in the period, each with its reading at the start: the battery list for a
 * battery (pack-level events carry their pack), the general one for the other kinds.
 */
export function useWorkdataEvents(q: EventsQuery) {
  const battery = q.kind === 'battery';
  const input = {
    query: {
      sn: q.sn,
      startDate: q.range.start,
      endDate: q.range.end,
      params: q.params,
      page: q.page,
      size: q.size,
    },
  };
  const options = { placeholderData: keepPreviousData };
  const general = useApiQuery(workdataApi.workdataEvents, input, { ...options, enabled: !battery });
  const batteries = useApiQuery(workdataApi.workdataBatteryEvents, input, { ...options, enabled: battery });
  return battery ? batteries : general;
}
