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
import { authenticate, authorizeScrape } from './auth.ts';
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
  ctx: RouteContext<E, E['access'] extends 'public' | 'scrape' ? Caller | undefined : Caller>,
) => Promise<DataOf<E>> | DataOf<E>;

export interface RouteOptions {
  /** At most `max` calls in `minutes` per client address (and per account, with byAccount). */
  limit?: { max: number; minutes: number; byAccount?: boolean };
}

function rateLimitOf(req: FastifyRequest, byAccount: boolean) {
  if (!byAccount) return req.ip;
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
  const { limit } = options;
  const rateLimit =
    limit && app.deps.config.rateLimits
      ? {
          max: limit.max,
          timeWindow: limit.minutes * 60_000,
          keyGenerator: (req: FastifyRequest) => rateLimitOf(req, !!limit.byAccount),
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
    // onRequest, before the body is parsed or validated: without a valid token the answer is
    // 401 whatever the input, and nothing about the input schema leaks.
    onRequest: async (req) => {
      if (ep.access === 'public') return;
      if (ep.access === 'scrape') return authorizeScrape(req, app.deps.config.metricsToken);
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
