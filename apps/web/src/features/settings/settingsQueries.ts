/**
 * Server data of the remote-settings screens: a device's supported groups, reading a group from
 * the device, writing it, a job and a batch polled until they end, the device's job history,
 * revert and the batch's start and cancel. Every call through its contract.
 */
import { devicesApi, settingsApi } from '@sunfleet/contracts';
import { keepPreviousData, useQueries, useQueryClient } from '@tanstack/react-query';
import { call } from '../../api/client.ts';
import { endpointKey, useApiMutation, useApiQuery } from '../../api/hooks.ts';
import { batchPollInterval, jobPollInterval, type SettingRead, type SettingSupport } from './form.ts';

export function useInverter(sn: string | undefined) {
  return useApiQuery(devicesApi.getInverter, { params: { sn: sn ?? '' } }, { enabled: Boolean(sn), staleTime: 60_000 });
}

/** A plant's inverters to pick from (the first 100 by SN). */
export function usePlantInverters(plantId: number | undefined) {
  return useApiQuery(
    devicesApi.listInverters,
    { query: { plantId: plantId ?? 0, page: 1, size: 100, sort: 'sn', order: 1 }, quiet: true },
    { enabled: plantId !== undefined, staleTime: 60_000, placeholderData: keepPreviousData },
  );
}

export function useSupport(sn: string | undefined) {
  return useApiQuery(settingsApi.settingSupport, { params: { sn: sn ?? '' } }, { enabled: Boolean(sn), staleTime: 5 * 60_000 });
}

/** The support of each selected device (a batch): all of them, once every answer is in. */
export function useSupports(sns: readonly string[]) {
  return useQueries({
    queries: sns.map((sn) => {
      const input = { params: { sn } };
      return {
        queryKey: endpointKey(settingsApi.settingSupport, input),
        queryFn: () => call(settingsApi.settingSupport, input),
        staleTime: 5 * 60_000,
      };
    }),
    combine: (results) => ({
      supports: results.every((r) => r.data) ? results.map((r) => r.data as SettingSupport) : null,
      pending: results.some((r) => r.isPending),
      error: results.find((r) => r.error)?.error ?? null,
    }),
  });
}

/**
 * A group as the device holds it now. Asked once when the tab opens and again on "Read"
 * (never on its own: each read is a round trip to the device).
 */
export function useGroupRead(family: string, group: string, sn: string) {
  const ep = settingsApi.settingEndpoints(family, group)!.read;
  return useApiQuery(
    ep,
    { params: { sn } },
    { staleTime: Number.POSITIVE_INFINITY, refetchOnMount: false, refetchOnReconnect: false, gcTime: 60_000 },
  );
}

export function useGroupWrite(family: string, group: string) {
  return useApiMutation(settingsApi.settingEndpoints(family, group)!.write);
}

/** A job, asked again every second until it is final. */
export function useJob(id: string | null) {
  return useApiQuery(
    settingsApi.settingJob,
    { params: { id: id ?? '' } },
    { enabled: id !== null, refetchInterval: (q) => jobPollInterval(q.state.data), staleTime: 0 },
  );
}

export function useBatch(id: string | null) {
  return useApiQuery(
    settingsApi.settingBatchGet,
    { params: { id: id ?? '' } },
    { enabled: id !== null, refetchInterval: (q) => batchPollInterval(q.state.data), staleTime: 0 },
  );
}

export const useStartBatch = () => useApiMutation(settingsApi.settingBatch);
export const useCancelBatch = () => useApiMutation(settingsApi.settingBatchCancel);
export const useRevert = () => useApiMutation(settingsApi.revertSettingJob);

export function useJobHistory(sn: string, page: number, size: number) {
  return useApiQuery(
    settingsApi.settingJobs,
    { params: { sn }, query: { page, size } },
    { placeholderData: keepPreviousData, staleTime: 0 },
  );
}

/** After a write or a revert: the device's job history is stale. */
export function useHistoryChanged() {
  const client = useQueryClient();
  return () => void client.invalidateQueries({ queryKey: [settingsApi.settingJobs.method, settingsApi.settingJobs.path] });
}

/** Put the values a job read back into the group's read, so the form shows what the device now holds. */
export function usePatchRead() {
  const client = useQueryClient();
  return (family: string, group: string, sn: string, after: Record<string, unknown>) => {
    const key = endpointKey(settingsApi.settingEndpoints(family, group)!.read, { params: { sn } });
    client.setQueryData<SettingRead>(key, (read) =>
      read
        ? {
            ...read,
            groups: read.groups.map((g) =>
              g.group === group
                ? { ...g, fields: g.fields.map((f) => (f.key in after ? { ...f, value: after[f.key] as typeof f.value } : f)) }
                : g,
            ),
          }
        : read,
    );
  };
}
