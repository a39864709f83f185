/** Dictionary routes: any signed-in account. */
import { dictsApi as api } from '@sunfleet/contracts';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route.ts';
import * as dicts from './dicts.ts';

export function dictRoutes(app: FastifyInstance) {
  route(app, api.currencies, ({ lan }) => dicts.currencies(lan));
  route(app, api.timezones, () => dicts.timezones());
  route(app, api.plantTypes, ({ lan }) => dicts.plantTypes(lan));
  route(app, api.protocols, ({ lan }) => dicts.protocols(lan));
}
