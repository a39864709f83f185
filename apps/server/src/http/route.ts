/**
 * Routes are registered from endpoint contracts (packages/contracts): the contract gives the
 * method, path, access rule and schemas; this wires the schemas into Fastify (validation,
 * response whitelist, OpenAPI), authenticates the caller, enforces the declared permission,
 * and wraps the handler's result in the `{ code, msg, data }` envelope.
 */
import type { BodyOf, DataOf, Endpoint, Language, ParamsOf, QueryOf } from '@sunfleet/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import Type from 'typebox';
import type { Caller } from '../access/caller.ts';
import { authenticate } from './auth.ts';
import { BusinessError, requestLanguage } from './errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    caller?: Caller;
  }
  interface FastifyContextConfig {
    endpoint?: Endpoint;
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
  ctx: RouteContext<E, E['access'] extends 'public' ? Caller | undefined : Caller>,
) => Promise<DataOf<E>> | DataOf<E>;

/** At most `max` calls in `minutes` per client address (and per account, with byAccount). */
export interface Limit {
  max: number;
  minutes: number;
  byAccount?: boolean;
  /** Whom to count instead (the client address by default); null: this call is not counted. */
  key?: (req: FastifyRequest) => string | null;
  /** Limits that share a name count together, across routes (default: this route's own count). */
  name?: string;
}

export interface RouteOptions {
  limit?: Limit;
}

type Limiter = (req: FastifyRequest, reply: FastifyReply) => Promise<void>;
/** The subject each request is counted as, for the named limiters (one key generator serves every route). */
const subjects = new WeakMap<FastifyRequest, string>();
/** One limiter per name and app (the deps object is the app's identity across plugin contexts). */
const namedLimiters = new WeakMap<object, Map<string, Limiter>>();

function namedLimiter(app: FastifyInstance, name: string, limit: Limit): Limiter {
  let byName = namedLimiters.get(app.deps);
  if (!byName) {
    byName = new Map();
    namedLimiters.set(app.deps, byName);
  }
  let limiter = byName.get(name);
  if (!limiter) {
    limiter = app.rateLimit({
      max: limit.max,
      timeWindow: limit.minutes * 60_000,
      keyGenerator: (req) => subjects.get(req) ?? req.ip,
    }) as unknown as Limiter;
    byName.set(name, limiter);
  }
  return limiter;
}

function rateLimitOf(req: FastifyRequest, limit: Limit): string | null {
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

export function route<E extends Endpoint>(app: FastifyInstance, ep: E, handler: Handler<E>, options: RouteOptions = {}) {
  const limit = app.deps.config.rateLimits ? options.limit : undefined;
  // A named limit is this route's pre-handler on the name's shared counter; any other, the route's own.
  const named = limit?.name ? namedLimiter(app, limit.name, limit) : undefined;
  const shared: Limiter | undefined =
    limit && named
      ? async (req, reply) => {
          const subject = rateLimitOf(req, limit);
          if (subject === null) return;
          subjects.set(req, subject);
          await named(req, reply);
        }
      : undefined;
  const rateLimit =
    limit && !named
      ? {
          max: limit.max,
          timeWindow: limit.minutes * 60_000,
          keyGenerator: (req: FastifyRequest) => rateLimitOf(req, limit) ?? '',
          ...(limit.key ? { allowList: (req: FastifyRequest) => rateLimitOf(req, limit) === null } : {}),
        }
      : undefined;
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
  if (ep.params) schema.params = ep.params;
  if (ep.query) schema.querystring = ep.query;
  if (ep.body && ep.encoding !== 'multipart') schema.body = ep.body;
  if (ep.access !== 'public') schema.security = [{ bearer: [] }];
  if (!ep.file) schema.response = { 200: Type.Object({ code: Type.Integer(), msg: Type.String(), data: ep.data }) };

  app.route({
    method: ep.method,
    url: ep.path,
    schema,
    config: { endpoint: ep, ...(rateLimit ? { rateLimit } : {}) },
    ...(shared ? { preHandler: shared } : {}),
    // onRequest, before the body is parsed or validated: without a valid token the answer is
    // 401 whatever the input, and nothing about the input schema leaks.
    onRequest: async (req) => {
      if (ep.access === 'public') return;
      const caller = await authenticate(app, req);
      req.caller = caller;
      if (ep.access !== 'user' && !caller.grants.has(ep.access)) throw new BusinessError(2);
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
      return { code: 0, msg: 'ok', data: data ?? null };
    },
  });
}
