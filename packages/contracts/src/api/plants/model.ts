/** The plant as the API shows it: statuses, types, valuation, roles, sorts, the editable fields, list rows, detail and counts. */
import Type, { type TSchema } from 'typebox';
import { limits } from '../../limits.ts';
import { Day, Instant, Nullable, Sn } from '../../schemas.ts';
import { PHONE_PATTERN, safeTextPattern } from '../../validation.ts';

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
  canEdit: Type.Boolean({ description: 'edit the plant, its gateways and devices (not a visitor, not a read-only account)' }),
  canManage: Type.Boolean({ description: 'delete, share, transfer (owner rights)' }),
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
