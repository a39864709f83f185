/**
 * The one error vocabulary: a BusinessError carries a catalogue code (HTTP 200), bad input is
 * code 4 (HTTP 400, whether a schema, a handler or the body parser found it; `data.fields` lists
 * the fields its message names, when it names any), an AuthError
 * means the access token is missing, invalid or expired (HTTP 401), a store that is
 * unreachable or locked for now, or a process too busy to take a request now, is HTTP 503 (code
 * 503, with Retry-After). Anything else is a server fault whose message never reaches the client.
 */

import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { ErrorCode, errorText, type Language, toLanguage, type ValidationData } from '@sunfleet/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isStoreUnavailable } from '../db/faults.ts';
import { describeValidation, detailFields, type SchemaError, validationFields } from './validation.ts';

export class BusinessError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly detail?: string,
  ) {
    super(detail ?? `business error ${code}`);
  }
}
export class AuthError extends Error {}
/** Over a limit: HTTP 429 with code 3, and when to try again (whole seconds). */
export class TooManyRequests extends Error {
  constructor(readonly retryAfterSec: number) {
    super('too many requests');
  }
}
/** This process is overloaded (http/pressure.ts): HTTP 503 with code 503, and when to try again (whole seconds). */
export class Overloaded extends Error {
  constructor(readonly retryAfterSec: number) {
    super('overloaded');
  }
}
/** A request the server will not read (HTTP `status`, code 4); `detail` says why. */
export class RequestError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(detail);
  }
}

export const fail = (code: ErrorCode, detail?: string): never => {
  throw new BusinessError(code, detail);
};

/** A repeated parameter or header counts by its first value; anything but text counts as absent. */
const firstText = (value: unknown): string | undefined => {
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first : undefined;
};

/** The language of a response: `lan` query (its first value), then Accept-Language (its first language). */
export function requestLanguage(req: FastifyRequest): Language {
  const q = firstText((req.query as { lan?: unknown } | undefined)?.lan);
  return toLanguage(q ?? firstText(req.headers['accept-language'])?.split(',')[0]);
}

/** Bad input (code 4) is HTTP 400 wherever it is found; every other business code is HTTP 200. */
export const statusOfCode = (code: ErrorCode): number => (code === ErrorCode.validation ? 400 : 200);

/**
 * Codes whose message carries the detail: bad input names its field and rule, a device's refusal
 * its reason, a refused firmware or product delete the one in use.
 */
const detailed: ReadonlySet<number> = new Set([
  ErrorCode.validation,
  ErrorCode.deviceRefused,
  ErrorCode.firmwareInUse,
  ErrorCode.productInUse,
]);

/** Body parser failures that mean "the body is not JSON": bad input like any other. */
const malformedJson = new Set(['FST_ERR_CTP_INVALID_JSON_BODY', 'FST_ERR_CTP_EMPTY_JSON_BODY']);

/**
 * The multipart parser's own failures carry no status: a body without a boundary, cut off
 * mid-part, or not multipart at all. Bad input, like a malformed JSON body.
 */
const malformedMultipart = /boundary|multipart data|part header|end of form/i;

/** Seconds a client is asked to wait after a 503 (a reconnect or a released lock takes about that). */
const RETRY_AFTER_S = 2;

function send(reply: FastifyReply, status: number, code: number, msg: string, data: ValidationData | null = null) {
  // Errors bypass the route's response schema (whose `data` is the success shape).
  return reply.status(status).serializer(JSON.stringify).type('application/json; charset=utf-8').send({ code, msg, data });
}

/** Bad input's text with what was wrong: "Invalid input: body.name must not be empty". */
const invalid = (lan: Language, detail: string) => `${errorText(ErrorCode.validation, lan)}: ${detail}`;

/** The `data` of a code-4 answer: the fields named, or null when none is. */
const namedFields = (fields: string[]): ValidationData | null => (fields.length ? { fields } : null);

function validationMessage(err: FastifyError, lan: Language): string {
  if (!err.validation?.length) return errorText(ErrorCode.validation, lan);
  return invalid(lan, describeValidation(err.validation as SchemaError[], err.validationContext, lan));
}

/**
 * An error answered by a route that answers for itself (a file download, a webhook): the
 * envelope like any other error, with the catalogue text of `code` in the request's language.
 */
export function replyError(req: FastifyRequest, reply: FastifyReply, status: number, code: ErrorCode) {
  return send(reply, status, code, errorText(code, requestLanguage(req)));
}

/** `isSpaPath`: a GET for a page of the web app, answered with index.html (client-side routes). */
export function installErrorHandler(app: FastifyInstance, isSpaPath: (url: string) => boolean) {
  app.setErrorHandler((error: unknown, req, reply) => {
    const lan = requestLanguage(req);
    if (error instanceof BusinessError) {
      // A validation failure found by a handler names its field and rule like a schema failure does.
      const withDetail = detailed.has(error.code) && error.detail;
      const msg = withDetail ? `${errorText(error.code, lan)}: ${error.detail}` : errorText(error.code, lan);
      const data = withDetail && error.code === ErrorCode.validation ? namedFields(detailFields(error.detail!)) : null;
      return send(reply, statusOfCode(error.code), error.code, msg, data);
    }
    if (error instanceof AuthError) return send(reply, 401, ErrorCode.tokenFailed, errorText(ErrorCode.tokenFailed, lan));
    if (error instanceof TooManyRequests) {
      reply.header('retry-after', String(Math.max(1, Math.ceil(error.retryAfterSec))));
      return send(reply, 429, ErrorCode.tooManyRequests, errorText(ErrorCode.tooManyRequests, lan));
    }
    if (error instanceof Overloaded) {
      reply.header('retry-after', String(Math.max(1, Math.ceil(error.retryAfterSec))));
      return send(reply, 503, ErrorCode.storeUnavailable, errorText(ErrorCode.storeUnavailable, lan));
    }
    const bad = ErrorCode.validation;
    if (error instanceof RequestError) return send(reply, error.status, bad, invalid(lan, error.detail));
    const err = error as FastifyError;
    if (err.validation) {
      const fields = validationFields(err.validation as SchemaError[], err.validationContext);
      return send(reply, statusOfCode(bad), bad, validationMessage(err, lan), namedFields(fields));
    }
    if (err.code && malformedJson.has(err.code)) {
      return send(reply, statusOfCode(bad), bad, invalid(lan, 'the body is not valid JSON'));
    }
    if (!err.statusCode && malformedMultipart.test(err.message ?? '') && req.isMultipart?.()) {
      return send(reply, statusOfCode(bad), bad, invalid(lan, 'the multipart body is malformed'));
    }
    if (err.statusCode === 429) return send(reply, 429, ErrorCode.tooManyRequests, errorText(ErrorCode.tooManyRequests, lan));
    if (err.statusCode === 413 || err.code === 'FST_REQ_FILE_TOO_LARGE' || err.code === 'FST_FILES_LIMIT') {
      return send(reply, 413, bad, invalid(lan, 'the upload is too large'));
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      // Other malformed requests (wrong content type, bad content length): a client fault, code 4.
      const why = err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' ? 'unsupported content type' : 'malformed request';
      return send(reply, err.statusCode, bad, invalid(lan, why));
    }
    if (isStoreUnavailable(error)) {
      req.log.warn({ err }, 'store unavailable');
      reply.header('retry-after', String(RETRY_AFTER_S));
      return send(reply, 503, ErrorCode.storeUnavailable, errorText(ErrorCode.storeUnavailable, lan));
    }
    req.log.error({ err }, 'request failed');
    return send(reply, 500, ErrorCode.serverError, errorText(ErrorCode.serverError, lan));
  });
  app.setNotFoundHandler((req, reply) => {
    if (app.sendSpaIndex && req.method === 'GET' && isSpaPath(req.url)) return app.sendSpaIndex(reply);
    return send(reply, 404, ErrorCode.notFound, errorText(ErrorCode.notFound, requestLanguage(req)));
  });
}

/**
 * Requests refused before they reach a route: a path parameter over the router's length (414)
 * or a path that is not a valid URL component (400). In the envelope, code 4.
 */
export function frameworkErrors(error: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  const status = error.statusCode === 414 ? 414 : 400;
  const why = status === 414 ? 'the address is too long' : 'the address is malformed';
  return send(reply, status, ErrorCode.validation, invalid(requestLanguage(req), why));
}

/**
 * Requests Node's HTTP parser refuses before there is a request (headers or address over the
 * header size: 431; a request read too slowly: 408; anything else: 400), answered on the
 * socket in the envelope. There is no request to read a language from: English.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Duplex) {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, msg] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, ErrorCode.validation, invalid('en', "the request's address or headers are too large")]
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, ErrorCode.timeout, errorText(ErrorCode.timeout)]
        : [400, ErrorCode.validation, invalid('en', 'malformed request')];
  const body = JSON.stringify({ code, msg, data: null });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}
