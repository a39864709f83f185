/**
 * Routes are registered from endpoint contracts (packages/contracts): the contract gives the
 * method, path, access rule, whether the call writes, and schemas; this wires the schemas into
 * Fastify (validation, response whitelist, OpenAPI), authenticates the caller, enforces the
 * declared permission and the read-only rule, and wraps the handler's result in the
 * `{ code, msg, data }` envelope.
 */
import {
  type BodyOf,
  type DataOf,
  type Endpoint,
  ErrorCode,
  type Language,
  type ParamsOf,
  permits,
  type QueryOf,
} from '@sunfleet/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import Type from 'typebox';
import type { Caller } from '../access/caller.ts';
import type { Db } from '../db/index.ts';
import { authenticate, authorizeBrokerHook, authorizeScrape } from './auth.ts';
import { BusinessError, requestLanguage, TooManyRequests } from './errors.ts';
import { hit, throttleKey } from './throttle.ts';
import type { SchemaError } from './validation.ts';

declare module 'fastify' {
  interface FastifyRequest {
    caller?: Caller;
  }
  interface FastifyContextConfig {
    endpoint?: Endpoint;
    /** The route counts its calls against a limit (429 over it). */
    rateLimited?: boolean;
  }
}

export interface RouteContext<E extends Endpoint, C = Caller> {
  params: ParamsOf<E>;
  query: QueryOf<E>;
  body: BodyOf<E>;
  caller: C;
  lan: Language;
  req: FastifyRequest;
  reply: FastifyReply;
}

type Handler<E extends Endpoint> = (
  ctx: RouteContext<E, E['access'] extends 'public' | 'scrape' | 'broker' ? Caller | undefined : Caller>,
) => Promise<DataOf<E>> | DataOf<E>;

/** At most `max` calls in `minutes`, counted in the throttle store (so across server processes). */
export interface Limit {
  max: number;
  minutes: number;
  /** Per account: a signed-in caller by user id, anyone else by client address and the account named in the input. */
  byAccount?: boolean;
  /** Whom to count instead (the client address by default); null: this call is not counted. */
  key?: (req: FastifyRequest) => string | null;
  /** Limits that share a name count together, across routes (default: this route's own count). */
  name?: string;
}

export interface RouteOptions {
  limit?: Limit | readonly Limit[];
}

function rateLimitOf(req: FastifyRequest, limit: Limit) {
  if (limit.key) return limit.key(req);
  if (!limit.byAccount) return req.ip;
  // A signed-in caller is limited as an account wherever it calls from (the hook runs after authentication).
  if (req.caller) return `user:${req.caller.user.id}`;
  const input = { ...(req.query as object), ...(typeof req.body === 'object' ? (req.body as object) : {}) } as Record<
    string,
    unknown
  >;
  const account = input.account ?? input.email ?? input.username;
  return `${req.ip}|${typeof account === 'string' ? account.toLowerCase() : ''}`;
}

/** `lan` given more than once counts by its first value, before validation, on every route. */
function firstLan(req: FastifyRequest) {
  const query = req.query as Record<string, unknown> | undefined;
  if (query && Array.isArray(query.lan)) query.lan = query.lan[0];
}

/** The first number in `value` that is not finite (Infinity, or 1e309 read as it), with its path. */
function nonFinite(value: unknown, at: string, depth = 0): string | null {
  if (typeof value === 'number') return Number.isFinite(value) ? null : at;
  if (depth > 32 || value === null || typeof value !== 'object') return null;
  for (const [key, v] of Object.entries(value)) {
    const found = nonFinite(v, `${at}/${key}`, depth + 1);
    if (found !== null) return found;
  }
  return null;
}

/**
 * A number of the input is finite: a numeric field given as `Infinity` or `1e309` passes the
 * schema's type (its coercion keeps the value) but is no count, page or size; bad input, code 4.
 */
function refuseNonFinite(req: FastifyRequest) {
  for (const [context, value] of [
    ['querystring', req.query],
    ['params', req.params],
    ['body', req.body],
  ] as const) {
    const at = nonFinite(value, '');
    if (at === null) continue;
    const validation: SchemaError[] = [{ instancePath: at, schemaPath: '#/finite', keyword: 'finite', params: {} }];
    throw Object.assign(new Error(`${context}${at} is not finite`), { validation, validationContext: context });
  }
}

/** The largest integer the store keeps in an integer column (PostgreSQL's `integer`, the ids). */
export const STORE_INT_MAX = 2_147_483_647;

/**
 * A request schema whose integers are at most `STORE_INT_MAX` unless its contract gives a maximum
 * of its own: an id, page or count past it is bad input (code 4), never a query the store refuses
 * (PostgreSQL: out of range; SQLite: an OFFSET past 2^63). A copy: the contract stays as it is.
 */
export function storeBounded<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map(storeBounded) as T;
  if (!schema || typeof schema !== 'object') return schema;
  // Its enumerable keys only: the JSON Schema, without the builder's own markers.
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) out[key] = storeBounded(value);
  if (out.type === 'integer' && out.maximum === undefined && out.exclusiveMaximum === undefined) out.maximum = STORE_INT_MAX;
  return out as T;
}

/** Count this call against each limit; over any of them: 429 (code 3) with the wait until its window ends. */
async function enforceLimits(db: Db, req: FastifyRequest, limits: readonly { limit: Limit; name: string }[]) {
  const at = Date.now();
  let retryAfterMs = 0;
  for (const { limit, name } of limits) {
    const subject = rateLimitOf(req, limit);
    if (subject === null) continue;
    const windowMs = limit.minutes * 60_000;
    const hits = await hit(db, throttleKey(name, subject), windowMs, at);
    if (hits.count > limit.max) retryAfterMs = Math.max(retryAfterMs, hits.windowStart + windowMs - at);
  }
  if (retryAfterMs > 0) throw new TooManyRequests(retryAfterMs / 1000);
}

export function route<E extends Endpoint>(app: FastifyInstance, ep: E, handler: Handler<E>, options: RouteOptions = {}) {
  const limits =
    options.limit && app.deps.config.rateLimits
      ? ([] as Limit[]).concat(options.limit).map((limit, i) => ({ limit, name: limit.name ?? `${ep.method} ${ep.path}#${i}` }))
      : [];
  const schema: Record<string, unknown> = {
    summary: ep.summary,
    tags: [
      ep.path
        .split('/')
        .filter(Boolean)
        .slice(0, ep.path.startsWith('/api/v1/') ? 3 : 1)
        .pop() ?? 'root',
    ],
  };
  if (ep.params) schema.params = storeBounded(ep.params);
  if (ep.query) schema.querystring = storeBounded(ep.query);
  if (ep.body && ep.encoding !== 'multipart') schema.body = storeBounded(ep.body);
  if (ep.access !== 'public') schema.security = [{ bearer: [] }];
  // Internal calls (the broker's hooks) are not part of the API description.
  if (ep.access === 'broker') schema.hide = true;
  if (!ep.file) schema.response = { 200: Type.Object({ code: Type.Integer(), msg: Type.String(), data: ep.data }) };

  app.route({
    method: ep.method,
    url: ep.path,
    schema,
    config: { endpoint: ep, rateLimited: limits.length > 0 },
    // onRequest, before the body is parsed or validated: without a valid token the answer is
    // 401 whatever the input, and nothing about the input schema leaks.
    onRequest: async (req) => {
      if (ep.access === 'public') return;
      if (ep.access === 'scrape') return authorizeScrape(req, app.deps.config.metricsToken);
      if (ep.access === 'broker') return authorizeBrokerHook(req, app.deps.config.mqtt.hookSecret);
      const caller = await authenticate(app, req);
      req.caller = caller;
      if (!permits(ep.access, caller.grants)) throw new BusinessError(ErrorCode.noPermission);
      // A read-only account reads only: a call that writes refuses it, whatever it holds.
      if (ep.writes && caller.user.read_only) throw new BusinessError(ErrorCode.noPermission);
    },
    preValidation: async (req) => firstLan(req),
    // After authentication and validation: a call is counted as the caller it is, with its input.
    preHandler: async (req) => {
      refuseNonFinite(req);
      if (limits.length > 0) await enforceLimits(app.deps.db, req, limits);
    },
    handler: async (req, reply) => {
      const data = await handler({
        params: req.params as ParamsOf<E>,
        query: req.query as QueryOf<E>,
        body: req.body as BodyOf<E>,
        caller: req.caller as Caller,
        lan: requestLanguage(req),
        req,
        reply,
      });
      if (ep.file || reply.sent) return reply;
      return { code: ErrorCode.ok, msg: 'ok', data: data ?? null };
    },
  });
}
