/**
 * The built web app (WEB_DIST) as static files, with the caching and compression rules:
 * - a text file is sent as its precompressed `.br` or `.gz` copy (written at build time beside
 *   it) when the browser accepts that encoding, brotli before gzip, else as it is; every such
 *   answer says `Vary: Accept-Encoding`;
 * - files under `/assets/` carry a content hash in their name: cached for a year, immutable,
 *   without validators (never revalidated) and without the security headers that only a
 *   document reads (CSP, framing, opener, cross-domain policies): a page loads dozens of them,
 *   and those headers were a kilobyte each. Scripts and styles keep `nosniff`, the
 *   cross-origin resource policy, the referrer policy and HSTS;
 * - the HTML (`/`, `/index.html` and every client-side route, answered with index.html) is
 *   revalidated on each use (`no-cache`), so a deploy is picked up at the next navigation;
 * - other files (brand logos, robots.txt) keep their names across deploys: cached an hour.
 */
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** The API's paths; every other path is the web app's (a file of the build, or a client-side route). */
const apiPrefixes = ['/api/', '/oauth/', '/anonymous/', '/uploads/', '/healthz', '/internal/'];
export const isWebAppPath = (url: string) => !apiPrefixes.some((p) => url.startsWith(p));

export const CACHE_HASHED = 'public, max-age=31536000, immutable';
export const CACHE_HTML = 'no-cache';
export const CACHE_OTHER = 'public, max-age=3600';

/** Security headers that apply to documents only: not sent with the hashed scripts and styles. */
export const DOCUMENT_ONLY_HEADERS = [
  'content-security-policy',
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];

declare module 'fastify' {
  interface FastifyInstance {
    /** Answer with the web app's index.html (a client-side route); absent without a built app. */
    sendSpaIndex?: (reply: FastifyReply) => FastifyReply;
  }
}

/** The Cache-Control of a file of the build, by its path relative to the build folder. */
export function cacheControlOf(relative: string): string {
  const file = relative.replace(/\\/g, '/').replace(/\.(br|gz)$/, '');
  if (file.startsWith('assets/')) return CACHE_HASHED;
  if (file.endsWith('.html')) return CACHE_HTML;
  return CACHE_OTHER;
}

/** Serve the build in `dist` when it has an index.html; returns whether it does. */
export async function registerWebApp(app: FastifyInstance, dist: string): Promise<boolean> {
  if (!fs.existsSync(path.join(dist, 'index.html'))) return false;
  await app.register(fastifyStatic, {
    root: dist,
    // One route per file found at start-up; the compressed copies are no routes of their own,
    // only other encodings of the file they sit beside.
    wildcard: false,
    globIgnore: ['**/*.br', '**/*.gz'],
    index: false,
    preCompressed: true,
    cacheControl: false,
    setHeaders: (raw, file) => {
      const reply = raw as unknown as FastifyReply;
      const cacheControl = cacheControlOf(path.relative(dist, file));
      reply.header('cache-control', cacheControl);
      if (cacheControl === CACHE_HASHED)
        for (const name of [...DOCUMENT_ONLY_HEADERS, 'etag', 'last-modified']) reply.removeHeader(name);
    },
  });
  const sendIndex = (reply: FastifyReply) => reply.sendFile('index.html');
  app.get('/', { schema: { hide: true } }, (_req, reply) => sendIndex(reply));
  app.decorate('sendSpaIndex', sendIndex);
  return true;
}
