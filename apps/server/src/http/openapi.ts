/**
 * The API description's error side, generated in one place from what each route declares:
 * every reply that is not a success is the error envelope `{ code, msg, data }` (one shared
 * schema component, from the contracts), under the HTTP status the error handler really gives it.
 *
 * - 200: the success envelope, or a business error (code ≠ 0: 2 where a permission is
 *   declared and missing, "does not exist" codes for foreign or unknown ids, the route's own).
 * - 400: bad input (code 4), on routes that take params, a query or a body.
 * - 401: the access token is missing, invalid or expired, on every non-public route.
 * - 406: an upload that is not multipart/form-data, on upload routes.
 * - 408: a request that did not arrive in time (code 1); on every route.
 * - 413 / 415: a body too large / of a content type the route does not parse, where a body is taken.
 * - 414: a path parameter longer than the router takes, on routes with path parameters.
 * - 429: too many calls, on rate-limited routes (while rate limits are on).
 * - 431: the address or the headers over the server's header size; on every route.
 * - 500 and 503: a server fault, the store unreachable or the process overloaded; on every route.
 *
 * - Any other status a call gives for itself, as its contract declares (`errors`).
 *
 * A file download names the media type it really sends (an .xlsx its spreadsheet type).
 */

import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import { accessPermissions, type Endpoint, ErrorCode, ErrorEnvelopeSchema, errorText } from '@sunfleet/contracts';
import type { FastifyInstance } from 'fastify';
import { statusOfCode } from './errors.ts';

export const errorEnvelopeId = 'ErrorEnvelope';

const errorEnvelope = {
  ...ErrorEnvelopeSchema,
  $id: errorEnvelopeId,
  description:
    'Any reply that is not a success: a catalogue code other than 0, its text in the language asked for, no data ' +
    'but for bad input (code 4) the fields its message names.',
};

const envelopeRef = { $ref: `${errorEnvelopeId}#` };
const errorReply = (description: string) => ({ description, content: { 'application/json': { schema: envelopeRef } } });

/** Methods whose requests carry a body the server parses (bad JSON, size and content type apply). */
const takesBody = (ep: Endpoint) => ep.method !== 'GET';

/** The error replies of one route, by HTTP status. */
export function errorResponses(ep: Endpoint, rateLimited: boolean): Record<string, ReturnType<typeof errorReply>> {
  const out: Record<string, ReturnType<typeof errorReply>> = {};
  if (ep.params || ep.query || ep.body || takesBody(ep)) {
    const bad = ErrorCode.validation;
    out[statusOfCode(bad)] = errorReply(
      `Bad input: code ${bad}, "${errorText(bad, 'en')}: …" naming the field and the rule; \`data.fields\` lists the fields named`,
    );
  }
  if (ep.access !== 'public') out[401] = errorReply('The access token is missing, invalid or expired: code 401');
  if (ep.encoding === 'multipart') out[406] = errorReply('The upload is not multipart/form-data: code 4');
  out[408] = errorReply('The request did not arrive in time: code 1');
  if (takesBody(ep)) {
    out[413] = errorReply('The body or the upload is too large: code 4');
    out[415] = errorReply('The content type is not one the route parses: code 4');
  }
  if (ep.path.includes('/:')) out[414] = errorReply('A path parameter is too long: code 4');
  if (rateLimited) out[429] = errorReply('Too many calls: code 3; retry after the Retry-After header');
  out[431] = errorReply('The address or the headers are too large: code 4');
  for (const [status, when] of Object.entries(ep.errors ?? {})) out[status] = errorReply(when);
  out[500] = errorReply('A server fault: code 500 (the cause is logged, never sent)');
  out[503] = errorReply('The store is unreachable or the server is overloaded: code 503; retry after the Retry-After header');
  return out;
}

function businessErrors(ep: Endpoint): string {
  const permissions = accessPermissions(ep.access);
  const codes = [
    ...(permissions ? [`2 without the permission ${permissions.map((p) => `\`${p}\``).join(' or ')}`] : []),
    ...(ep.writes ? ['2 for a read-only account'] : []),
    ...(ep.tolerate ?? []).map(String),
  ];
  const who =
    ep.access === 'scrape'
      ? 'for a monitoring scraper only (`scrape`: from the loopback address, or with the metrics token); '
      : '';
  return `${who}a business error is the error envelope with HTTP 200${codes.length ? ` (codes include ${codes.join(', ')})` : ''}`;
}

/** The 200 reply: the success (an envelope, or a file) or a business error. */
function okResponse(ep: Endpoint, success: unknown) {
  if (ep.file) {
    return {
      description: `The file; ${businessErrors(ep)}`,
      content: {
        [ep.fileType ?? 'application/octet-stream']: { schema: { type: 'string', format: 'binary' } },
        'application/json': { schema: envelopeRef },
      },
    };
  }
  return { 'x-response-description': `Success (code 0); ${businessErrors(ep)}`, anyOf: [success, envelopeRef] };
}

/** Registers the envelope component and the swagger options that add each route's error replies. */
export function openapiOptions(app: FastifyInstance): Pick<FastifyDynamicSwaggerOptions, 'refResolver' | 'transform'> {
  app.addSchema(errorEnvelope);
  return {
    refResolver: {
      // Shared schemas keep their name as the component name (`#/components/schemas/ErrorEnvelope`).
      buildLocalReference: (json, _base, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
    transform: ({ schema, url, route }) => {
      const ep = route.config?.endpoint;
      if (!ep || !schema || schema.hide) return { schema, url };
      const response = schema.response as Record<string, unknown> | undefined;
      const rateLimited = !!route.config?.rateLimited;
      return {
        url,
        schema: { ...schema, response: { 200: okResponse(ep, response?.[200]), ...errorResponses(ep, rateLimited) } },
      };
    },
  };
}
