/** Event and operation-data routes: thin. */
import { eventsApi as api } from '@sunfleet/contracts';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route.ts';
import { downloadEvents } from './downloads.ts';
import * as events from './events.service.ts';
import { workdataRoutes } from './workdata/routes.ts';

export function eventRoutes(app: FastifyInstance) {
  const { db } = app.deps;

  route(app, api.listEvents, ({ caller, query, lan }) => events.listEvents(db, caller, query, lan));
  route(app, api.batteryEvents, ({ caller, query, lan }) => events.listEvents(db, caller, query, lan, 'battery'));
  route(app, api.deviceEvents, ({ caller, params, query, lan }) => events.deviceEvents(db, caller, params.sn, query, lan));
  route(app, api.deviceOpenEvents, ({ caller, params, lan }) => events.deviceOpenEvents(db, caller, params.sn, lan));
  route(app, api.eventDetail, ({ caller, params, lan }) => events.eventDetail(db, caller, params.id, lan));
  route(app, api.ackEvent, ({ caller, params, body, lan }) => events.ackEvent(db, caller, params.id, body?.note, lan));

  route(app, api.eventsDownload, ({ caller, query, lan, reply }) => downloadEvents(db, caller, query, lan, query.kind, reply));
  route(app, api.inverterEventsDownload, ({ caller, query, lan, reply }) =>
    downloadEvents(db, caller, query, lan, 'inverter', reply),
  );
  route(app, api.batteryEventsDownload, ({ caller, query, lan, reply }) =>
    downloadEvents(db, caller, query, lan, 'battery', reply),
  );

  workdataRoutes(app);
}
