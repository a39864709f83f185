/** Builds the Fastify instance: plugins, error handling, every module's routes. Tests use it too. */
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { limits } from '@sunfleet/contracts';
import ajvFormats from 'ajv-formats';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type RouteOptions } from 'fastify';
import type { Logger } from 'pino';
import { createCommandChannel } from './commands/service.ts';
import type { Deps } from './deps.ts';
import { loadFirmwareSigner } from './firmware/signing.ts';
import { installBodyDepthLimit } from './http/body-depth.ts';
import { installCompression } from './http/compression.ts';
import { clientErrorHandler, frameworkErrors, installErrorHandler } from './http/errors.ts';
import { openapiOptions } from './http/openapi.ts';
import { installPressure } from './http/pressure.ts';
import { sharedSchemaCompilers } from './http/schema-compilers.ts';
import { installSecurityHeaders } from './http/security-headers.ts';
import { isWebAppPath, registerWebApp } from './http/web-app.ts';
import { silentLogger } from './log.ts';
import { installHttpMetrics } from './metrics/http.ts';
import { createMetrics } from './metrics/metrics.ts';
import { auditLogRoutes } from './modules/audit-log/routes.ts';
import { authRoutes } from './modules/auth/routes.ts';
import { companyRoutes } from './modules/companies/routes.ts';
import { customerRoutes } from './modules/customers/routes.ts';
import { demandResponseRoutes } from './modules/demand-response/routes.ts';
import { deviceRoutes } from './modules/devices/routes.ts';
import { dictRoutes } from './modules/dicts/routes.ts';
import { eventRoutes } from './modules/events/routes.ts';
import { registerFirmwareUseCheck } from './modules/firmware/in-use.ts';
import { firmwareRoutes } from './modules/firmware/routes.ts';
import { gatewayStockRoutes } from './modules/gateway-stock/routes.ts';
import { loggerRoutes } from './modules/loggers/routes.ts';
import { operationRoutes } from './modules/operations/routes.ts';
import { permissionRoutes } from './modules/permissions/routes.ts';
import { plantEnergyRoutes } from './modules/plant-energy/routes.ts';
import { plantRoutes } from './modules/plants/routes.ts';
import { reportRoutes } from './modules/reports/routes.ts';
import { settingRoutes } from './modules/settings/routes.ts';
import { systemRoutes } from './modules/system/routes.ts';
import { firmwareInUseByRollout } from './modules/upgrades/index.ts';
import { upgradeRoutes } from './modules/upgrades/routes.ts';
import { userRoutes } from './modules/users/routes.ts';
import { versionRoutes } from './modules/versions/routes.ts';
import { brokerHookRoutes } from './telemetry/broker/http-auth.ts';

declare module 'fastify' {
  interface FastifyInstance {
    routeTable: RouteOptions[];
  }
}

/** Paths served by plugins, not by endpoint contracts: the API docs. Public by design. */
export const pluginPublicPrefixes = ['/api/docs'];

export async function buildApp(
  given: Omit<Deps, 'commands' | 'firmwareSigner'> & Partial<Pick<Deps, 'commands' | 'firmwareSigner'>>,
  log: Logger | false = false,
): Promise<FastifyInstance> {
  const deps: Deps = {
    ...given,
    metrics: given.metrics ?? createMetrics({ dialect: given.dialect }),
    commands:
      given.commands ??
      createCommandChannel({ db: given.db, dialect: given.dialect, log: log || silentLogger, defaults: given.config.commands }),
    firmwareSigner: given.firmwareSigner ?? loadFirmwareSigner(given.config.dataDir),
  };
  const app: FastifyInstance = Fastify({
    ...(log ? { loggerInstance: log as unknown as FastifyBaseLogger } : { logger: false }),
    // Trust exactly the configured number of proxy hops: with "trust all", a client could
    // name any address in X-Forwarded-For and step around the per-address rate limits.
    trustProxy: deps.config.trustProxy > 0 ? (_addr: string, hop: number) => hop < deps.config.trustProxy : false,
    bodyLimit: 1024 * 1024,
    // Requests refused before a route or before a request (414, 431): in the envelope too.
    frameworkErrors,
    clientErrorHandler,
    schemaController: sharedSchemaCompilers,
    ajv: {
      // verbose: errors carry the failing schema and data, so a union's error names the right branch.
      customOptions: { coerceTypes: 'array', removeAdditional: false, useDefaults: true, allErrors: false, verbose: true },
      plugins: [ajvFormats as unknown as never],
    },
  });
  app.decorate('deps', deps);
  // Every route, for the route-table test and the docs: contract routes carry their endpoint.
  const routeTable: RouteOptions[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (r) => {
    routeTable.push(r);
  });
  installErrorHandler(app, (url) => isWebAppPath(url) && !!deps.config.webDist);

  installSecurityHeaders(app);
  installBodyDepthLimit(app);
  installHttpMetrics(app);
  // Overload refusals come before any other work, and are still counted by route.
  await installPressure(app);
  await installCompression(app);
  await app.register(formbody);
  await app.register(multipart, { limits: { fileSize: limits.plantPictureBytes, files: 1, fields: 20 } });
  await app.register(swagger, {
    ...openapiOptions(app),
    openapi: {
      info: { title: 'Sunfleet API', version: '1' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });

  systemRoutes(app);
  authRoutes(app);
  userRoutes(app);
  permissionRoutes(app);
  companyRoutes(app);
  customerRoutes(app);
  auditLogRoutes(app);
  demandResponseRoutes(app);
  plantRoutes(app);
  plantEnergyRoutes(app);
  reportRoutes(app);
  deviceRoutes(app);
  eventRoutes(app);
  dictRoutes(app);
  settingRoutes(app);
  operationRoutes(app);
  firmwareRoutes(app);
  loggerRoutes(app);
  versionRoutes(app);
  gatewayStockRoutes(app);
  upgradeRoutes(app);
  // The external broker's authentication and authorization hooks (internal: the hook secret).
  brokerHookRoutes(app);
  // Deleting a firmware image that a rollout sends is refused (a Set: registering again is a no-op).
  registerFirmwareUseCheck(firmwareInUseByRollout);

  if (deps.config.webDist) await registerWebApp(app, deps.config.webDist);
  return app;
}
