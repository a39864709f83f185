/** Dictionaries: the choice lists of the plant form and the protocol list. */
import Type from 'typebox';
import { endpoint } from '../endpoint.ts';
import { LanQuery } from '../schemas.ts';

export const Currency = Type.Object({
  code: Type.String({ description: 'ISO 4217' }),
  name: Type.String({ description: 'in the request language' }),
  symbol: Type.String(),
});

export const currencies = endpoint({
  method: 'GET',
  path: '/api/v1/dict/currencies',
  access: 'user',
  summary: 'Currencies for the plant income settings',
  query: LanQuery,
  data: Type.Array(Currency),
});

export const TimeZone = Type.Object({
  id: Type.String({ description: 'IANA time zone' }),
  offset: Type.String({ description: 'current UTC offset, e.g. +01:00' }),
  offsetMinutes: Type.Integer(),
});

export const timezones = endpoint({
  method: 'GET',
  path: '/api/v1/dict/timezones',
  access: 'user',
  summary: 'IANA time zones with their current UTC offset, ordered by offset',
  data: Type.Array(TimeZone),
});

/** Plant types: ids shared with `plantsApi.PlantType`. */
export const plantTypeNames = {
  0: { en: 'Grid-tied', es: 'Conectada a red' },
  1: { en: 'Energy storage (AC-coupled)', es: 'Almacenamiento de energía (acoplado en CA)' },
  2: { en: 'Energy storage (DC-coupled)', es: 'Almacenamiento de energía (acoplado en CC)' },
} as const;

export const plantTypes = endpoint({
  method: 'GET',
  path: '/api/v1/dict/plantTypes',
  access: 'user',
  summary: 'Plant types with their names in the request language',
  query: LanQuery,
  data: Type.Array(Type.Object({ value: Type.Integer(), name: Type.String() })),
});

export const protocols = endpoint({
  method: 'GET',
  path: '/api/v1/dict/protocols',
  access: 'user',
  summary: 'The device protocols the server can decode',
  query: LanQuery,
  data: Type.Array(
    Type.Object({
      id: Type.String(),
      name: Type.String({ description: 'in the request language' }),
      kind: Type.String(),
      version: Type.String(),
    }),
  ),
});
