/**
 * The plant overview and reports: realtime card, energy flow, power
 * curve, energy bars, generation and use, events of the last hour, master meter, an inverter's
 * flow, the weather, the energy report and generation downloads (.xlsx) and forecast upload.
 *
 * Units: power in W, energy in Wh, SOC in %, money in the plant's currency. Days are
 * plant-local dates (YYYY-MM-DD) and a missing `date` means the plant's today. Power signs:
 * grid + import / − export; battery + discharge / − charge. Everything is served from day
 * rollups, latest values and per-day caches, never by scanning history.
 */
import Type from 'typebox';
import { endpoint, XLSX_MEDIA_TYPE } from '../endpoint.ts';
import { ErrorCode } from '../errors.ts';
import { limits } from '../limits.ts';
import { Day, IdParams, Instant, Nothing, Nullable, Sn } from '../schemas.ts';
import { EventLevel, PlantStatus } from './plants.ts';

/** kg of CO₂ avoided per kWh generated (world-average grid intensity, IEA 2023: ~0.475). */
export const CO2_KG_PER_KWH = 0.475;
/** Points per hour of the day curve (5-minute buckets). */
export const POWER_CURVE_STEP_MINUTES = 5;
/** At most this many plants in one energy report. */
export const REPORT_MAX_PLANTS = 500;
/** Forecast upload: at most this many bytes and rows. */
export const FORECAST_MAX_BYTES = 5 * 1024 * 1024;
export const FORECAST_MAX_ROWS = 366 * 24 * 12;

const W = (description = 'W') => Nullable(Type.Number({ description }));
const DateQuery = Type.Object({ date: Type.Optional(Day) });
export const EnergyPeriod = Type.Union([Type.Literal('day'), Type.Literal('month'), Type.Literal('year'), Type.Literal('total')]);

/** The overview's realtime card. */
export const PlantRealtime = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  status: PlantStatus,
  capacity: Type.Number({ description: 'kWp' }),
  power: W('W now (sum of the inverters’ output); null when no data'),
  /** power ÷ capacity, 0–1+ ; null without capacity or data. */
  powerRatio: Nullable(Type.Number()),
  todayEnergy: Type.Number({ description: 'Wh' }),
  monthEnergy: Type.Number({ description: 'Wh' }),
  yearEnergy: Type.Number({ description: 'Wh' }),
  totalEnergy: Type.Number({ description: 'Wh' }),
  currency: Nullable(Type.String()),
  todayIncome: Nullable(Type.Number({ description: 'null when the plant has no price' })),
  totalIncome: Nullable(Type.Number({ description: 'computed income plus the plant’s manual income' })),
  co2TodayKg: Type.Number(),
  co2TotalKg: Type.Number(),
  /** The plant-local day the figures belong to. */
  today: Day,
  timezone: Type.String(),
  lastUpdate: Nullable(Instant),
});

/** The energy-flow diagram: power now between PV, battery, grid and load. */
export const EnergyFlow = Type.Object({
  pv: W(),
  load: W(),
  grid: W('W, + import / − export'),
  battery: W('W, + discharge / − charge'),
  soc: Nullable(Type.Number({ description: '%' })),
  hasPv: Type.Boolean(),
  hasBattery: Type.Boolean(),
  hasGrid: Type.Boolean({ description: 'a meter or a hybrid inverter measures the grid' }),
  hasLoad: Type.Boolean(),
  at: Nullable(Instant),
});

export const PowerPoint = Type.Object({
  time: Instant,
  pv: W(),
  load: W(),
  grid: W('W, + import / − export'),
  battery: W('W, + discharge / − charge'),
  soc: Nullable(Type.Number()),
});

export const PowerDay = Type.Object({
  date: Day,
  timezone: Type.String(),
  /** 5-minute buckets that have data, in time order (averages of the samples in each). */
  points: Type.Array(PowerPoint),
  /** The uploaded forecast for the day (`predicted/import`), in time order. */
  forecast: Type.Array(Type.Object({ time: Instant, power: Type.Number({ description: 'W' }) })),
  peakPower: W('W, the day’s highest bucket'),
  energy: Type.Number({ description: 'Wh generated that day (day rollup)' }),
});

/** One bar of the generation chart: a day of a month, a month of a year, or a year. */
export const GenerationBar = Type.Object({
  label: Type.String({ description: 'YYYY-MM-DD, YYYY-MM or YYYY' }),
  energy: Type.Number({ description: 'Wh generated' }),
  income: Nullable(Type.Number()),
  peakPower: W(),
});
export const GenerationSeries = Type.Object({
  period: EnergyPeriod,
  date: Day,
  bars: Type.Array(GenerationBar),
  energy: Type.Number({ description: 'Wh, the whole period' }),
  income: Nullable(Type.Number()),
});

export const EnergyTotals = Type.Object({
  pv: Type.Number({ description: 'Wh generated' }),
  load: Type.Number({ description: 'Wh consumed' }),
  gridImport: Type.Number(),
  gridExport: Type.Number(),
  charge: Type.Number(),
  discharge: Type.Number(),
});
export const EnergyBreakdown = Type.Object({
  period: EnergyPeriod,
  date: Day,
  totals: EnergyTotals,
  /** Bars of the period (empty for a day): label as in GenerationBar. */
  points: Type.Array(Type.Object({ label: Type.String(), ...EnergyTotals.properties })),
});

/** Where the generated energy went and where the consumed energy came from. */
export const GenerationUse = Type.Object({
  period: EnergyPeriod,
  date: Day,
  generation: Type.Number({ description: 'Wh' }),
  selfUse: Type.Number({ description: 'Wh generated and used on site (load or battery)' }),
  export: Type.Number({ description: 'Wh fed into the grid' }),
  consumption: Type.Number({ description: 'Wh used by the load' }),
  fromPv: Type.Number(),
  fromGrid: Type.Number(),
  fromBattery: Type.Number(),
  /** selfUse ÷ generation (0–1); null without generation. */
  selfUseRate: Nullable(Type.Number()),
  /** (consumption − fromGrid) ÷ consumption (0–1); null without consumption. */
  selfSufficiency: Nullable(Type.Number()),
});

export const WeatherNow = Type.Object({
  source: Type.Union([Type.Literal('station'), Type.Literal('none')], {
    description: 'the plant’s weather station; none when it has no station (no outside weather service is called)',
  }),
  stationSn: Nullable(Type.String()),
  irradiance: Nullable(Type.Number({ description: 'W/m²' })),
  ambientTemperature: Nullable(Type.Number({ description: '°C' })),
  moduleTemperature: Nullable(Type.Number({ description: '°C' })),
  windSpeed: Nullable(Type.Number({ description: 'm/s' })),
  humidity: Nullable(Type.Number({ description: '%' })),
  dailyIrradiation: Nullable(Type.Number({ description: 'Wh/m², today' })),
  at: Nullable(Instant),
});

const PlantQuery = Type.Object({ plantId: Type.Integer({ minimum: 1 }) });

// ——— realtime, flow, curves, bars ———

export const plantRealtime = endpoint({
  method: 'GET',
  path: '/api/v1/plant/:id/realtime',
  access: 'station.view',
  summary: 'The realtime card: power now, energy today/month/year/total, income, CO₂ avoided',
  params: IdParams,
  data: PlantRealtime,
  tolerate: [ErrorCode.plantMissing],
});

export const plantPowerDay = endpoint({
  method: 'GET',
  path: '/api/v1/plant/:id/power/day',
  access: 'station.view',
  summary: 'The power curve of a plant-local day in 5-minute buckets (PV, load, grid, battery, SOC) with the forecast',
  params: IdParams,
  query: DateQuery,
  data: PowerDay,
});
const generation = (period: 'month' | 'year' | 'total', what: string) =>
  endpoint({
    method: 'GET',
    path: `/api/v1/plant/:id/power/${period}`,
    access: 'station.view',
    summary: `Generation and income bars: ${what}`,
    params: IdParams,
    query: DateQuery,
    data: GenerationSeries,
  });
export const plantPowerMonth = generation('month', 'the days of the month of `date`');
export const plantPowerYear = generation('year', 'the months of the year of `date`');
export const plantPowerTotal = generation('total', 'every year');

export const plantEnergyFlow = endpoint({
  method: 'GET',
  path: '/api/v1/plant/energy/:id/flow',
  access: 'station.view',
  summary: 'Power now between PV, battery, grid and load (the flow diagram)',
  params: IdParams,
  data: EnergyFlow,
});

export const plantGenerationUse = endpoint({
  method: 'GET',
  path: '/api/v1/plant/energy/:id/generation/use',
  access: 'station.view',
  summary: 'Where generation went (self-use, export) and where consumption came from (PV, grid, battery)',
  params: IdParams,
  query: Type.Object({ period: Type.Optional(EnergyPeriod), date: Type.Optional(Day) }),
  data: GenerationUse,
});

const breakdown = (period: 'day' | 'month' | 'year' | 'total', what: string) =>
  endpoint({
    method: 'GET',
    path: `/api/v1/plant/energy/:id/${period}`,
    access: 'station.view',
    summary: `Energy by flow (generated, consumed, imported, exported, charged, discharged): ${what}`,
    params: IdParams,
    query: DateQuery,
    data: EnergyBreakdown,
  });
export const plantEnergyDay = breakdown('day', 'the day');
export const plantEnergyMonth = breakdown('month', 'the month, by day');
export const plantEnergyYear = breakdown('year', 'the year, by month');
export const plantEnergyTotal = breakdown('total', 'all time, by year');

// ——— events, meters, inverters, weather ———

export const OneHourEvent = Type.Object({
  id: Type.Integer(),
  plantId: Nullable(Type.Integer()),
  plantName: Nullable(Type.String()),
  sn: Type.String(),
  code: Type.String(),
  level: EventLevel,
  text: Type.String({ description: 'in the request language' }),
  startedAt: Instant,
  endedAt: Nullable(Instant),
});
export const eventOneHour = endpoint({
  method: 'GET',
  path: '/api/v1/event/oneHour',
  access: 'station.view',
  summary: 'Events that started in the last hour on the plants the caller can see, newest first (at most 50)',
  data: Type.Array(OneHourEvent),
});

export const setMasterMeter = endpoint({
  method: 'POST',
  path: '/api/v1/meter/:sn/master',
  access: 'station.edit',
  writes: true,
  summary: 'Make this meter the plant’s master: its grid import and export become the plant’s (days are re-summed)',
  params: Type.Object({ sn: Sn }),
  data: Nothing,
  tolerate: [ErrorCode.notFound],
});

export const inverterFlow = endpoint({
  method: 'GET',
  path: '/api/v1/inverter/:sn/flow',
  access: 'station.view',
  summary: 'Power now between PV, battery, grid and load as one (hybrid) inverter measures it',
  params: Type.Object({ sn: Sn }),
  data: EnergyFlow,
  tolerate: [ErrorCode.inverterMissing],
});

export const weather = endpoint({
  method: 'GET',
  path: '/api/v1/weather',
  access: 'station.view',
  summary: 'The weather at a plant: its weather station’s latest values',
  query: PlantQuery,
  data: WeatherNow,
});

export const WeatherStationInfo = Type.Object({
  sn: Type.String(),
  alias: Nullable(Type.String()),
  protocol: Type.String(),
  status: PlantStatus,
  gatewaySn: Type.String(),
  lastUpdate: Nullable(Instant),
});
export const weatherStationInfo = endpoint({
  method: 'GET',
  path: '/api/v1/getWeatherStationInfo',
  access: 'station.view',
  summary: 'The plant’s weather stations',
  query: PlantQuery,
  data: Type.Array(WeatherStationInfo),
});

export const weatherStationProducts = endpoint({
  method: 'GET',
  path: '/api/v1/getWeatherStationProduct',
  access: 'station.view',
  summary: 'Weather station products the portal reads (protocol definitions of the weather kind)',
  data: Type.Array(Type.Object({ protocol: Type.String(), name: Type.String(), fields: Type.Array(Type.String()) })),
});

export const saveWeatherAuth = endpoint({
  method: 'POST',
  path: '/api/v1/saveAuthInfo',
  access: 'station.edit',
  writes: true,
  summary: 'Attach a weather station to a plant by SN (the station must be behind one of the plant’s gateways)',
  body: Type.Object({ plantId: Type.Integer({ minimum: 1 }), sn: Sn }),
  data: WeatherStationInfo,
  tolerate: [ErrorCode.notFound],
});

export const plantWeatherRealtime = endpoint({
  method: 'GET',
  path: '/api/v1/plant/meteorological/:stationId/realtime',
  access: 'station.view',
  summary: 'The latest values of the plant’s weather station (stationId = plant id)',
  params: Type.Object({ stationId: Type.Integer({ minimum: 1 }) }),
  data: WeatherNow,
});

export const WeatherPoint = Type.Object({
  time: Instant,
  irradiance: Nullable(Type.Number()),
  ambientTemperature: Nullable(Type.Number()),
  moduleTemperature: Nullable(Type.Number()),
  windSpeed: Nullable(Type.Number()),
});
export const weatherStationRealtime = endpoint({
  method: 'GET',
  path: '/api/v1/meteorological/:sn/realtime',
  access: 'station.view',
  summary: 'A weather station’s latest values',
  params: Type.Object({ sn: Sn }),
  data: WeatherNow,
  tolerate: [ErrorCode.notFound],
});
export const weatherStationDay = endpoint({
  method: 'GET',
  path: '/api/v1/meteorological/:sn/day',
  access: 'station.view',
  summary: 'A weather station’s day curves in 5-minute buckets',
  params: Type.Object({ sn: Sn }),
  query: DateQuery,
  data: Type.Object({ date: Day, points: Type.Array(WeatherPoint) }),
  tolerate: [ErrorCode.notFound],
});

// ——— reports ———

const PlantIdList = Type.String({
  pattern: '^[1-9][0-9]{0,9}(,[1-9][0-9]{0,9})*$',
  maxLength: REPORT_MAX_PLANTS * 11,
  description: `comma-separated plant ids, at most ${REPORT_MAX_PLANTS}`,
});

export const energyAggregate = endpoint({
  method: 'GET',
  path: '/api/v1/plant/energy/aggregate',
  access: 'station.view',
  summary: `The energy report of the selected plants (.xlsx): one row per plant and day, ≤ ${limits.dateRangeDays} days; a plant the caller cannot see refuses the whole request (700)`,
  query: Type.Object({ plantIds: PlantIdList, startDate: Day, endDate: Day }),
  data: Nothing,
  file: true,
  fileType: XLSX_MEDIA_TYPE,
  tolerate: [ErrorCode.validation, ErrorCode.plantMissing],
});

export const generationDownload = endpoint({
  method: 'GET',
  path: '/api/v1/plant/generation/download',
  access: 'station.view',
  summary: 'The overview’s generation chart as .xlsx: the day curve (period day) or the bars of the month, year or all time',
  query: Type.Object({ plantId: Type.Integer({ minimum: 1 }), period: EnergyPeriod, date: Type.Optional(Day) }),
  data: Nothing,
  file: true,
  fileType: XLSX_MEDIA_TYPE,
  tolerate: [ErrorCode.plantMissing],
});

export const importForecast = endpoint({
  method: 'POST',
  path: '/api/v1/predicted/import',
  access: 'station.edit',
  writes: true,
  encoding: 'multipart',
  summary:
    'Upload a power forecast (.xlsx; field "file", field "plantId"): rows of time (plant-local "YYYY-MM-DD HH:mm") and power in W; replaces the forecast of the days it covers',
  data: Type.Object({ rows: Type.Integer(), days: Type.Array(Day) }),
  tolerate: [ErrorCode.validation, ErrorCode.plantMissing],
});
