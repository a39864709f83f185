/** Operation-data routes (`/workdata/list`): thin. */
import { workdataApi as api } from '@sunfleet/contracts';
import type { FastifyInstance } from 'fastify';
import { route } from '../../../http/route.ts';
import { downloadWorkdata } from './download.ts';
import * as workdata from './workdata.service.ts';

export function workdataRoutes(app: FastifyInstance) {
  const { db } = app.deps;
  route(app, api.workdataParams, ({ caller, query, lan }) => workdata.workdataParams(db, caller, query.sn, lan));
  route(app, api.workdataDynamic, ({ caller, query, lan }) => workdata.workdataPage(db, caller, query, lan));
  route(app, api.workdataChart, ({ caller, query, lan }) => workdata.workdataChart(db, caller, query, lan));
  route(app, api.workdataEvents, ({ caller, query, lan }) => workdata.workdataEvents(db, caller, query, lan));
  route(app, api.workdataBatteryEvents, ({ caller, query, lan }) => workdata.workdataEvents(db, caller, query, lan, 'battery'));
  route(app, api.workdataDownload, ({ caller, query, lan, reply }) => downloadWorkdata(db, caller, query, lan, reply));
}
