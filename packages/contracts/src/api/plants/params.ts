/** Path parameters, filters and inputs the plant endpoints share (not part of the API). */
import Type, { type TSchema } from 'typebox';
import { limits } from '../../limits.ts';
import { Id, IdParams } from '../../schemas.ts';
import { EMAIL_PATTERN } from '../../validation.ts';
import { PlantStatus } from './model.ts';

export const Account = Type.String({ pattern: EMAIL_PATTERN, maxLength: 254 });

export const PlantIdParams = IdParams;
export const SharePlantParams = Type.Object({ plantId: Id });
export const StationIdParams = Type.Object({ stationId: Id });

export const listFilters = {
  status: Type.Optional(PlantStatus),
  type: Type.Optional(Type.Integer({ minimum: -1, maximum: 2, default: -1, description: '-1 all' })),
  name: Type.Optional(Type.String({ maxLength: limits.plantName.max })),
};

export const Option = <T extends TSchema>(value: T) =>
  Type.Object({ value, count: Type.Integer({ description: 'visible plants with this value' }) });
