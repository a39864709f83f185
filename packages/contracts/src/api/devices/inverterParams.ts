/** The inverter chart's parameter picker and saved parameter profiles. */
import Type from 'typebox';
import { endpoint } from '../../endpoint.ts';
import { ErrorCode } from '../../errors.ts';
import { limits } from '../../limits.ts';
import { Instant, Nullable, Sn } from '../../schemas.ts';
import { safeTextPattern } from '../../validation.ts';
import { ParamKey } from './inverters.ts';

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
  tolerate: [ErrorCode.inverterMissing],
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
  writes: true,
  encoding: 'json',
  summary: `Replace the caller’s parameter profiles (at most ${limits.parametersOrProfiles}; an empty list removes them all); parameters must be chartable keys`,
  body: Type.Object(
    { profiles: Type.Array(ParamProfile, { maxItems: limits.parametersOrProfiles }) },
    { additionalProperties: false },
  ),
  data: Type.Array(SavedParamProfile),
  tolerate: [ErrorCode.validation],
});
