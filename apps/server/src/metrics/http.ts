/** HTTP request durations, labelled by route pattern (`/api/v1/plant/:id`), method and status class. */
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** Requests no route matched (unknown paths, the web app's pages): one label, not one per URL. */
export const UNMATCHED = '(unmatched)';
/** Files served as they are (the web app's assets, one route per file): one label for all. */
export const STATIC = '(static)';

/** The label of a matched route: its contract's path, a plugin's pattern, or one for all files. */
function routeLabel(req: FastifyRequest): string | undefined {
  const url = req.routeOptions.url;
  if (!url) return undefined;
  if (req.routeOptions.config.endpoint) return url;
  return /[:*]/.test(url) ? url : STATIC;
}

export function installHttpMetrics(app: FastifyInstance): void {
  const metrics = app.deps.metrics;
  if (!metrics) return;
  // The route as matched on arrival: a handler that answers through the not-found handler
  // (a missing upload) still counts under its own route.
  const matched = new WeakMap<FastifyRequest, string>();
  app.addHook('onRequest', async (req) => {
    const label = routeLabel(req);
    if (label) matched.set(req, label);
  });
  app.addHook('onResponse', async (req, reply) => {
    metrics.observeHttp(req.method, matched.get(req) ?? UNMATCHED, reply.statusCode, reply.elapsedTime);
  });
}
