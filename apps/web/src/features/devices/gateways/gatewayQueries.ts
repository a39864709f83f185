/** Server data of the gateway pages: the list with its counts, one gateway now, its settings switches. */
import { commandsApi, devicesApi, type GatewaySettingName, type QueryOf } from '@sunfleet/contracts';
import { keepPreviousData } from '@tanstack/react-query';
import { call } from '../../../api/client.ts';
import { useApiQuery } from '../../../api/hooks.ts';
import { LIST_MS, live } from '../shared/deviceQueries.ts';

export function useGatewayCounts(query: QueryOf<typeof devicesApi.gatewayCount>) {
  return useApiQuery(devicesApi.gatewayCount, { query }, { refetchInterval: LIST_MS });
}

export function useGatewayList(query: QueryOf<typeof devicesApi.listGateways>) {
  return useApiQuery(devicesApi.listGateways, { query }, { placeholderData: keepPreviousData, refetchInterval: LIST_MS });
}

/** A gateway now (with its connection history), every `LIVE_MS`. */
export function useGateway(id: number) {
  return useApiQuery(devicesApi.getGateway, { params: { id } }, { ...live, enabled: id > 0 });
}

/** Switch one of a gateway's settings; the answer is the job that carries it. */
export function switchGatewaySetting(sn: string, name: GatewaySettingName, value: number) {
  return call(commandsApi.gatewaySettingSwitch, { params: { sn }, body: { name, value } });
}
