/** Gateways: list with counts, detail with devices and connection history. */
import Type from 'typebox';
import { endpoint, Paged, PageQuery } from '../../endpoint.ts';
import { ErrorCode } from '../../errors.ts';
import { Id, IdParams, Instant, Nullable } from '../../schemas.ts';
import { CompanyRef, DeviceState, DeviceStatus, PlantRef } from './common.ts';
import { deviceFilters, ListOrder, Sort } from './schemas.ts';

/** The gateway detail's connection history covers this many days, at most this many periods. */
export const GATEWAY_HISTORY_DAYS = 30;
export const GATEWAY_HISTORY_MAX = 100;

export const gatewaySorts = ['sn', 'createAt', 'lastOnline', 'rssi', 'status'] as const;
export const GatewayState = Type.Union([Type.Literal('online'), Type.Literal('offline')]);

export const GatewayListItem = Type.Object({
  id: Type.Integer(),
  sn: Type.String(),
  alias: Nullable(Type.String()),
  plant: Nullable(PlantRef),
  company: Nullable(
    Type.Object(
      { ...CompanyRef.properties },
      {
        description:
          'the customer or agent: the company the gateway was imported for, else the plant’s company or the plant owner’s agent',
      },
    ),
  ),
  swVersion: Nullable(Type.String()),
  hwVersion: Nullable(Type.String()),
  commType: Nullable(Type.String({ description: 'wifi, ethernet, 4g, rs485' })),
  rssi: Nullable(Type.Integer({ description: 'dBm' })),
  signalBars: Nullable(Type.Integer({ minimum: 0, maximum: 4, description: 'see signalBars()' })),
  status: GatewayState,
  lastOnlineAt: Nullable(Instant),
  lastSeenAt: Nullable(Instant),
  uploadInterval: Type.Integer({ description: 's' }),
  protocol: Nullable(Type.String({ description: 'the protocol id it polls its devices with (set in stock), null: none set' })),
  protocols: Type.Array(Type.String(), { description: 'protocol ids of the devices behind it' }),
  devices: Type.Integer({ description: 'devices behind it' }),
  createdAt: Instant,
  canEdit: Type.Boolean({
    description: 'operate it: bind, unbind, restart, upgrade, each with its button permission (not a visitor, not read-only)',
  }),
});

export const GatewayCounts = Type.Object({
  total: Type.Integer(),
  online: Type.Integer(),
  offline: Type.Integer(),
  unbound: Type.Integer({ description: 'not bound to a plant' }),
});

export const DeviceKind = Type.Union([
  Type.Literal('inverter'),
  Type.Literal('battery'),
  Type.Literal('meter'),
  Type.Literal('weather'),
]);
export const GatewayDevice = Type.Object({
  id: Type.Integer(),
  sn: Type.String(),
  kind: DeviceKind,
  alias: Nullable(Type.String()),
  protocol: Type.String(),
  status: DeviceStatus,
  state: DeviceState,
  lastUpdate: Nullable(Instant),
});
/** One online or offline stretch; `to` null: still so. Newest first. */
export const ConnectionPeriod = Type.Object({
  state: GatewayState,
  from: Instant,
  to: Nullable(Instant),
  durationS: Type.Integer({ description: 's, up to now for an open period' }),
});
export const GatewayDetail = Type.Object({
  ...GatewayListItem.properties,
  deviceList: Type.Array(GatewayDevice),
  history: Type.Array(ConnectionPeriod, {
    description: `connection history of the last ${GATEWAY_HISTORY_DAYS} days, newest first, at most ${GATEWAY_HISTORY_MAX} periods`,
  }),
  historySource: Type.Union([Type.Literal('sessions'), Type.Literal('events')], {
    description: 'sessions: connect/disconnect records; events: offline periods seen by the offline detection',
  }),
});

/** The gateway list's filters (the list, and the system stock's download). */
export const gatewayFilters = {
  plantId: Type.Optional(Id),
  status: Type.Optional(GatewayState),
  binding: Type.Optional(Type.Union([Type.Literal('bound'), Type.Literal('unbound')])),
  commType: Type.Optional(Type.String({ maxLength: 16 })),
  keyword: deviceFilters.keyword,
  customerId: Type.Optional(Type.Integer({ minimum: 1, description: 'the customer or agent company it is assigned to' })),
  protocol: Type.Optional(Type.String({ maxLength: 64, description: 'its protocol id' })),
};

export const listGateways = endpoint({
  method: 'GET',
  path: '/api/v1/gateways',
  // The devices page's list, and the system administrators' stock list.
  access: ['gateway.view', 'sys.gateway.view'],
  summary: 'The gateways the caller can see (of visible plants; unbound ones of the caller’s company): filtered, sorted, paged',
  query: Type.Object({
    ...PageQuery,
    ...gatewayFilters,
    sort: Type.Optional(Sort(gatewaySorts, 'sn')),
    order: Type.Optional(ListOrder),
  }),
  data: Paged(GatewayListItem),
});

export const gatewayCount = endpoint({
  method: 'GET',
  path: '/api/v1/gateways/count',
  access: 'gateway.view',
  summary: 'The visible gateways online, offline and unbound (with the list’s plant and keyword filters)',
  query: Type.Object({ plantId: Type.Optional(Id), keyword: deviceFilters.keyword }),
  data: GatewayCounts,
});

export const getGateway = endpoint({
  method: 'GET',
  path: '/api/v1/gateway/:id',
  access: 'gateway.view',
  summary: 'One gateway with the devices behind it and its connection history (online and offline periods)',
  params: IdParams,
  data: GatewayDetail,
  tolerate: [ErrorCode.gatewayMissing],
});
