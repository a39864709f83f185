/** Routes of the maintenance log, the gateway's debug reply, maintenance functions and the public firmware change logs: thin. */
import { loggersApi as api } from '@sunfleet/contracts';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route.ts';
import { firmwareChangeLogs } from './firmware-logs.repo.ts';
import * as functions from './functions.service.ts';
import * as log from './loggers.service.ts';

export function loggerRoutes(app: FastifyInstance) {
  const deps = app.deps;
  const { db } = deps;
  route(app, api.logPage, ({ caller, query }) => log.logPage(db, caller, query));
  route(app, api.deviceLog, ({ caller, query }) => log.deviceLog(db, caller, query));
  route(app, api.inverterLog, ({ caller, params, query }) => log.inverterLog(db, caller, params.sn, query));
  route(app, api.plantLog, ({ caller, query }) => log.plantLog(db, caller, query));
  route(app, api.logContent, ({ caller, query }) => log.logContent(db, caller, query.id));
  route(app, api.debugSessions, ({ caller, query }) => log.debugSessions(db, caller, query));
  route(app, api.gatewayDebugReply, ({ caller, params, query }) =>
    log.gatewayDebugReply(deps, caller, params.sn, query.jobId, query.waitMs ?? 0),
  );
  route(app, api.listFunctions, ({ caller, query }) => functions.listFunctions(db, caller, query.all ?? false));
  route(app, api.getFunction, ({ params }) => functions.getFunction(db, params.id));
  route(app, api.checkFunction, async ({ query }) => {
    await functions.checkFunctionName(db, query.name, query.id);
    return null;
  });
  route(app, api.saveFunction, ({ body }) => functions.saveFunction(db, body));
  route(app, api.firmwareChangeLogs, ({ query }) => firmwareChangeLogs(db, query), {
    limit: { max: 120, minutes: 1 },
  });
}
