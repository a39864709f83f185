/** Meters: list, realtime per phase, day chart and energy bars. */
import Type from 'typebox';
import { endpoint, Paged } from '../../endpoint.ts';
import { ErrorCode } from '../../errors.ts';
import { Instant, Nullable, SnParams } from '../../schemas.ts';
import { ActiveFault, DayChartWithEnergy, DeviceCounts, EnergyBars, FieldValue, Phase } from './common.ts';
import {
  aliasAndDelete,
  DateQuery,
  deviceFilters,
  deviceIdentity,
  deviceListItem,
  deviceListQuery,
  Num,
  W,
  Wh,
} from './schemas.ts';

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
  query: deviceListQuery(meterSorts),
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
  ...deviceIdentity(),
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
  tolerate: [ErrorCode.notFound],
});

export const meterDay = endpoint({
  method: 'GET',
  path: '/api/v1/meter/:sn/day',
  access: 'meter.view',
  summary: 'A meter’s day curve (power, + import / − export) with the day’s import and export',
  params: SnParams,
  query: DateQuery,
  data: DayChartWithEnergy,
  tolerate: [ErrorCode.notFound],
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
    tolerate: [ErrorCode.notFound],
  });
export const meterMonth = meterBars('month', 'the days of the month');
export const meterYear = meterBars('year', 'the months of the year');
export const meterTotal = meterBars('total', 'every year');

export const { alias: meterAlias, remove: deleteMeter } = aliasAndDelete('meter', 'a meter', 404);
