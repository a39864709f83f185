/**
 * The devices area (spec §2 `/device`, §3 Gateway, Inverter, Battery, Meter, station, §7
 * "Inverters", "Meters and batteries", "Gateways" read side, weather station lists; issue 5):
 * lists with filters, server-side sort and paging and counts per status; alias and delete;
 * the detail pages of inverters, batteries, meters and gateways with their realtime values and
 * charts.
 *
 * Units: power W, energy Wh, voltage V, current A, frequency Hz, temperature °C, SOC/SOH %,
 * irradiance W/m². Days are plant-local dates (YYYY-MM-DD; an unbound device uses UTC) and a
 * missing `date` means that day's today. Power signs: grid and meter + import / − export,
 * battery + discharge / − charge. Realtime values come from the device's latest upload, day
 * curves from its samples, month/year/total bars from its day rollups.
 *
 * Not found: an inverter SN the caller cannot see (or that is no inverter) answers 600; a
 * gateway 305; a battery, meter or weather station 404. A device the caller sees but may not
 * change answers 2 to alias and delete. A chart group the inverter's protocol does not have
 * answers 601.
 */
import Type, { type TProperties } from 'typebox';
import { endpoint, Id, IdParams, Nothing, Paged, PageQuery } from '../endpoint.ts';
import { limits } from '../limits.ts';
import { safeTextPattern } from '../validation.ts';
import { Nullable, PlantStatus } from './plants.ts';

// ——— shared pieces ———

const Instant = Type.String({ format: 'date-time' });
const Day = Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', description: 'YYYY-MM-DD, plant-local' });
/** A device or gateway serial number. */
export const SN_PATTERN = '^[A-Za-z0-9_-]{1,32}$';
const Sn = Type.String({ pattern: SN_PATTERN });
const SnParams = Type.Object({ sn: Sn });
const W = (description = 'W') => Nullable(Type.Number({ description }));
const Num = (description: string) => Nullable(Type.Number({ description }));
const Wh = (description = 'Wh') => Type.Number({ description });

/** Device status (spec §4, as plants). */
export const DeviceStatus = PlantStatus;
export const deviceStatuses = ['normal', 'offline', 'warning', 'fault', 'upgrading'] as const;
export type DeviceStatusName = (typeof deviceStatuses)[number];

/** Counts per status over the visible devices of a kind, with the list's filters except status. */
export const DeviceCounts = Type.Object({
  total: Type.Integer(),
  normal: Type.Integer(),
  offline: Type.Integer(),
  warning: Type.Integer(),
  fault: Type.Integer(),
  upgrading: Type.Integer(),
});

export const PlantRef = Type.Object({ id: Type.Integer(), name: Type.String(), timezone: Type.String() });
export const GatewayRef = Type.Object({ id: Type.Integer(), sn: Type.String(), alias: Nullable(Type.String()) });
export const CompanyRef = Type.Object({ id: Type.Integer(), name: Type.String() });

/** A union of string literals, typed as that union. */
function Literals<const T extends readonly string[]>(values: T, options: Record<string, unknown> = {}) {
  return Type.Unsafe<T[number]>(
    Type.Union(
      values.map((v) => Type.Literal(v)),
      options,
    ),
  );
}
/** 1 ascending, 2 descending (as the plant list); device lists default to ascending. */
const ListOrder = Type.Union([Type.Literal(1), Type.Literal(2)], { default: 1, description: '1 ascending, 2 descending' });
const Sort = <const T extends readonly string[]>(values: T, fallback: T[number]) => Literals(values, { default: fallback });

/** A device alias: at most 32 bytes of UTF-8 (spec §5), no forbidden characters; empty clears it. */
export const AliasInput = Type.Object(
  {
    alias: Type.String({
      maxLength: limits.deviceAliasBytes,
      pattern: safeTextPattern,
      description: `at most ${limits.deviceAliasBytes} bytes (UTF-8); empty clears the alias`,
    }),
  },
  { additionalProperties: false },
);
export const AliasResult = Type.Object({ sn: Type.String(), alias: Nullable(Type.String()) });

/** Filters every device list shares. `keyword` matches anywhere in the SN or the alias. */
const deviceFilters = {
  plantId: Type.Optional(Id),
  gatewayId: Type.Optional(Id),
  keyword: Type.Optional(Type.String({ maxLength: 32, description: 'part of the SN or alias, case-insensitive' })),
};

/**
 * One decoded value of the device's protocol: `value` is the engineering value (number) or text;
 * `text` is the label of an enum value in the request language.
 */
export const FieldValue = Type.Object({
  key: Type.String(),
  name: Type.String({ description: 'in the request language' }),
  unit: Nullable(Type.String()),
  value: Type.Unsafe<number | string | null>({ type: ['number', 'string', 'null'] }),
  text: Nullable(Type.String()),
});

/** A fault or warning bit set in the latest upload. */
export const ActiveFault = Type.Object({
  code: Type.String(),
  level: Type.Union([Type.Literal('fault'), Type.Literal('warning'), Type.Literal('info')]),
  text: Type.String({ description: 'in the request language' }),
});

/** One AC phase. */
export const Phase = Type.Object({
  phase: Type.String({ description: 'L1, L2, L3' }),
  voltage: Num('V'),
  current: Num('A'),
  power: W('W, when the device measures it per phase'),
});

/** A curve: `times` and each series' `values` are aligned (null: no value at that time). */
export const ChartSeries = Type.Object({
  key: Type.String({ description: 'parameter key (protocol field key, or pvPower / cellTemperatureMax)' }),
  name: Type.String({ description: 'in the request language' }),
  unit: Nullable(Type.String()),
  values: Type.Array(Nullable(Type.Number())),
});
export const DayChart = Type.Object({
  date: Day,
  timezone: Type.String(),
  times: Type.Array(Instant, { description: 'every sample of the day, in time order' }),
  series: Type.Array(ChartSeries),
});

/** Energy of a device over a period (its own counters' day rollups). */
export const DeviceEnergy = Type.Object({
  pv: Wh('Wh generated'),
  load: Wh('Wh consumed by the load'),
  gridImport: Wh('Wh imported from the grid'),
  gridExport: Wh('Wh exported to the grid'),
  charge: Wh('Wh into the battery'),
  discharge: Wh('Wh out of the battery'),
  peakPower: W('W, highest day peak'),
});
export const EnergyPeriod = Type.Union([Type.Literal('day'), Type.Literal('month'), Type.Literal('year'), Type.Literal('total')]);
/** Bars of a month (one per day), a year (per month) or all time (per year); only periods with data. */
export const EnergyBars = Type.Object({
  period: EnergyPeriod,
  date: Day,
  timezone: Type.String(),
  totals: DeviceEnergy,
  bars: Type.Array(
    Type.Object({ label: Type.String({ description: 'YYYY-MM-DD, YYYY-MM or YYYY' }), ...DeviceEnergy.properties }),
  ),
});
/** A day chart with the energy of the day. */
export const DayChartWithEnergy = Type.Object({ ...DayChart.properties, energy: DeviceEnergy });

const DateQuery = Type.Object({ date: Type.Optional(Day) });

/** GSM-style bars from RSSI (dBm): ≥ −65 → 4, ≥ −75 → 3, ≥ −85 → 2, ≥ −95 → 1, else 0; null without RSSI. */
export function signalBars(rssi: number | null | undefined): number | null {
  if (rssi === null || rssi === undefined || Number.isNaN(rssi)) return null;
  if (rssi >= -65) return 4;
  if (rssi >= -75) return 3;
  if (rssi >= -85) return 2;
  if (rssi >= -95) return 1;
  return 0;
}

// ——— gateways ———

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
  protocols: Type.Array(Type.String(), { description: 'protocol ids of the devices behind it' }),
  devices: Type.Integer({ description: 'devices behind it' }),
  createdAt: Instant,
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
  canEdit: Type.Boolean(),
});

export const listGateways = endpoint({
  method: 'GET',
  path: '/api/v1/gateways',
  access: 'gateway.view',
  summary: 'The gateways the caller can see (of visible plants; unbound ones of the caller’s company): filtered, sorted, paged',
  query: Type.Object({
    ...PageQuery,
    plantId: Type.Optional(Id),
    status: Type.Optional(GatewayState),
    binding: Type.Optional(Type.Union([Type.Literal('bound'), Type.Literal('unbound')])),
    commType: Type.Optional(Type.String({ maxLength: 16 })),
    keyword: deviceFilters.keyword,
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
  tolerate: [305],
});

// ——— inverters ———

/** Type names of spec §9 (`inverterTypeKey`); '--' is an inverter without a type register. */
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
/**
 * A row of an SN-keyed device list: who it is and where (SN, alias, plant, gateway, protocol),
 * the kind's own figures, then its status and times.
 */
function deviceListItem<Figures extends TProperties>(figures: Figures) {
  return Type.Object({
    id: Type.Integer(),
    sn: Type.String(),
    alias: Nullable(Type.String()),
    plant: Nullable(PlantRef),
    gateway: GatewayRef,
    protocol: Type.String(),
    ...figures,
    status: DeviceStatus,
    lastUpdate: Nullable(Instant),
    createdAt: Instant,
  });
}

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
  query: Type.Object({
    ...PageQuery,
    ...inverterListFilters,
    status: Type.Optional(DeviceStatus),
    sort: Type.Optional(Sort(inverterSorts, 'sn')),
    order: Type.Optional(ListOrder),
  }),
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

export const inverterAlias = endpoint({
  method: 'POST',
  path: '/api/v1/inverter/:sn/alias',
  access: 'inverter.alias',
  summary: `Rename an inverter (alias ≤ ${limits.deviceAliasBytes} bytes; empty clears it); needs edit rights on its plant`,
  params: SnParams,
  body: AliasInput,
  data: AliasResult,
  tolerate: [4, 600],
});

export const deleteInverter = endpoint({
  method: 'POST',
  path: '/api/v1/inverter/:sn/delete',
  access: 'inverter.delete',
  summary:
    'Remove an inverter from the lists (history stays; it comes back if it sends data again); needs edit rights on its plant',
  params: SnParams,
  data: Nothing,
  tolerate: [600],
});

/** Inverter chart groups (spec §7): grid, meter, battery, eps (backup output) and load. */
export const inverterGroups = ['grid', 'meter', 'battery', 'eps', 'load'] as const;
export type InverterGroupName = (typeof inverterGroups)[number];
export const InverterGroup = Literals(inverterGroups);

export const InverterDetail = Type.Object({
  id: Type.Integer(),
  sn: Type.String(),
  alias: Nullable(Type.String()),
  status: DeviceStatus,
  plant: Nullable(PlantRef),
  gateway: Type.Object({ ...GatewayRef.properties, status: GatewayState }),
  protocol: Type.Object({ id: Type.String(), name: Type.String() }),
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
  lastUpdate: Nullable(Instant),
  createdAt: Instant,
});

export const getInverter = endpoint({
  method: 'GET',
  path: '/api/v1/inverter/:sn',
  access: 'inverter.view',
  summary: 'An inverter’s information: identity, nameplate, type (spec §9), status, power now, energy, faults, chart groups',
  params: SnParams,
  data: InverterDetail,
  tolerate: [600],
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
  tolerate: [600],
});

export const inverterOutputRealtime = endpoint({
  method: 'GET',
  path: '/api/v1/inverter/:sn/output/realtime',
  access: 'inverter.view',
  summary: 'AC output now: voltage, current and power of each phase, frequency, active and reactive power, power factor',
  params: SnParams,
  data: InverterOutputRealtime,
  tolerate: [600],
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
  tolerate: [600],
});

export const inverterInputDay = endpoint({
  method: 'GET',
  path: '/api/v1/inverter/:sn/input/day',
  access: 'inverter.view',
  summary: 'The day curves of each PV input: voltage, current, power',
  params: SnParams,
  query: DateQuery,
  data: DayChart,
  tolerate: [600],
});

export const inverterOutputDay = endpoint({
  method: 'GET',
  path: '/api/v1/inverter/:sn/output/day',
  access: 'inverter.view',
  summary: 'The day curves of the AC output: voltage and current of each phase, frequency, active power',
  params: SnParams,
  query: DateQuery,
  data: DayChart,
  tolerate: [600],
});

/** A chartable parameter key: a protocol field key (battery pack fields have a dot: pack2.soc). */
const ParamKey = Type.String({ pattern: '^[A-Za-z0-9_.]{1,48}$' });

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
  tolerate: [4, 600],
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
    tolerate: [600],
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
  tolerate: [600],
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
  tolerate: [600, 601],
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
  tolerate: [4, 600, 601],
});
export const inverterGroupDay = endpoint({
  method: 'GET',
  path: '/api/v1/inverter/:kind/:sn/day',
  access: 'inverter.view',
  summary: 'The day curves of a group (grid: power, phase voltages, frequency; battery: power, SOC, voltage …) and its energy',
  params: GroupParams,
  query: DateQuery,
  data: DayChartWithEnergy,
  tolerate: [4, 600, 601],
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
    tolerate: [4, 600, 601],
  });
export const inverterGroupMonth = groupBars('month', 'the days of the month');
export const inverterGroupYear = groupBars('year', 'the months of the year');
export const inverterGroupTotal = groupBars('total', 'every year');

// ——— parameter picker and profiles ———

export const ChartParam = Type.Object({
  key: Type.String(),
  name: Type.String({ description: 'in the request language' }),
  unit: Nullable(Type.String()),
  stored: Type.Boolean({ description: 'kept as a sample column (fastest); otherwise decoded from the stored registers' }),
});
export const inverterParams = endpoint({
  method: 'GET',
  path: '/api/v1/inverter/params',
  access: 'inverter.view',
  summary: `The chartable parameters of an inverter’s protocol, for the day chart (choose at most ${limits.parametersOrProfiles})`,
  query: Type.Object({ sn: Sn }),
  data: Type.Object({
    protocol: Type.String(),
    params: Type.Array(ChartParam),
    defaults: Type.Array(Type.String(), { description: 'what the day chart shows when no parameter is chosen' }),
    maxSelected: Type.Integer(),
    maxProfiles: Type.Integer(),
  }),
  tolerate: [600],
});

export const ParamProfile = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 32, pattern: safeTextPattern }),
  params: Type.Array(ParamKey, { minItems: 1, maxItems: limits.parametersOrProfiles }),
});
export const SavedParamProfile = Type.Object({ id: Type.Integer(), ...ParamProfile.properties, updatedAt: Instant });

export const inverterParamProfiles = endpoint({
  method: 'GET',
  path: '/api/v1/inverter/params/custom',
  access: 'inverter.view',
  summary: `The caller’s saved parameter profiles (at most ${limits.parametersOrProfiles}, each at most ${limits.parametersOrProfiles} parameters)`,
  data: Type.Array(SavedParamProfile),
});

export const saveInverterParamProfiles = endpoint({
  method: 'POST',
  path: '/api/v1/inverter/params/custom',
  access: 'inverter.view',
  encoding: 'json',
  summary: `Replace the caller’s parameter profiles (at most ${limits.parametersOrProfiles}; an empty list removes them all); parameters must be chartable keys`,
  body: Type.Object(
    { profiles: Type.Array(ParamProfile, { maxItems: limits.parametersOrProfiles }) },
    { additionalProperties: false },
  ),
  data: Type.Array(SavedParamProfile),
  tolerate: [4],
});

// ——— batteries ———

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
  query: Type.Object({
    ...PageQuery,
    ...deviceFilters,
    status: Type.Optional(DeviceStatus),
    sort: Type.Optional(Sort(batterySorts, 'sn')),
    order: Type.Optional(ListOrder),
  }),
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
  tolerate: [404],
});

export const BatteryInfo = Type.Object({
  id: Type.Integer(),
  sn: Type.String(),
  alias: Nullable(Type.String()),
  status: DeviceStatus,
  plant: Nullable(PlantRef),
  gateway: GatewayRef,
  protocol: Type.Object({ id: Type.String(), name: Type.String() }),
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
  tolerate: [404],
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
  tolerate: [404],
});

export const batteryDay = endpoint({
  method: 'GET',
  path: '/api/v1/battery/:sn/day',
  access: 'battery.list.view',
  summary: 'A battery’s day curves: power, SOC, SOH, voltage, current, hottest cell',
  params: SnParams,
  query: DateQuery,
  data: DayChart,
  tolerate: [404],
});

export const deleteBattery = endpoint({
  method: 'POST',
  path: '/api/v1/battery/:id/delete',
  access: 'battery.delete',
  summary:
    'Remove a battery from the lists (history stays; it comes back if it sends data again); needs edit rights on its plant',
  params: IdParams,
  data: Nothing,
  tolerate: [404],
});

// ——— meters ———

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
  summary: 'Remove a meter from the lists (history stays; it comes back if it sends data again); needs edit rights on its plant',
  params: SnParams,
  data: Nothing,
  tolerate: [404],
});

// ——— weather stations ———

export const weatherSorts = ['sn', 'alias', 'createAt', 'irradiance', 'status', 'lastUpdate'] as const;

export const WeatherListItem = deviceListItem({
  irradiance: Num('W/m²'),
  ambientTemperature: Num('°C'),
  moduleTemperature: Num('°C'),
  windSpeed: Num('m/s'),
  humidity: Num('%'),
  dailyIrradiation: Num('Wh/m², today'),
});

export const listWeatherStations = endpoint({
  method: 'GET',
  path: '/api/v1/meteorological',
  access: 'weather.view',
  summary: 'The weather stations the caller can see: filter by plant, gateway, status, SN or alias; sorted, paged',
  query: Type.Object({
    ...PageQuery,
    ...deviceFilters,
    status: Type.Optional(DeviceStatus),
    sort: Type.Optional(Sort(weatherSorts, 'sn')),
    order: Type.Optional(ListOrder),
  }),
  data: Paged(WeatherListItem),
});

export const weatherCount = endpoint({
  method: 'GET',
  path: '/api/v1/meteorological/status/count',
  access: 'weather.view',
  summary: 'The visible weather stations per status (with the list’s other filters)',
  query: Type.Object(deviceFilters),
  data: DeviceCounts,
});

/** The order values of every device list. */
export const SortOrder = ListOrder;
