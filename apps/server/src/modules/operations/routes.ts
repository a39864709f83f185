/** Routes of power and diagnostics (inverter boot, shutdown, debug; gateway restart, debug, setting switch): thin. */
import { commandsApi as api } from '@sunfleet/contracts';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route.ts';
import * as ops from './operations.service.ts';

export function operationRoutes(app: FastifyInstance) {
  const deps = app.deps;
  route(app, api.inverterBoot, ({ caller, params }) => ops.powerInverter(deps, caller, params.sn, true));
  route(app, api.inverterShutdown, ({ caller, params }) => ops.powerInverter(deps, caller, params.sn, false));
  route(app, api.inverterDebug, ({ caller, params, body }) => ops.debugInverter(deps, caller, params.sn, body.code));
  route(app, api.inverterDebugReply, ({ caller, params, query }) =>
    ops.inverterDebugReply(deps, caller, params.sn, query.jobId, query.waitMs ?? 0),
  );
  route(app, api.restartGateways, ({ caller, params }) => ops.restartGateways(deps, caller, ops.parseGatewaySns(params.gsns)));
  route(app, api.batchRestartGateways, ({ caller, body }) => ops.restartGateways(deps, caller, body.sns));
  route(app, api.restartProgress, ({ caller, params }) => ops.restartProgress(deps, caller, params.batchId));
  route(app, api.gatewayDebug, ({ caller, params, body }) => ops.debugGateway(deps, caller, params.sn, body.code));
  route(app, api.gatewaySettingSwitch, ({ caller, params, body }) =>
    ops.switchGatewaySetting(deps, caller, params.sn, body.name, body.value),
  );
}
