/** HTTP request durations, labelled by route pattern (`/api/v1/plant/:id`), method and status class. */
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** Requests no route matched (unknown paths, the web app's pages): one label, not one per URL. */
export const UNMATCHED = '(unmatched)';

export function installHttpMetrics(app: FastifyInstance): void {
  const metrics = app.deps.metrics;
  if (!metrics) return;
  // The route as matched on arrival: a handler that answers through the not-found handler
  // (a missing upload) still counts under its own route.
  const matched = new WeakMap<FastifyRequest, string>();
  app.addHook('onRequest', async (req) => {
    if (req.routeOptions.url) matched.set(req, req.routeOptions.url);
  });
  app.addHook('onResponse', async (req, reply) => {
    const route = matched.get(req) ?? req.routeOptions.url ?? UNMATCHED;
    metrics.observeHttp(req.method, route, reply.statusCode, reply.elapsedTime);
  });
}
