/** Server data of the pages outside the portal's data: the app stores and the firmware change logs. */
import { loggersApi, type QueryOf, systemApi } from '@sunfleet/contracts';
import { useApiQuery } from '../../api/hooks.ts';

/** The configured app store links. */
export function useAppStores() {
  return useApiQuery(systemApi.appStores, {});
}

/** A page of the firmware change logs. */
export function useFirmwareChangeLogs(query: QueryOf<typeof loggersApi.firmwareChangeLogs>) {
  return useApiQuery(loggersApi.firmwareChangeLogs, { query });
}
