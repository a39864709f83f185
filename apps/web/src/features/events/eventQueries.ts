/**
 * Server data of the events page: the list, the counts per level, one event, acknowledgement.
 * With the battery device type (and the batteries page granted), the list and counts come from
 * the battery events list (same rows; pack-level codes carry their pack).
 */
import { type DataOf, ErrorCode, eventsApi } from '@sunfleet/contracts';
import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { endpointKey, useApiMutation, useApiQuery } from '../../api/hooks.ts';
import { useGranted } from '../../components/Permission.tsx';
import { type Level, type LevelCounts, levels } from '../../lib/events.ts';
import { type EventCriteria, serverFilters } from './criteria.ts';

export type EventRow = DataOf<typeof eventsApi.listEvents>['list'][number];

const REFRESH_MS = 60_000;
/** An SN nobody can see answers 404: the page says so under the field instead of a toast. */
const SN_TOLERATE = [404] as const;

/** Whether the battery events list answers for these criteria (battery type, batteries page granted). */
function useBatteryList(c: EventCriteria): boolean {
  const granted = useGranted();
  return c.kind === 'battery' && granted('battery.list.view');
}

type ListInput = {
  query: ReturnType<typeof serverFilters> & { page: number; size: number };
  tolerate: typeof SN_TOLERATE;
  quiet?: boolean;
};

/** One page of events: from the general list, or from the battery list (without the type filter). */
function usePagedEvents(input: ListInput, battery: boolean, enabled: boolean) {
  const options = { placeholderData: keepPreviousData, refetchInterval: REFRESH_MS };
  const { kind: _kind, ...batteryQuery } = input.query;
  const general = useApiQuery(eventsApi.listEvents, input, { ...options, enabled: enabled && !battery });
  const batteries = useApiQuery(
    eventsApi.batteryEvents,
    { ...input, query: batteryQuery },
    { ...options, enabled: enabled && battery },
  );
  return battery ? batteries : general;
}

export function useEventList(c: EventCriteria, timezone: string, enabled: boolean) {
  const battery = useBatteryList(c);
  return usePagedEvents(
    { query: { ...serverFilters(c, timezone), page: c.page, size: c.size }, tolerate: SN_TOLERATE },
    battery,
    enabled,
  );
}

/** Events per level with the other filters (a one-row page of each level tells its total). */
export function useLevelCounts(c: EventCriteria, timezone: string, enabled: boolean) {
  const battery = useBatteryList(c);
  const base = serverFilters({ ...c, level: undefined }, timezone);
  const input = (level: Level) => ({ query: { ...base, level, page: 1, size: 1 }, tolerate: SN_TOLERATE, quiet: true });
  const fault = usePagedEvents(input('fault'), battery, enabled);
  const warning = usePagedEvents(input('warning'), battery, enabled);
  const info = usePagedEvents(input('info'), battery, enabled);
  const all = { fault, warning, info };
  const loading = levels.some((l) => all[l].isPending && enabled);
  const counts: LevelCounts | undefined = levels.every((l) => typeof all[l].data?.total === 'number')
    ? {
        fault: fault.data!.total,
        warning: warning.data!.total,
        info: info.data!.total,
        total: fault.data!.total + warning.data!.total + info.data!.total,
      }
    : undefined;
  return { counts, loading };
}

export function useEventDetail(id: number | null, initial: EventRow | undefined) {
  return useApiQuery(
    eventsApi.eventDetail,
    { params: { id: id ?? 0 }, tolerate: [ErrorCode.notFound] },
    { enabled: id !== null, placeholderData: initial },
  );
}

/** After an acknowledgement: the lists and counts show it too. */
export function useRefreshEvents() {
  const client = useQueryClient();
  return useCallback(
    (event?: EventRow) => {
      if (event)
        client.setQueryData(
          endpointKey(eventsApi.eventDetail, { params: { id: event.id }, tolerate: [ErrorCode.notFound] }),
          event,
        );
      const lists = Promise.all([
        client.invalidateQueries({ queryKey: endpointKey(eventsApi.listEvents) }),
        client.invalidateQueries({ queryKey: endpointKey(eventsApi.batteryEvents) }),
      ]);
      // Without the new state (someone else acknowledged it), the detail is asked for again.
      const detail = event ? undefined : client.invalidateQueries({ queryKey: endpointKey(eventsApi.eventDetail) });
      return Promise.all([lists, detail]).then(() => undefined);
    },
    [client],
  );
}

/** Acknowledge an event, with a note. */
export function useAckEvent() {
  return useApiMutation(eventsApi.ackEvent);
}
