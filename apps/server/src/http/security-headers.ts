/**
 * Helmet's security headers, worked out once and set on every reply. (The Fastify plugin builds
 * Helmet's middleware, parsing the CSP directives again, on every request: 2 % of the API's CPU
 * under the overview's load.) A route may still set its own header over one of these.
 */
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

/** Helmet's options; `imageSources` are origins beyond the portal's own that images may come from. */
const policy = (imageSources: readonly string[]): Parameters<typeof helmet>[0] => ({
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      // Ant Design writes its styles at run time.
      styleSrc: ["'self'", "'unsafe-inline'"],
      // The plant map's tile server, when one is configured.
      imgSrc: ["'self'", 'data:', 'blob:', ...imageSources],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      frameAncestors: ["'none'"],
      // Helmet's default would make browsers fetch everything over HTTPS, which breaks the
      // portal on plain HTTP (a LAN address); TLS termination, if any, is the proxy's job.
      upgradeInsecureRequests: null,
    },
  },
  crossOriginEmbedderPolicy: false,
});

/** The headers Helmet sets for `policy`, read off a response stand-in. */
export function securityHeaders(imageSources: readonly string[] = []): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  let failure: unknown;
  helmet(policy(imageSources))({} as never, res as never, (err?: unknown) => {
    failure = err;
  });
  if (failure) throw failure;
  return headers;
}

export function installSecurityHeaders(app: FastifyInstance): void {
  const tiles = app.deps.config.mapTiles;
  const headers = securityHeaders(tiles ? [tiles.imageSource] : []);
  app.addHook('onRequest', (_req, reply, done) => {
    reply.headers(headers);
    done();
  });
}
