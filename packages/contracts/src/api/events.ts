/**
 * Events and alarms: the event lists of the
 * plants the caller can see, of one device (or gateway), its open events, one event's detail,
 * acknowledgement, and the .xlsx downloads.
 *
 * An event belongs to a device or gateway (`sn`) of a plant and is seen through that plant. Its
 * text and suggested action come in the request language (`lan`, then Accept-Language). Dates
 * filter on the event's start: `startDate`…`endDate` are whole days (both included), at most
 * `limits.dateRangeDays` (90) days, read in `timezone` for the lists across plants (default UTC)
 * and in the plant's own zone for one device. A longer range answers 4 with a message naming the
 * limit. An SN or event id the caller cannot see answers 404 (as if it did not exist); a plant id
 * filter the caller cannot see answers 700. `search` finds events by part of the device's or
 * gateway's SN or alias or of the plant's name, among the events the caller sees; it never
 * answers 404.
 */
import Type from 'typebox';
import { endpoint, Paged, PageQuery, XLSX_MEDIA_TYPE } from '../endpoint.ts';
import { ErrorCode } from '../errors.ts';
import { limits } from '../limits.ts';
import { Day, Id, Instant, Nothing, Nullable, Sn } from '../schemas.ts';
import { safeTextPattern } from '../validation.ts';
import { EventLevel, PlantEvent } from './plants.ts';

export const eventStates = ['open', 'closed'] as const;
export const EventState = Type.Union([Type.Literal('open'), Type.Literal('closed')], {
  description: 'open: not ended yet; closed: ended',
});

/** What raised the event: a device of a kind, or a gateway itself. */
export const eventSubjectKinds = ['inverter', 'battery', 'meter', 'weather', 'gateway'] as const;
export type EventSubjectKindName = (typeof eventSubjectKinds)[number];
const subjectKindLiterals = [
  Type.Literal('inverter'),
  Type.Literal('battery'),
  Type.Literal('meter'),
  Type.Literal('weather'),
  Type.Literal('gateway'),
] as const;
export const EventSubjectKind = Type.Union([...subjectKindLiterals]);

/** One event with everything the list row and the detail drawer show. */
export const DeviceEvent = Type.Object({
  ...PlantEvent.properties,
  plantId: Nullable(Type.Integer()),
  plantName: Nullable(Type.String()),
  kind: Type.Union([...subjectKindLiterals, Type.Null()], { description: 'null when the device is gone' }),
  alias: Nullable(Type.String({ description: 'the device’s or gateway’s alias' })),
  pack: Nullable(Type.Integer({ description: 'battery pack (1 = master) of a pack-level battery event' })),
  action: Type.String({ description: 'suggested action, in the request language' }),
  acknowledged: Type.Boolean(),
  ackAt: Nullable(Instant),
  ackBy: Nullable(Type.String({ description: 'nickname or name of who acknowledged (never the e-mail)' })),
  ackNote: Nullable(Type.String()),
  canAck: Type.Boolean({ description: 'the caller may acknowledge it (operates the plant; not yet acknowledged)' }),
});

const dateFilters = {
  startDate: Type.Optional(Day),
  endDate: Type.Optional(Day),
};
/** Filters of one device's events. */
const deviceFilters = {
  level: Type.Optional(EventLevel),
  state: Type.Optional(EventState),
  acknowledged: Type.Optional(Type.Boolean()),
  ...dateFilters,
};
/** Shortest search text: one character would match nearly every SN, alias and plant name. */
export const EVENT_SEARCH_MIN = 2;
export const EVENT_SEARCH_MAX = 64;
/** Filters of the lists across plants. */
const listFilters = {
  plantId: Type.Optional(Id),
  sn: Type.Optional(Sn),
  search: Type.Optional(
    Type.String({
      minLength: EVENT_SEARCH_MIN,
      maxLength: EVENT_SEARCH_MAX,
      description:
        'part of the device’s or gateway’s SN, of its alias, or of the plant’s name (case-insensitive; % and _ are plain characters)',
    }),
  ),
  ...deviceFilters,
  timezone: Type.Optional(
    Type.String({ minLength: 1, maxLength: 64, description: 'IANA zone the dates are read in (default UTC)' }),
  ),
};

export const listEvents = endpoint({
  method: 'GET',
  path: '/api/v1/events',
  access: 'event.view',
  summary: `Events of the plants the caller can see, newest first: by plant, device or gateway SN, a search (part of an SN, alias or plant name), kind, level, state, acknowledgement, start dates (≤ ${limits.dateRangeDays} days)`,
  query: Type.Object({ ...PageQuery, ...listFilters, kind: Type.Optional(EventSubjectKind) }),
  data: Paged(DeviceEvent),
  tolerate: [ErrorCode.validation],
});

export const deviceEvents = endpoint({
  method: 'GET',
  path: '/api/v1/event/:sn',
  access: 'event.view',
  summary: `One device’s (or gateway’s) events, newest first; dates are plant-local days (≤ ${limits.dateRangeDays} days)`,
  params: Type.Object({ sn: Sn }),
  query: Type.Object({ ...PageQuery, ...deviceFilters }),
  data: Paged(DeviceEvent),
  tolerate: [ErrorCode.validation],
});

export const deviceOpenEvents = endpoint({
  method: 'GET',
  path: '/api/v1/event/:sn/realtime',
  access: 'event.view',
  summary: 'One device’s (or gateway’s) open events now, newest first',
  params: Type.Object({ sn: Sn }),
  data: Type.Array(DeviceEvent),
});

export const eventDetail = endpoint({
  method: 'GET',
  path: '/api/v1/event/:id/detail',
  access: 'event.view',
  summary: 'One event by id: code, text, suggested action, start, end, acknowledgement',
  params: Type.Object({ id: Id }),
  data: DeviceEvent,
});

export const ACK_NOTE_MAX = 255;
export const ackEvent = endpoint({
  method: 'POST',
  path: '/api/v1/event/:id/ack',
  access: 'event.view',
  writes: true,
  encoding: 'json',
  summary:
    'Acknowledge an event (open or closed), with an optional note: needs a caller who operates the plant (2 otherwise; visitors and read-only accounts never do); 207 if already acknowledged',
  params: Type.Object({ id: Id }),
  body: Type.Object(
    { note: Type.Optional(Type.String({ maxLength: ACK_NOTE_MAX, pattern: safeTextPattern })) },
    { additionalProperties: false },
  ),
  data: DeviceEvent,
  tolerate: [ErrorCode.already],
});

export const batteryEvents = endpoint({
  method: 'GET',
  path: '/api/v1/battery/events',
  access: 'battery.list.view',
  summary: `Battery events of the plants the caller can see (pack-level codes carry the pack), newest first (≤ ${limits.dateRangeDays} days)`,
  query: Type.Object({ ...PageQuery, ...listFilters }),
  data: Paged(DeviceEvent),
  tolerate: [ErrorCode.validation],
});

/** The downloads take the list filters; without dates they cover the last 90 days up to today. */
const downloadQuery = Type.Object({ ...listFilters, lan: Type.Optional(Type.String({ maxLength: 8 })) });

/** A kind's events as .xlsx in the request language, with the list filters. */
const kindEventsDownload = <const Path extends string, const Access extends 'inverter.export' | 'event.export'>(
  path: Path,
  access: Access,
  kind: string,
) =>
  endpoint({
    method: 'GET',
    path,
    access,
    summary: `${kind} events as .xlsx (the list filters; without dates the last ${limits.dateRangeDays} days), in the request language`,
    query: downloadQuery,
    data: Nothing,
    file: true,
    fileType: XLSX_MEDIA_TYPE,
    tolerate: [ErrorCode.validation],
  });
export const inverterEventsDownload = kindEventsDownload('/api/v1/inverter/events/download', 'inverter.export', 'Inverter');
export const batteryEventsDownload = kindEventsDownload('/api/v1/battery/events/download', 'event.export', 'Battery');

export const eventsDownload = endpoint({
  method: 'GET',
  path: '/api/v1/events/download',
  access: 'event.export',
  summary: `Events of every kind as .xlsx (the list filters and kind; without dates the last ${limits.dateRangeDays} days)`,
  query: Type.Object({ ...downloadQuery.properties, kind: Type.Optional(EventSubjectKind) }),
  data: Nothing,
  file: true,
  fileType: XLSX_MEDIA_TYPE,
  tolerate: [ErrorCode.validation],
});
