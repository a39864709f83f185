/**
 * Overload: while this process's event loop lags (the mean delay of its last sample over the
 * configured limit, or, when set, its busy share over the limit), a new request is refused at once
 * with HTTP 503, `Retry-After` and the error envelope (code 503), before authentication or any
 * other work, instead of queueing behind the requests already in and answering seconds later.
 * The health check and the metrics stay answered: an orchestrator and a scraper must still see the
 * process; so do the web app's files and pages (static, cheap, cached): refused, a user would get a
 * blank page instead of the app's own 'busy, try again' for the API call that was refused. Nothing is refused in the first two samples after the server is ready: they still
 * hold the work of starting up (migrations, loading), not load. Sampling and the thresholds are
 * @fastify/under-pressure's; the answer is ours.
 */
import underPressure from '@fastify/under-pressure';
import { systemApi } from '@sunfleet/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Overloaded } from './errors.ts';
import { isWebAppPath } from './web-app.ts';

/** Endpoints answered whatever the load. */
const alwaysAnswered: ReadonlySet<unknown> = new Set([systemApi.health, systemApi.metrics]);

export async function installPressure(app: FastifyInstance): Promise<void> {
  const pressure = app.deps.config.pressure;
  if (!pressure) return;
  const webApp = !!app.deps.config.webDist;
  const exempt = (req: FastifyRequest) =>
    alwaysAnswered.has(req.routeOptions.config.endpoint) || (webApp && isWebAppPath(req.url));
  let settled = false;
  app.addHook('onReady', async () => {
    setTimeout(() => {
      settled = true;
    }, 2 * pressure.sampleIntervalMs).unref();
  });
  await app.register(underPressure, {
    maxEventLoopDelay: pressure.maxEventLoopDelayMs,
    maxEventLoopUtilization: pressure.maxEventLoopUtilization,
    eventLoopUtilizationMode: 'interval',
    sampleInterval: pressure.sampleIntervalMs,
    retryAfter: pressure.retryAfterSec,
    // A rejected promise goes to the error handler (the envelope); nothing returned lets it through.
    pressureHandler: (req) => (!settled || exempt(req) ? undefined : Promise.reject(new Overloaded(pressure.retryAfterSec))),
  });
}
