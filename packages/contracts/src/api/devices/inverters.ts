/** Inverters: list, alias and delete, detail, realtime input and output, I-V points, day charts, energy and generation bars, the grid/meter/battery/EPS/load groups. */
import Type from 'typebox';
import { endpoint, Paged } from '../../endpoint.ts';
import { ErrorCode } from '../../errors.ts';
import { limits } from '../../limits.ts';
import { Day, Instant, Literals, Nullable, Sn, SnParams } from '../../schemas.ts';
import {
  ActiveFault,
  DayChart,
  DayChartWithEnergy,
  DeviceCounts,
  EnergyBars,
  EnergyPeriod,
  FieldValue,
  GatewayRef,
  Phase,
} from './common.ts';
import { GatewayState } from './gateways.ts';
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

/** Inverter type names (`inverterTypeKey`); '--' is an inverter without a type register. */
export const inverterTypeKeys = [
  'sellingFirst',
  'singlePhase',
  'micro',
  'threePhaseHighVoltage',
  'singlePhaseHighVoltage',
  'threePhaseLowVoltage',
  'singlePhaseOther',
  'threePhase',
  '--',
] as const;
export const InverterTypeKey = Literals(inverterTypeKeys);

export const inverterSorts = ['sn', 'alias', 'createAt', 'ratedPower', 'power', 'todayEnergy', 'status', 'lastUpdate'] as const;

export const InverterListItem = deviceListItem({
  deviceType: Nullable(Type.Integer({ description: 'type register value' })),
  typeKey: InverterTypeKey,
  ratedPower: W(),
  power: W('W now (0 when offline)'),
  todayEnergy: Wh('Wh generated on the plant-local today'),
  totalEnergy: Nullable(Wh('Wh, the lifetime generation counter')),
});

const inverterListFilters = {
  ...deviceFilters,
  type: Type.Optional(InverterTypeKey),
};

export const listInverters = endpoint({
  method: 'GET',
  path: '/api/v1/inverters',
  access: 'inverter.view',
  summary: 'The inverters the caller can see: filter by plant, gateway, status, type, SN or alias; sorted (default SN), paged',
  query: deviceListQuery(inverterSorts, inverterListFilters),
  data: Paged(InverterListItem),
});

export const inverterCount = endpoint({
  method: 'GET',
  path: '/api/v1/inverters/count',
  access: 'inverter.view',
  summary: 'The visible inverters per status (with the list’s other filters)',
  query: Type.Object(inverterListFilters),
  data: DeviceCounts,
});

export const { alias: inverterAlias, remove: deleteInverter } = aliasAndDelete('inverter', 'an inverter', 600);

/** Inverter chart groups: grid, meter, battery, eps (backup output) and load. */
export const inverterGroups = ['grid', 'meter', 'battery', 'eps', 'load'] as const;
export type InverterGroupName = (typeof inverterGroups)[number];
export const InverterGroup = Literals(inverterGroups);

export const InverterDetail = Type.Object({
  ...deviceIdentity(),
  gateway: Type.Object({ ...GatewayRef.properties, status: GatewayState }),
  deviceType: Nullable(Type.Integer()),
  typeKey: InverterTypeKey,
  ratedPower: W(),
  mpptCount: Nullable(Type.Integer({ description: 'PV inputs' })),
  phaseCount: Nullable(Type.Integer()),
  power: W('W now (0 when offline)'),
  todayEnergy: Wh('Wh generated on the plant-local today'),
  totalEnergy: Nullable(Wh('Wh, the lifetime generation counter')),
  temperature: Num('°C'),
  runningState: Nullable(Type.String({ description: 'label in the request language' })),
  info: Type.Array(FieldValue, { description: 'identity and nameplate fields (serial, firmware, rated power …)' }),
  faults: Type.Array(ActiveFault),
  groups: Type.Object(
    {
      grid: Type.Boolean(),
      meter: Type.Boolean(),
      battery: Type.Boolean(),
      eps: Type.Boolean(),
      load: Type.Boolean(),
    },
    { description: 'the chart groups the inverter’s protocol has (the others answer 601)' },
  ),
  canEdit: Type.Boolean({ description: 'alias (with inverter.alias)' }),
  canDelete: Type.Boolean({ description: 'with inverter.delete' }),
  canPower: Type.Boolean({ description: 'power on and off (with inverter.boot)' }),
  lastUpdate: Nullable(Instant),
  createdAt: Instant,
});

export const getInverter = endpoint({
  method: 'GET',
  path: '/api/v1/inverter/:sn',
  access: 'inverter.view',
  summary: 'An inverter’s information: identity, nameplate, type, status, power now, energy, faults, chart groups',
  params: SnParams,
  data: InverterDetail,
  tolerate: [ErrorCode.inverterMissing],
});

export const PvInput = Type.Object({
  index: Type.Integer({ description: '1-based' }),
  name: Type.String({ description: 'PV1, PV2 … (MPPT inputs) or S1, S2 … (strings)' }),
  kind: Type.Union([Type.Literal('mppt'), Type.Literal('string')]),
  voltage: Num('V'),
  current: Num('A'),
  power: W(),
});
export const InverterInputRealtime = Type.Object({
  at: Nullable(Instant),
  inputs: Type.Array(PvInput),
  totalPower: W('W, sum of the inputs'),
});
export const InverterOutputRealtime = Type.Object({
  at: Nullable(Instant),
  phases: Type.Array(Phase),
  frequency: Num('Hz'),
  activePower: W(),
  reactivePower: Num('var'),
  powerFactor: Num('−1…1'),
});

export const inverterInputRealtime = endpoint({
  method: 'GET',
  path: '/api/v1/inverter/:sn/input/realtime',
  access: 'inverter.view',
  summary: 'DC input now: voltage, current and power of each MPPT input (and string, where the protocol has them)',
  params: SnParams,
  data: InverterInputRealtime,
  tolerate: [ErrorCode.inverterMissing],
});

export const inverterOutputRealtime = endpoint({
  method: 'GET',
  path: '/api/v1/inverter/:sn/output/realtime',
  access: 'inverter.view',
  summary: 'AC output now: voltage, current and power of each phase, frequency, active and reactive power, power factor',
  params: SnParams,
  data: InverterOutputRealtime,
  tolerate: [ErrorCode.inverterMissing],
});

export const PvIvTrace = Type.Object({
  ...PvInput.properties,
  points: Type.Array(
    Type.Object({ time: Instant, voltage: Type.Number({ description: 'V' }), current: Type.Number({ description: 'A' }) }),
    { description: 'the operating points of the last hour, oldest first' },
  ),
});
export const inverterPvIv = endpoint({
  method: 'GET',
  path: '/api/v1/inverter/:sn/pvIVRealtime',
  access: 'inverter.view',
  summary: 'Each PV input’s operating point now and its operating points (voltage, current) over the last hour, for the I–V plot',
  params: SnParams,
  data: Type.Object({ at: Nullable(Instant), inputs: Type.Array(PvIvTrace) }),
  tolerate: [ErrorCode.inverterMissing],
});

export const inverterInputDay = endpoint({
  method: 'GET',
  path: '/api/v1/inverter/:sn/input/day',
  access: 'inverter.view',
  summary: 'The day curves of each PV input: voltage, current, power',
  params: SnParams,
  query: DateQuery,
  data: DayChart,
  tolerate: [ErrorCode.inverterMissing],
});

export const inverterOutputDay = endpoint({
  method: 'GET',
  path: '/api/v1/inverter/:sn/output/day',
  access: 'inverter.view',
  summary: 'The day curves of the AC output: voltage and current of each phase, frequency, active power',
  params: SnParams,
  query: DateQuery,
  data: DayChart,
  tolerate: [ErrorCode.inverterMissing],
});

/** A chartable parameter key: a protocol field key (battery pack fields have a dot: pack2.soc). */
export const ParamKey = Type.String({ pattern: '^[A-Za-z0-9_.]{1,48}$' });

export const inverterDay = endpoint({
  method: 'GET',
  path: '/api/v1/inverter/:sn/day',
  access: 'inverter.view',
  summary: `The day curves of up to ${limits.parametersOrProfiles} chosen parameters (inverter/params), default the stored power, SOC and temperature curves; with the day’s energy`,
  params: SnParams,
  query: Type.Object({
    date: Type.Optional(Day),
    params: Type.Optional(
      Type.Array(ParamKey, {
        maxItems: limits.parametersOrProfiles,
        description: `at most ${limits.parametersOrProfiles} (repeated key)`,
      }),
    ),
  }),
  data: DayChartWithEnergy,
  tolerate: [ErrorCode.validation, ErrorCode.inverterMissing],
});

const inverterBars = (period: 'month' | 'year' | 'total', what: string) =>
  endpoint({
    method: 'GET',
    path: `/api/v1/inverter/:sn/${period}`,
    access: 'inverter.view',
    summary: `An inverter’s energy bars (generation, load, grid import/export, battery charge/discharge): ${what}`,
    params: SnParams,
    query: DateQuery,
    data: EnergyBars,
    tolerate: [ErrorCode.inverterMissing],
  });
export const inverterMonth = inverterBars('month', 'the days of the month of `date`');
export const inverterYear = inverterBars('year', 'the months of the year of `date`');
export const inverterTotal = inverterBars('total', 'every year');

export const GenerationBars = Type.Object({
  period: EnergyPeriod,
  date: Day,
  timezone: Type.String(),
  bars: Type.Array(
    Type.Object({
      label: Type.String({ description: 'HH:00 (day), YYYY-MM-DD, YYYY-MM or YYYY' }),
      energy: Wh('Wh generated'),
    }),
  ),
  energy: Wh('Wh generated in the whole period'),
});
export const inverterGen = endpoint({
  method: 'GET',
  path: '/api/v1/inverter/:sn/gen',
  access: 'inverter.view',
  summary:
    'The generation chart: per hour of a day (from the lifetime counter in the samples), per day of a month, per month of a year, or per year',
  params: SnParams,
  query: Type.Object({ period: Type.Optional(EnergyPeriod), date: Type.Optional(Day) }),
  data: GenerationBars,
  tolerate: [ErrorCode.inverterMissing],
});

export const MicroPanel = Type.Object({
  index: Type.Integer({ description: '1-based PV input (panel)' }),
  name: Type.String(),
  energy: Wh('Wh, the day’s power curve integrated'),
  peakPower: W(),
});
export const inverterGenMi = endpoint({
  method: 'GET',
  path: '/api/v1/inverter/:sn/genMi',
  access: 'inverter.view',
  summary:
    'A micro-inverter’s generation per panel over a day: the power curve of each panel and its energy (601 for other inverters)',
  params: SnParams,
  query: DateQuery,
  data: Type.Object({ ...DayChart.properties, panels: Type.Array(MicroPanel) }),
  tolerate: [ErrorCode.inverterMissing, ErrorCode.inverterUnsupported],
});

/** What the grid, meter, battery, eps and load groups show now. */
export const GroupEnergy = Type.Object({
  key: Type.Union([
    Type.Literal('import'),
    Type.Literal('export'),
    Type.Literal('charge'),
    Type.Literal('discharge'),
    Type.Literal('consumption'),
  ]),
  today: Wh('Wh on the plant-local today'),
  total: Nullable(Wh('Wh, the lifetime counter')),
});
export const InverterGroupRealtime = Type.Object({
  group: InverterGroup,
  at: Nullable(Instant),
  power: W('W: grid and meter + import / − export; battery + discharge / − charge; load and eps consumption'),
  soc: Num('%, battery group'),
  phases: Type.Array(Phase, { description: 'grid and eps groups' }),
  energy: Type.Array(GroupEnergy),
  fields: Type.Array(FieldValue, { description: 'every realtime value of the group, as the protocol names it' }),
});
const GroupParams = Type.Object({ kind: InverterGroup, sn: Sn });

export const inverterGroupRealtime = endpoint({
  method: 'GET',
  path: '/api/v1/inverter/:kind/:sn/realtime',
  access: 'inverter.view',
  summary: 'The grid, meter, battery, eps or load values of an inverter now (601 when its protocol has no such group)',
  params: GroupParams,
  data: InverterGroupRealtime,
  tolerate: [ErrorCode.validation, ErrorCode.inverterMissing, ErrorCode.inverterUnsupported],
});
export const inverterGroupDay = endpoint({
  method: 'GET',
  path: '/api/v1/inverter/:kind/:sn/day',
  access: 'inverter.view',
  summary: 'The day curves of a group (grid: power, phase voltages, frequency; battery: power, SOC, voltage …) and its energy',
  params: GroupParams,
  query: DateQuery,
  data: DayChartWithEnergy,
  tolerate: [ErrorCode.validation, ErrorCode.inverterMissing, ErrorCode.inverterUnsupported],
});
const groupBars = (period: 'month' | 'year' | 'total', what: string) =>
  endpoint({
    method: 'GET',
    path: `/api/v1/inverter/:kind/:sn/${period}`,
    access: 'inverter.view',
    summary: `A group’s energy bars (grid/meter: import and export; battery: charge and discharge; load: consumption): ${what}`,
    params: GroupParams,
    query: DateQuery,
    data: EnergyBars,
    tolerate: [ErrorCode.validation, ErrorCode.inverterMissing, ErrorCode.inverterUnsupported],
  });
export const inverterGroupMonth = groupBars('month', 'the days of the month');
export const inverterGroupYear = groupBars('year', 'the months of the year');
export const inverterGroupTotal = groupBars('total', 'every year');
