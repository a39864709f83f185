/** Server data of the firmware pages: the calls of each image type, and refreshing after a change. */
import { firmwareApi as api, type DataOf } from '@sunfleet/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { endpointKey } from '../../api/hooks.ts';

export type FirmwareType = api.FirmwareType;
export type FirmwareRow = DataOf<typeof api.inverterFirmwarePage>['list'][number];
export type ProductRow = DataOf<typeof api.product>;
export type InverterTypeRow = DataOf<typeof api.inverterTypes>[number];

/** The calls and the edit permission of one image type. */
export const firmwareCalls = {
  gateway: {
    list: api.gatewayFirmwarePage,
    add: api.addGatewayFirmware,
    check: api.checkGatewayFirmware,
    edit: { access: 'firmware.gateway.edit', writes: true },
  },
  inverter: {
    list: api.inverterFirmwarePage,
    add: api.saveInverterFirmware,
    check: api.checkInverterFirmware,
    edit: { access: 'firmware.inverter.edit', writes: true },
  },
} as const;

/** After a change: every firmware list, version list and product list loads again. */
export function useFirmwareRefresh() {
  const client = useQueryClient();
  return useCallback(
    () =>
      Promise.all(
        [
          api.gatewayFirmwarePage,
          api.inverterFirmwarePage,
          api.firmwareVersions,
          api.products,
          api.inverterProducts,
          api.inverterTypes,
          api.hardwareVersions,
          api.gatewaySoftware,
        ].map((ep) => client.invalidateQueries({ queryKey: endpointKey(ep) })),
      ),
    [client],
  );
}
