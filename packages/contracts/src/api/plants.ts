/**
 * Plants: list, create and edit, sharing and transfer,
 * gateway binding, counts, map, events. Power is in W and energy in Wh (the web's power
 * formatter divides by 1000 or a million). A plant the caller cannot see answers 700; a plant
 * the caller sees but may not change answers 2.
 */
import Type, { type TSchema } from 'typebox';
import { endpoint, Paged, PageQuery } from '../endpoint.ts';
import { limits } from '../limits.ts';
import { Day, Id, IdParams, Instant, Nothing, Nullable, Sn } from '../schemas.ts';
import { EMAIL_PATTERN, PHONE_PATTERN, safeTextPattern } from '../validation.ts';

export const plantStatuses = ['normal', 'offline', 'warning', 'fault', 'upgrading'] as const;
export type PlantStatusName = (typeof plantStatuses)[number];
export const PlantStatus = Type.Union([
  Type.Literal('normal'),
  Type.Literal('offline'),
  Type.Literal('warning'),
  Type.Literal('fault'),
  Type.Literal('upgrading'),
]);

/** 0 grid-tied, 1 energy storage AC-coupled, 2 energy storage DC-coupled (dict/plantTypes). */
export const plantTypeIds = [0, 1, 2] as const;
export const PlantType = Type.Union([Type.Literal(0), Type.Literal(1), Type.Literal(2)]);

export const valuationMethods = ['constant', 'tou', 'generation'] as const;
export type ValuationMethodName = (typeof valuationMethods)[number];
export const ValuationMethod = Type.Union([Type.Literal('constant'), Type.Literal('tou'), Type.Literal('generation')], {
  description: 'constant price, time-of-use price (priceSegments), or price by generation',
});

/** The caller's relation to a plant: owner, share roles, company reach, system administrator. */
export const PlantRole = Type.Union([
  Type.Literal('owner'),
  Type.Literal('manager'),
  Type.Literal('visitor'),
  Type.Literal('company'),
  Type.Literal('admin'),
]);

export const plantSorts = ['createAt', 'name', 'capacity', 'power', 'todayEnergy', 'totalEnergy', 'lastUpdate'] as const;
export type PlantSort = (typeof plantSorts)[number];

const SafeText = (max: number, min = 0) => Type.String({ minLength: min, maxLength: max, pattern: safeTextPattern });
/** Checked again in the service: at most two decimals. */
const Decimal = (min: number, max: number) => Type.Number({ minimum: min, maximum: max, description: 'at most two decimals' });
const HourMinute = Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'HH:mm' });
/** A picture stored by `plant/thumbnail`; no other address is accepted. */
export const PLANT_IMAGE_PATTERN = '^/uploads/plants/[a-f0-9]{32}\\.(png|jpg)$';
const ImageUrl = Type.String({ pattern: PLANT_IMAGE_PATTERN });
const Key = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' });
const Account = Type.String({ pattern: EMAIL_PATTERN, maxLength: 254 });

export const PriceSegment = Type.Object(
  { start: HourMinute, end: HourMinute, price: Decimal(limits.price.min, limits.price.max) },
  { additionalProperties: false },
);

/** Every editable field of a plant; each is optional in an edit (only the fields sent change). */
const infoFields = {
  name: SafeText(limits.plantName.max, limits.plantName.min),
  capacity: Decimal(limits.capacity.min, limits.capacity.max),
  type: PlantType,
  commissioningDate: Nullable(Day),
  address: Nullable(SafeText(255)),
  longitude: Nullable(Type.Number()),
  latitude: Nullable(Type.Number()),
  timezone: Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone (dict/timezones)' }),
  picture: Nullable(ImageUrl),
  thumbnail: Nullable(ImageUrl),
  alias: Nullable(SafeText(32)),
};
const incomeFields = {
  currency: Nullable(Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 (dict/currencies)' })),
  valuationMethod: ValuationMethod,
  price: Nullable(Decimal(limits.price.min, limits.price.max)),
  priceSegments: Type.Array(PriceSegment, { maxItems: limits.priceSegments }),
  totalInvestment: Nullable(Decimal(0, limits.valueInput)),
  income: Nullable(Decimal(0, limits.valueInput)),
};
const contactFields = {
  contactName: Nullable(SafeText(64)),
  contactPhone: Nullable(Type.String({ pattern: PHONE_PATTERN })),
};
const optional = <T extends Record<string, TSchema>>(fields: T) =>
  Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, Type.Optional(v)])) as {
    [K in keyof T]: ReturnType<typeof Type.Optional<T[K]>>;
  };
const closed = { additionalProperties: false } as const;

export const PlantInfoInput = Type.Object(optional(infoFields), closed);
export const PlantIncomeInput = Type.Object(optional(incomeFields), closed);
export const PlantContactsInput = Type.Object(optional(contactFields), closed);
export const PlantEditInput = Type.Object(optional({ ...infoFields, ...incomeFields, ...contactFields }), closed);

export const GatewayClaim = Type.Object({ sn: Sn, key: Key }, closed);

export const PlantCreateInput = Type.Object(
  {
    name: infoFields.name,
    capacity: infoFields.capacity,
    type: infoFields.type,
    timezone: infoFields.timezone,
    ...optional({
      commissioningDate: infoFields.commissioningDate,
      address: infoFields.address,
      longitude: infoFields.longitude,
      latitude: infoFields.latitude,
      picture: infoFields.picture,
      thumbnail: infoFields.thumbnail,
      alias: infoFields.alias,
      ...incomeFields,
      ...contactFields,
      gateway: GatewayClaim,
    }),
  },
  closed,
);

const OwnerRef = Type.Object({
  id: Type.Integer(),
  account: Nullable(Type.String({ description: 'only for callers who can operate the plant' })),
  nickname: Nullable(Type.String()),
});
const CompanyRef = Type.Object({ id: Type.Integer(), name: Type.String() });

/** One row of the plant list: the columns an installer needs at a glance. */
export const PlantListItem = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  alias: Nullable(Type.String()),
  status: PlantStatus,
  type: PlantType,
  capacity: Type.Number({ description: 'kWp' }),
  power: Nullable(Type.Number({ description: 'W, now' })),
  todayEnergy: Type.Number({ description: 'Wh, the plant-local day' }),
  totalEnergy: Type.Number({ description: 'Wh' }),
  lastUpdate: Nullable(Instant),
  createdAt: Instant,
  alarms: Type.Integer({ description: 'open fault and warning events' }),
  owner: Nullable(OwnerRef),
  company: Nullable(CompanyRef),
  role: PlantRole,
  thumbnail: Nullable(Type.String()),
  address: Nullable(Type.String()),
  timezone: Type.String(),
});

export const PlantGateway = Type.Object({
  sn: Type.String(),
  alias: Nullable(Type.String()),
  online: Type.Boolean(),
  lastOnlineAt: Nullable(Instant),
});

/** A plant with every field. */
export const PlantDetail = Type.Object({
  ...PlantListItem.properties,
  commissioningDate: Nullable(Type.String()),
  longitude: Nullable(Type.Number()),
  latitude: Nullable(Type.Number()),
  picture: Nullable(Type.String()),
  currency: Nullable(Type.String()),
  valuationMethod: ValuationMethod,
  price: Nullable(Type.Number()),
  priceSegments: Type.Array(PriceSegment),
  totalInvestment: Nullable(Type.Number()),
  income: Nullable(Type.Number()),
  contactName: Nullable(Type.String({ description: 'only for callers who can operate the plant' })),
  contactPhone: Nullable(Type.String({ description: 'only for callers who can operate the plant' })),
  gateways: Type.Array(PlantGateway),
  canEdit: Type.Boolean(),
  canManage: Type.Boolean({ description: 'delete, share, transfer (owner rights)' }),
  updatedAt: Instant,
});

export const PlantCounts = Type.Object({
  total: Type.Integer(),
  normal: Type.Integer(),
  offline: Type.Integer(),
  warning: Type.Integer(),
  fault: Type.Integer(),
  upgrading: Type.Integer(),
});
export const EventCounts = Type.Object({
  total: Type.Integer({ description: 'open events' }),
  fault: Type.Integer(),
  warning: Type.Integer(),
  info: Type.Integer(),
});

const PlantIdParams = IdParams;
const SharePlantParams = Type.Object({ plantId: Id });
const StationIdParams = Type.Object({ stationId: Id });

const listFilters = {
  status: Type.Optional(PlantStatus),
  type: Type.Optional(Type.Integer({ minimum: -1, maximum: 2, default: -1, description: '-1 all' })),
  name: Type.Optional(Type.String({ maxLength: limits.plantName.max })),
};

export const checkGateway = endpoint({
  method: 'POST',
  path: '/api/v1/gateways/check',
  access: 'station.view',
  summary: 'Check a gateway SN and label key before binding: 305 unknown SN, 1006 wrong key, 301 bound to a plant',
  body: GatewayClaim,
  data: Type.Object({ sn: Type.String() }),
  tolerate: [301, 305, 1006],
});

export const createPlant = endpoint({
  method: 'POST',
  path: '/api/v1/plant',
  access: 'station.create',
  encoding: 'json',
  summary: 'Create a plant (optionally binding a gateway by SN and key); 10 for a bad longitude or latitude',
  body: PlantCreateInput,
  data: PlantDetail,
  tolerate: [4, 10, 301, 305, 1006],
});

export const listPlants = endpoint({
  method: 'GET',
  path: '/api/v1/plants',
  access: 'station.view',
  summary: 'The plants the caller can see: filtered, sorted (default createAt, order 2 = newest first), paged',
  query: Type.Object({
    ...PageQuery,
    ...listFilters,
    sort: Type.Optional(
      Type.Union(
        [
          Type.Literal('createAt'),
          Type.Literal('name'),
          Type.Literal('capacity'),
          Type.Literal('power'),
          Type.Literal('todayEnergy'),
          Type.Literal('totalEnergy'),
          Type.Literal('lastUpdate'),
        ],
        { default: 'createAt' },
      ),
    ),
    order: Type.Optional(
      Type.Union([Type.Literal(1), Type.Literal(2)], { default: 2, description: '1 ascending, 2 descending' }),
    ),
  }),
  data: Paged(PlantListItem),
});

export const getPlant = endpoint({
  method: 'GET',
  path: '/api/v1/plant/:id',
  access: 'station.view',
  summary: 'One plant with every field',
  params: PlantIdParams,
  data: PlantDetail,
  tolerate: [700],
});

export const editPlant = endpoint({
  method: 'POST',
  path: '/api/v1/plant/:id',
  access: 'station.edit',
  encoding: 'json',
  summary: 'Edit any plant fields (only those sent change)',
  params: PlantIdParams,
  body: PlantEditInput,
  data: PlantDetail,
  tolerate: [4, 10],
});

export const editPlantInfo = endpoint({
  method: 'POST',
  path: '/api/v1/plant/:id/info',
  access: 'station.edit',
  encoding: 'json',
  summary: 'Edit the basic information: name, capacity, type, dates, place, time zone, pictures, alias',
  params: PlantIdParams,
  body: PlantInfoInput,
  data: PlantDetail,
  tolerate: [4, 10],
});

export const editPlantIncome = endpoint({
  method: 'POST',
  path: '/api/v1/plant/:id/income',
  access: 'station.edit',
  encoding: 'json',
  summary: 'Edit currency, valuation method, price or time-of-use segments, investment and income',
  params: PlantIdParams,
  body: PlantIncomeInput,
  data: PlantDetail,
  tolerate: [4],
});

export const editPlantContacts = endpoint({
  method: 'POST',
  path: '/api/v1/plant/:id/contacts',
  access: 'station.edit',
  encoding: 'json',
  summary: 'Edit the contact name and phone (null clears one)',
  params: PlantIdParams,
  body: PlantContactsInput,
  data: PlantDetail,
});

export const deletePlant = endpoint({
  method: 'POST',
  path: '/api/v1/plant/:id/delete',
  access: 'station.delete',
  summary: 'Delete a plant (owner rights): its gateways and devices are unbound, its shares end',
  params: PlantIdParams,
  data: Nothing,
});

export const bindGateway = endpoint({
  method: 'POST',
  path: '/api/v1/plant/:id/gateway',
  access: 'station.gateway',
  summary: 'Bind a gateway by SN and key (its devices join the plant); to replace one, then unbind the old',
  params: PlantIdParams,
  body: GatewayClaim,
  data: Type.Object({ sn: Type.String() }),
  tolerate: [301, 305, 1006],
});

export const unbindGateway = endpoint({
  method: 'POST',
  path: '/api/v1/gateway/:sn/unbind',
  access: 'station.gateway',
  summary: 'Unbind a gateway from its plant (its devices leave the plant; history stays with the plant)',
  params: Type.Object({ sn: Sn }),
  data: Nothing,
  tolerate: [305],
});

export const overviewPlantCount = endpoint({
  method: 'GET',
  path: '/api/v1/overview/plantCount',
  access: 'station.view',
  summary: 'Plants the caller can see, by status',
  data: PlantCounts,
});

export const overviewEventCount = endpoint({
  method: 'GET',
  path: '/api/v1/overview/eventCount',
  access: 'station.view',
  summary: 'Open events of the plants the caller can see, by level',
  data: EventCounts,
});

export const userPlantCount = endpoint({
  method: 'GET',
  path: '/api/v1/user/:id/plantCount',
  access: 'station.view',
  summary: 'Plants the account owns or has been shared, by status (own id only)',
  params: IdParams,
  data: PlantCounts,
});

export const userEventCount = endpoint({
  method: 'GET',
  path: '/api/v1/user/:id/eventCount',
  access: 'station.view',
  summary: 'Open events of the plants the account owns or has been shared, by level (own id only)',
  params: IdParams,
  data: EventCounts,
});

export const transferPlant = endpoint({
  method: 'POST',
  path: '/api/v1/plant/:id/transfer',
  access: 'station.transfer',
  summary:
    'Give the plant to another account (owner rights): devices and history go with it, shares end, both are mailed; 4 no such account; at most 30 share and transfer look-ups per user in 10 minutes',
  params: PlantIdParams,
  query: Type.Object({ account: Account }),
  data: Nothing,
  tolerate: [4, 207],
});

export const uploadPicture = endpoint({
  method: 'POST',
  path: '/api/v1/plant/thumbnail',
  access: 'station.view',
  encoding: 'multipart',
  summary: `Store a plant picture or thumbnail (field "file"): JPG or PNG by content, at most ${limits.plantPictureBytes / 1024 / 1024} MB; needs station.create or station.edit`,
  data: Type.Object({ url: Type.String() }),
});

/** A share as its owner sees it: the account they typed, never the sharee's nickname. */
export const ShareUser = Type.Object({
  /** What `cancelShare` names. */
  userId: Type.Integer(),
  account: Type.String(),
  role: Type.Union([Type.Literal('manager'), Type.Literal('visitor')]),
  sharedAt: Instant,
});
/** The answer to a share: the share made, telling nothing of the account beyond that it exists. */
export const ShareMade = Type.Object({
  account: Type.String(),
  role: Type.Union([Type.Literal('manager'), Type.Literal('visitor')]),
  sharedAt: Instant,
});

export const getShareUsers = endpoint({
  method: 'GET',
  path: '/api/v1/plant/:plantId/getShareUsers',
  access: 'station.share',
  summary: 'Who the plant is shared with (owner only)',
  params: SharePlantParams,
  data: Type.Array(ShareUser),
});

export const cancelShare = endpoint({
  method: 'POST',
  path: '/api/v1/plant/:plantId/cancelShare',
  access: 'station.share',
  summary: 'End a share: the owner ends anyone’s, a user may end their own; effective on the next request',
  params: SharePlantParams,
  body: Type.Object({ userId: Type.Integer({ minimum: 1 }) }),
  data: Nothing,
});

export const sharePlant = endpoint({
  method: 'POST',
  path: '/api/v1/plant/:id/share',
  access: 'station.share',
  summary:
    'Share an own plant as manager or visitor (sharing again changes the role); 4 no such account, 701 self, 702 company user, 703 company plant; at most 30 share and transfer look-ups per user in 10 minutes',
  params: PlantIdParams,
  body: Type.Object({ account: Account, role: Type.Union([Type.Literal('manager'), Type.Literal('visitor')]) }),
  data: ShareMade,
  tolerate: [4, 701, 702, 703],
});

export const plantInverterCount = endpoint({
  method: 'GET',
  path: '/api/v1/plant/:id/inverterCount',
  access: 'station.view',
  summary: 'The plant’s inverters by status',
  params: PlantIdParams,
  data: PlantCounts,
});

export const plantEventCount = endpoint({
  method: 'GET',
  path: '/api/v1/plant/:id/eventCount',
  access: 'station.view',
  summary: 'The plant’s open events by level',
  params: PlantIdParams,
  data: EventCounts,
});

export const PlantInverter = Type.Object({
  id: Type.Integer(),
  sn: Type.String(),
  alias: Nullable(Type.String()),
  gatewaySn: Type.String(),
  status: PlantStatus,
  deviceType: Nullable(Type.Integer()),
  ratedPower: Nullable(Type.Number({ description: 'W' })),
  power: Nullable(Type.Number({ description: 'W' })),
  todayEnergy: Type.Number({ description: 'Wh, the plant-local day' }),
  lastUpdate: Nullable(Instant),
});

export const plantInverters = endpoint({
  method: 'GET',
  path: '/api/v1/plant/:stationId/inverters',
  access: 'station.view',
  summary: 'The plant’s inverters with their latest values',
  params: StationIdParams,
  query: Type.Object({ ...PageQuery }),
  data: Paged(PlantInverter),
});

export const plantsMap = endpoint({
  method: 'GET',
  path: '/api/v1/plants/map',
  access: 'station.view',
  summary: 'Visible plants that have coordinates, for the map (same filters as the list)',
  query: Type.Object(listFilters),
  data: Type.Array(
    Type.Object({
      id: Type.Integer(),
      name: Type.String(),
      status: PlantStatus,
      type: PlantType,
      capacity: Type.Number(),
      latitude: Type.Number(),
      longitude: Type.Number(),
    }),
  ),
});

const Option = <T extends TSchema>(value: T) =>
  Type.Object({ value, count: Type.Integer({ description: 'visible plants with this value' }) });
export const plantFilter = endpoint({
  method: 'GET',
  path: '/api/v1/plant/filter',
  access: 'station.view',
  summary: 'The list filter options with counts over the visible plants, and the sort columns',
  data: Type.Object({
    statuses: Type.Array(Option(PlantStatus)),
    types: Type.Array(Option(PlantType)),
    sorts: Type.Array(Type.String()),
    defaults: Type.Object({ type: Type.Literal(-1), sort: Type.Literal('createAt'), order: Type.Literal(2) }),
  }),
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

export const EventLevel = Type.Union([Type.Literal('fault'), Type.Literal('warning'), Type.Literal('info')]);
export const PlantEvent = Type.Object({
  id: Type.Integer(),
  sn: Type.String(),
  code: Type.String(),
  level: EventLevel,
  source: Type.String(),
  text: Type.String({ description: 'in the request language' }),
  startedAt: Instant,
  endedAt: Nullable(Instant),
});

export const plantEvents = endpoint({
  method: 'GET',
  path: '/api/v1/plant/:id/events',
  access: 'station.view',
  summary: `The plant’s events, newest first; a date range spans at most ${limits.dateRangeDays} days`,
  params: PlantIdParams,
  query: Type.Object({
    ...PageQuery,
    level: Type.Optional(EventLevel),
    state: Type.Optional(Type.Union([Type.Literal('open'), Type.Literal('closed')])),
    startDate: Type.Optional(Day),
    endDate: Type.Optional(Day),
  }),
  data: Paged(PlantEvent),
});
