/** Batteries: list, packs and cells, information, realtime, day chart, delete. */
import Type from 'typebox';
import { endpoint, Paged } from '../../endpoint.ts';
import { ErrorCode } from '../../errors.ts';
import { IdParams, Instant, Nothing, Nullable, SnParams } from '../../schemas.ts';
import { ActiveFault, DayChart, DeviceCounts, FieldValue } from './common.ts';
import { DateQuery, deviceFilters, deviceIdentity, deviceListItem, deviceListQuery, Num, W } from './schemas.ts';

export const batterySorts = ['sn', 'alias', 'createAt', 'soc', 'soh', 'power', 'status', 'lastUpdate'] as const;

export const BatteryListItem = deviceListItem({
  soc: Num('%'),
  soh: Num('%'),
  power: W('W, + discharge / − charge'),
  voltage: Num('V'),
  current: Num('A, + discharge'),
  packs: Type.Integer({ description: 'packs: the master’s own and its slaves' }),
});

export const listBatteries = endpoint({
  method: 'GET',
  path: '/api/v1/batteries',
  access: 'battery.list.view',
  summary: 'The battery systems (masters) the caller can see: filter by plant, gateway, status, SN or alias; sorted, paged',
  query: deviceListQuery(batterySorts),
  data: Paged(BatteryListItem),
});

export const batteryCount = endpoint({
  method: 'GET',
  path: '/api/v1/batteries/count',
  access: 'battery.list.view',
  summary: 'The visible batteries per status (with the list’s other filters)',
  query: Type.Object(deviceFilters),
  data: DeviceCounts,
});

export const BatteryPack = Type.Object({
  index: Type.Integer({ description: '1 = the master’s own pack, 2… slaves' }),
  master: Type.Boolean(),
  sn: Nullable(Type.String()),
  soc: Num('%'),
  soh: Num('%'),
  voltage: Num('V'),
  current: Num('A'),
  cellVoltageMin: Num('V'),
  cellVoltageMax: Num('V'),
  cellTemperatureMin: Num('°C'),
  cellTemperatureMax: Num('°C'),
  cycleCount: Nullable(Type.Integer()),
  faults: Type.Array(ActiveFault),
});

export const batterySlaves = endpoint({
  method: 'GET',
  path: '/api/v1/batteries/:id/slave',
  access: 'battery.list.view',
  summary: 'The slave packs behind a master battery (pack 2 onwards), with their latest values',
  params: IdParams,
  data: Type.Array(BatteryPack),
  tolerate: [ErrorCode.notFound],
});

export const BatteryInfo = Type.Object({
  ...deviceIdentity(),
  packs: Type.Integer(),
  cellsPerPack: Nullable(Type.Integer()),
  fullCapacity: Num('Ah'),
  info: Type.Array(FieldValue),
  canDelete: Type.Boolean({ description: 'with battery.delete' }),
  lastUpdate: Nullable(Instant),
  createdAt: Instant,
});

export const batteryInfo = endpoint({
  method: 'GET',
  path: '/api/v1/battery/:sn/info',
  access: 'battery.list.view',
  summary: 'A battery system’s information: identity, firmware, packs, cells per pack, capacity',
  params: SnParams,
  data: BatteryInfo,
  tolerate: [ErrorCode.notFound],
});

/** One cell, where the protocol reports cells one by one. */
export const BatteryCell = Type.Object({
  pack: Type.Integer(),
  cell: Type.Integer(),
  voltage: Num('V'),
  temperature: Num('°C'),
});
export const BatteryRealtime = Type.Object({
  at: Nullable(Instant),
  soc: Num('%'),
  soh: Num('%'),
  voltage: Num('V'),
  current: Num('A, + discharge'),
  power: W('W, + discharge / − charge'),
  state: Nullable(Type.String({ description: 'BMS state label in the request language' })),
  remainingCapacity: Num('Ah'),
  fullCapacity: Num('Ah'),
  temperatureMax: Num('°C, hottest cell'),
  packs: Type.Array(BatteryPack, {
    description: 'master first: the heat map’s rows (cell voltage min/max, cell temperature min/max of each pack as its columns)',
  }),
  cells: Type.Array(BatteryCell, { description: 'per-cell values where the protocol has them (empty otherwise)' }),
  faults: Type.Array(ActiveFault),
  fields: Type.Array(FieldValue, { description: 'every other system value (limits, state …)' }),
});

export const batteryRealtime = endpoint({
  method: 'GET',
  path: '/api/v1/battery/:sn/realtime',
  access: 'battery.list.view',
  summary: 'A battery now: SOC, SOH, voltage, current, power, each pack’s cells (voltages and temperatures, for the heat map)',
  params: SnParams,
  data: BatteryRealtime,
  tolerate: [ErrorCode.notFound],
});

export const batteryDay = endpoint({
  method: 'GET',
  path: '/api/v1/battery/:sn/day',
  access: 'battery.list.view',
  summary: 'A battery’s day curves: power, SOC, SOH, voltage, current, hottest cell',
  params: SnParams,
  query: DateQuery,
  data: DayChart,
  tolerate: [ErrorCode.notFound],
});

export const deleteBattery = endpoint({
  method: 'POST',
  path: '/api/v1/battery/:id/delete',
  access: 'battery.delete',
  writes: true,
  summary:
    'Remove a battery from the lists (history stays; it comes back if it sends data again); needs edit rights on its plant',
  params: IdParams,
  data: Nothing,
  tolerate: [ErrorCode.notFound],
});
