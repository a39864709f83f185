/** The energy-programme area's server data. */
import { demandResponseApi as api, type DataOf } from '@sunfleet/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { endpointKey, useApiMutation, useApiQuery } from '../../api/hooks.ts';

export type Programme = DataOf<typeof api.listPrograms>['programs'][number];
export type EnrollmentRow = DataOf<typeof api.listEnrollments>['list'][number];
export type Enrollment = DataOf<typeof api.getEnrollment>;
export type EventRow = DataOf<typeof api.listEvents>['list'][number];
export type EventDetail = DataOf<typeof api.getEvent>;
export type StationDevice = DataOf<typeof api.stationMasterDevice>[number];

export const usePrograms = () => useApiQuery(api.listPrograms, {});
export const useEnrollments = (page: number, size: number) => useApiQuery(api.listEnrollments, { query: { page, size } });
export const useEnrollment = (id: number | null) =>
  useApiQuery(api.getEnrollment, { params: { id: id ?? 0 } }, { enabled: id !== null });
export const useStations = (userId: number | null) =>
  useApiQuery(api.userStations, { params: { id: userId ?? 0 } }, { enabled: userId !== null });
export const useStationDevices = (stationId: number | null) =>
  useApiQuery(api.stationMasterDevice, { params: { stationId: stationId ?? 0 } }, { enabled: stationId !== null });
export const useEvents = (page: number, size: number, state: EventRow['state'] | undefined) =>
  useApiQuery(api.listEvents, { query: { page, size, ...(state ? { state } : {}) } });
/** An event that is pending or active is read again every 5 s: its commands and their answers come in. */
export const useEvent = (id: number | null) =>
  useApiQuery(
    api.getEvent,
    { params: { id: id ?? 0 } },
    {
      enabled: id !== null,
      refetchInterval: (q) =>
        q.state.data && (q.state.data.state === 'active' || q.state.data.state === 'pending') ? 5000 : false,
    },
  );

/** After a change: the lists and details read again. */
export function useRefresh() {
  const client = useQueryClient();
  return () =>
    Promise.all(
      [api.listEnrollments, api.getEnrollment, api.listEvents, api.getEvent, api.stationMasterDevice].map((ep) =>
        client.invalidateQueries({ queryKey: endpointKey(ep) }),
      ),
    );
}

export const useEnroll = () => useApiMutation(api.enroll);
export const useUnenroll = () => useApiMutation(api.unenroll);
export const useAddDevices = () => useApiMutation(api.addDevices);
export const useRemoveDevice = () => useApiMutation(api.removeDevice);
export const useOptOut = () => useApiMutation(api.cancelEvent);
