/** A plant: create (with or without a gateway), list, detail, edits by section, delete, its picture. */
import Type from 'typebox';
import { endpoint, Paged, PageQuery } from '../../endpoint.ts';
import { ErrorCode } from '../../errors.ts';
import { limits } from '../../limits.ts';
import { Nothing } from '../../schemas.ts';
import {
  GatewayClaim,
  PlantContactsInput,
  PlantCreateInput,
  PlantDetail,
  PlantEditInput,
  PlantIncomeInput,
  PlantInfoInput,
  PlantListItem,
} from './model.ts';
import { listFilters, PlantIdParams } from './params.ts';

export const checkGateway = endpoint({
  method: 'POST',
  path: '/api/v1/gateways/check',
  access: 'station.view',
  summary: 'Check a gateway SN and label key before binding: 1006 unknown SN or wrong key (alike), 301 bound to a plant',
  body: GatewayClaim,
  data: Type.Object({ sn: Type.String() }),
  tolerate: [ErrorCode.gatewayUsed, ErrorCode.gatewayMissing, ErrorCode.gatewayCredentials],
});

export const createPlant = endpoint({
  method: 'POST',
  path: '/api/v1/plant',
  access: 'station.create',
  writes: true,
  encoding: 'json',
  summary: 'Create a plant (optionally binding a gateway by SN and key); 10 for a bad longitude or latitude',
  body: PlantCreateInput,
  data: PlantDetail,
  tolerate: [
    ErrorCode.validation,
    ErrorCode.coordinates,
    ErrorCode.gatewayUsed,
    ErrorCode.gatewayMissing,
    ErrorCode.gatewayCredentials,
  ],
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
  tolerate: [ErrorCode.plantMissing],
});

export const editPlant = endpoint({
  method: 'POST',
  path: '/api/v1/plant/:id',
  access: 'station.edit',
  writes: true,
  encoding: 'json',
  summary: 'Edit any plant fields (only those sent change)',
  params: PlantIdParams,
  body: PlantEditInput,
  data: PlantDetail,
  tolerate: [ErrorCode.validation, ErrorCode.coordinates],
});

export const editPlantInfo = endpoint({
  method: 'POST',
  path: '/api/v1/plant/:id/info',
  access: 'station.edit',
  writes: true,
  encoding: 'json',
  summary: 'Edit the basic information: name, capacity, type, dates, place, time zone, pictures, alias',
  params: PlantIdParams,
  body: PlantInfoInput,
  data: PlantDetail,
  tolerate: [ErrorCode.validation, ErrorCode.coordinates],
});

export const editPlantIncome = endpoint({
  method: 'POST',
  path: '/api/v1/plant/:id/income',
  access: 'station.edit',
  writes: true,
  encoding: 'json',
  summary: 'Edit currency, valuation method, price or time-of-use segments, investment and income',
  params: PlantIdParams,
  body: PlantIncomeInput,
  data: PlantDetail,
  tolerate: [ErrorCode.validation],
});

export const editPlantContacts = endpoint({
  method: 'POST',
  path: '/api/v1/plant/:id/contacts',
  access: 'station.edit',
  writes: true,
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
  writes: true,
  summary: 'Delete a plant (owner rights): its gateways and devices are unbound, its shares end',
  params: PlantIdParams,
  data: Nothing,
});

export const uploadPicture = endpoint({
  method: 'POST',
  path: '/api/v1/plant/thumbnail',
  // The create and the edit form both upload before they save.
  access: ['station.create', 'station.edit'],
  writes: true,
  encoding: 'multipart',
  summary: `Store a plant picture or thumbnail (field "file"): JPG or PNG by content, at most ${limits.plantPictureBytes / 1024 / 1024} MB`,
  data: Type.Object({ url: Type.String() }),
});
