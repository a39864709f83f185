/**
 * Response compression of the API's JSON: an answer of at least 1 KiB is sent brotli- or
 * gzip-encoded when the request's Accept-Encoding takes one (brotli first), with
 * `Vary: Accept-Encoding`; smaller answers, requests that accept neither, and every other
 * type go out as they are. Only the API's JSON is compressed: the xlsx downloads are zip
 * files already (and stream as they are written), the metrics text is scraped on loopback,
 * and the web app's files are sent as their precompressed copies or as they are
 * (`web-app.ts`): routes outside the API are left out altogether, since a file stream has no
 * Content-Type yet when the plugin looks and would be taken for JSON. Request bodies are not
 * decompressed: the API takes plain bodies only, so the body limit stays a limit on what is
 * parsed.
 */
import zlib from 'node:zlib';
import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/** Smaller answers fit a packet or two; compressing them costs more than it saves. */
export const COMPRESS_MIN_BYTES = 1024;
const JSON_TYPE = /^application\/json(?:;|$)/;
/** The paths of the API's JSON endpoints (not its docs, whose files stream like the web app's). */
const API_PATHS = /^\/(?:api\/v1|oauth|anonymous)\//;

/** Register before the routes: the plugin hooks each route as it is added. */
export async function installCompression(app: FastifyInstance): Promise<void> {
  // Runs before the plugin's own onRoute hook, which skips a route marked `compress: false`.
  app.addHook('onRoute', (r) => {
    if (!API_PATHS.test(r.url ?? '')) r.compress = false;
  });
  await app.register(compress, {
    globalCompression: true,
    globalDecompression: false,
    encodings: ['br', 'gzip'],
    threshold: COMPRESS_MIN_BYTES,
    customTypes: JSON_TYPE,
    // Quality 4: close to gzip's speed at a smaller size; 11 (zlib's default) costs tens of ms per answer.
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
  });
}
