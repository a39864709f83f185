/** Binding a gateway to a plant with the claim key on its label, unbinding it, checking a device. */
import Type from 'typebox';
import { endpoint } from '../../endpoint.ts';
import { ErrorCode } from '../../errors.ts';
import { Nothing, Sn } from '../../schemas.ts';
import { GatewayClaim } from './model.ts';
import { PlantIdParams, StationIdParams } from './params.ts';

export const bindGateway = endpoint({
  method: 'POST',
  path: '/api/v1/plant/:id/gateway',
  access: 'station.gateway',
  writes: true,
  summary: 'Bind a gateway by SN and key (its devices join the plant); to replace one, then unbind the old',
  params: PlantIdParams,
  body: GatewayClaim,
  data: Type.Object({ sn: Type.String() }),
  tolerate: [ErrorCode.gatewayUsed, ErrorCode.gatewayMissing, ErrorCode.gatewayCredentials],
});

export const unbindGateway = endpoint({
  method: 'POST',
  path: '/api/v1/gateway/:sn/unbind',
  access: 'station.gateway',
  writes: true,
  summary: 'Unbind a gateway from its plant (its devices leave the plant; history stays with the plant)',
  params: Type.Object({ sn: Sn }),
  data: Nothing,
  tolerate: [ErrorCode.gatewayMissing],
});

export const checkDevice = endpoint({
  method: 'GET',
  path: '/api/v1/plant/:stationId/check/device',
  access: 'station.view',
  summary: 'What is attached to the plant (shown before deleting it or replacing its gateway)',
  params: StationIdParams,
  data: Type.Object({
    hasDevices: Type.Boolean(),
    gateways: Type.Integer(),
    inverters: Type.Integer(),
    batteries: Type.Integer(),
    meters: Type.Integer(),
    weather: Type.Integer(),
  }),
});
