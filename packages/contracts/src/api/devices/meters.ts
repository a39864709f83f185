/** Meters: list, realtime per phase, day chart and energy bars. */
import Type from 'typebox';
import { endpoint, Paged, PageQuery } from '../../endpoint.ts';
import { limits } from '../../limits.ts';
import { Instant, Nothing, Nullable, SnParams } from '../../schemas.ts';
import {
  ActiveFault,
  AliasInput,
  AliasResult,
  DayChartWithEnergy,
  DeviceCounts,
  DeviceStatus,
  EnergyBars,
  FieldValue,
  GatewayRef,
  Phase,
  PlantRef,
} from './common.ts';
import { DateQuery, deviceFilters, deviceListItem, ListOrder, Num, Sort, W, Wh } from './schemas.ts';

export const meterSorts = ['sn', 'alias', 'createAt', 'power', 'status', 'lastUpdate'] as const;

export const MeterListItem = deviceListItem({
  power: W('W, + import / − export'),
  importToday: Wh('Wh imported on the plant-local today'),
  exportToday: Wh('Wh exported on the plant-local today'),
  importTotal: Nullable(Wh('Wh, the import counter')),
  exportTotal: Nullable(Wh('Wh, the export counter')),
  master: Type.Boolean({ description: 'the plant’s master meter (meter/:sn/master)' }),
});

export const listMeters = endpoint({
  method: 'GET',
  path: '/api/v1/meters',
  access: 'meter.view',
  summary: 'The meters the caller can see: filter by plant, gateway, status, SN or alias; sorted, paged',
  query: Type.Object({
    ...PageQuery,
    ...deviceFilters,
    status: Type.Optional(DeviceStatus),
    sort: Type.Optional(Sort(meterSorts, 'sn')),
    order: Type.Optional(ListOrder),
  }),
  data: Paged(MeterListItem),
});

export const meterCount = endpoint({
  method: 'GET',
  path: '/api/v1/meter/status/count',
  access: 'meter.view',
  summary: 'The visible meters per status (with the list’s other filters)',
  query: Type.Object(deviceFilters),
  data: DeviceCounts,
});

export const MeterRealtime = Type.Object({
  id: Type.Integer(),
  sn: Type.String(),
  alias: Nullable(Type.String()),
  status: DeviceStatus,
  plant: Nullable(PlantRef),
  gateway: GatewayRef,
  protocol: Type.Object({ id: Type.String(), name: Type.String() }),
  master: Type.Boolean(),
  at: Nullable(Instant),
  power: W('W, + import / − export'),
  reactivePower: Num('var'),
  apparentPower: Num('VA'),
  powerFactor: Num('−1…1'),
  frequency: Num('Hz'),
  phases: Type.Array(Phase),
  importToday: Wh(),
  exportToday: Wh(),
  importTotal: Nullable(Wh()),
  exportTotal: Nullable(Wh()),
  faults: Type.Array(ActiveFault),
  fields: Type.Array(FieldValue),
  canEdit: Type.Boolean({ description: 'alias (with meter.alias)' }),
  canDelete: Type.Boolean({ description: 'with meter.delete' }),
  createdAt: Instant,
});

export const meterRealtime = endpoint({
  method: 'GET',
  path: '/api/v1/meter/:sn/realtime',
  access: 'meter.view',
  summary: 'A meter now: power, voltage, current and power per phase, frequency, import and export today and in total',
  params: SnParams,
  data: MeterRealtime,
  tolerate: [404],
});

export const meterDay = endpoint({
  method: 'GET',
  path: '/api/v1/meter/:sn/day',
  access: 'meter.view',
  summary: 'A meter’s day curve (power, + import / − export) with the day’s import and export',
  params: SnParams,
  query: DateQuery,
  data: DayChartWithEnergy,
  tolerate: [404],
});
const meterBars = (period: 'month' | 'year' | 'total', what: string) =>
  endpoint({
    method: 'GET',
    path: `/api/v1/meter/:sn/${period}`,
    access: 'meter.view',
    summary: `A meter’s import and export bars: ${what}`,
    params: SnParams,
    query: DateQuery,
    data: EnergyBars,
    tolerate: [404],
  });
export const meterMonth = meterBars('month', 'the days of the month');
export const meterYear = meterBars('year', 'the months of the year');
export const meterTotal = meterBars('total', 'every year');

export const meterAlias = endpoint({
  method: 'POST',
  path: '/api/v1/meter/:sn/alias',
  access: 'meter.alias',
  writes: true,
  summary: `Rename a meter (alias ≤ ${limits.deviceAliasBytes} bytes; empty clears it); needs edit rights on its plant`,
  params: SnParams,
  body: AliasInput,
  data: AliasResult,
  tolerate: [4, 404],
});

export const deleteMeter = endpoint({
  method: 'POST',
  path: '/api/v1/meter/:sn/delete',
  access: 'meter.delete',
  writes: true,
  summary: 'Remove a meter from the lists (history stays; it comes back if it sends data again); needs edit rights on its plant',
  params: SnParams,
  data: Nothing,
  tolerate: [404],
});
