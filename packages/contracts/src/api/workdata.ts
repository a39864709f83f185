/**
 * Operation data (`/workdata/list`): the raw
 * decoded samples of one device over a date range — a paged table, a chart, the device's events
 * with its readings when each started, and an .xlsx download streamed row by row.
 *
 * Parameters are the device's stored sample columns (fast: `stored`) and the fields of its
 * protocol definition (decoded again from the register blocks each sample keeps). Dates are
 * plant-local days, both included, at most `limits.dateRangeDays` (90) days (4 otherwise, with
 * a message naming the limit). A device the caller cannot see answers 404. Values are in the
 * parameter's unit (power W, energy of stored columns Wh, protocol counters in their own unit);
 * signed power (`flow`) is in the one convention whatever its register says.
 */
import Type from 'typebox';
import { endpoint, XLSX_MEDIA_TYPE } from '../endpoint.ts';
import { ErrorCode } from '../errors.ts';
import { limits } from '../limits.ts';
import { Day, Instant, Nothing, Nullable, Sn } from '../schemas.ts';
import { PowerFlow } from './devices/common.ts';
import { DeviceEvent, EventState } from './events.ts';
import { EventLevel } from './plants.ts';

const ParamKey = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z][A-Za-z0-9_.]*$' });

/** Rows per table page at most; points per chart series at most. */
export const WORKDATA_PAGE_MAX = 1000;
export const WORKDATA_CHART_POINTS = 2000;

export const WorkdataKind = Type.Union([
  Type.Literal('inverter'),
  Type.Literal('battery'),
  Type.Literal('meter'),
  Type.Literal('weather'),
]);

/** A parameter that can be chosen for the table, chart or download. */
export const WorkdataParam = Type.Object({
  key: Type.String(),
  name: Type.String({ description: 'in the request language' }),
  unit: Nullable(Type.String()),
  numeric: Type.Boolean({ description: 'can be charted' }),
  stored: Type.Boolean({ description: 'a column of the samples table (no decoding needed)' }),
  options: Nullable(Type.Record(Type.String(), Type.String(), { description: 'labels of an enum’s values' })),
  flow: PowerFlow('a chart splits it into its two directions; a table or file names the convention'),
});

/** One value per chosen parameter, in the order of `params`. */
export const WorkdataValue = Type.Union([Type.Number(), Type.String(), Type.Null()]);
export const WorkdataRow = Type.Object({ ts: Instant, values: Type.Array(WorkdataValue) });

const Range = { sn: Sn, startDate: Day, endDate: Day };
const ChosenParams = (max: number, min = 0) =>
  Type.Array(ParamKey, { minItems: min, maxItems: max, description: 'repeated key; default: the device’s usual set' });

const DeviceHead = {
  sn: Type.String(),
  kind: WorkdataKind,
  alias: Nullable(Type.String()),
  timezone: Type.String({ description: 'the plant’s zone the days are read in' }),
};

export const workdataParams = endpoint({
  method: 'GET',
  path: '/api/v1/workdata/params',
  access: 'workdata.view',
  summary: 'The parameters one device offers, and the default choice',
  query: Type.Object({ sn: Sn }),
  data: Type.Object({
    ...DeviceHead,
    protocol: Type.String(),
    params: Type.Array(WorkdataParam),
    defaults: Type.Array(Type.String()),
  }),
});

export const workdataDynamic = endpoint({
  method: 'GET',
  path: '/api/v1/workdata/dynamic',
  access: 'workdata.view',
  summary: `Raw decoded samples of one device, oldest first, one keyset page (pass \`next\` as \`after\`); ≤ ${limits.choices} parameters, ≤ ${limits.dateRangeDays} days`,
  query: Type.Object({
    ...Range,
    params: Type.Optional(ChosenParams(limits.choices)),
    after: Type.Optional(
      Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'epoch ms: rows after this sample time' }),
    ),
    size: Type.Optional(Type.Integer({ minimum: 1, maximum: WORKDATA_PAGE_MAX, default: 200 })),
  }),
  data: Type.Object({
    ...DeviceHead,
    params: Type.Array(WorkdataParam),
    total: Type.Integer({ description: 'samples in the whole range' }),
    list: Type.Array(WorkdataRow),
    next: Nullable(Type.Integer({ description: 'epoch ms to pass as `after`; null on the last page' })),
  }),
  tolerate: [ErrorCode.validation],
});

export const workdataChart = endpoint({
  method: 'GET',
  path: '/api/v1/workdata/dynamic/chart',
  access: 'workdata.view',
  summary: `Chart series of 1–${limits.parametersOrProfiles} numeric parameters: every sample, or time buckets (average, min, max) so that a series has at most ${WORKDATA_CHART_POINTS} points`,
  query: Type.Object({ ...Range, params: ChosenParams(limits.parametersOrProfiles, 1) }),
  data: Type.Object({
    ...DeviceHead,
    params: Type.Array(WorkdataParam),
    bucketSeconds: Type.Integer({ description: '0: every sample; otherwise the width of a bucket' }),
    ts: Type.Array(Instant, { description: 'the time of each point (a bucket’s first sample)' }),
    series: Type.Array(
      Type.Object({
        key: Type.String(),
        avg: Type.Array(Nullable(Type.Number())),
        min: Type.Array(Nullable(Type.Number())),
        max: Type.Array(Nullable(Type.Number())),
      }),
    ),
  }),
  tolerate: [ErrorCode.validation],
});

const EventsQuery = Type.Object({
  ...Range,
  params: Type.Optional(ChosenParams(limits.choices)),
  level: Type.Optional(EventLevel),
  state: Type.Optional(EventState),
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
  size: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
});
const EventsWithSamples = Type.Object({
  ...DeviceHead,
  params: Type.Array(WorkdataParam),
  total: Type.Integer(),
  list: Type.Array(
    Type.Object({
      event: DeviceEvent,
      sample: Nullable(WorkdataRow),
    }),
  ),
});

export const workdataEvents = endpoint({
  method: 'GET',
  path: '/api/v1/workdata/event',
  access: 'workdata.view',
  summary:
    'One device’s events that started in the range, newest first, each with the device’s reading at its start (the last sample at or before it, within an hour)',
  query: EventsQuery,
  data: EventsWithSamples,
  tolerate: [ErrorCode.validation],
});

export const workdataBatteryEvents = endpoint({
  method: 'GET',
  path: '/api/v1/workdata/battery/event',
  access: 'workdata.view',
  summary: 'As workdata/event, for a battery (4 for another kind): pack-level events carry their pack',
  query: EventsQuery,
  data: EventsWithSamples,
  tolerate: [ErrorCode.validation],
});

export const workdataDownload = endpoint({
  method: 'GET',
  path: '/api/v1/workdata/dynamic/download',
  access: 'workdata.export',
  summary: `The samples of one device as .xlsx, streamed (time in the plant’s zone, one column per parameter, ≤ ${limits.dateRangeDays} days)`,
  query: Type.Object({
    ...Range,
    params: Type.Optional(ChosenParams(limits.choices)),
    lan: Type.Optional(Type.String({ maxLength: 8 })),
  }),
  data: Nothing,
  file: true,
  fileType: XLSX_MEDIA_TYPE,
  tolerate: [ErrorCode.validation],
});
