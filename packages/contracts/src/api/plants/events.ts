/** A plant's events. */
import Type from 'typebox';
import { endpoint, Paged, PageQuery } from '../../endpoint.ts';
import { limits } from '../../limits.ts';
import { Day, Instant, Nullable } from '../../schemas.ts';
import { PlantIdParams } from './params.ts';

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
