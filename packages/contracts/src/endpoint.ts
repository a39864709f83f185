/**
 * An endpoint contract: method, path, who may call it, encodings, and the schemas of its
 * params, query, body and response data. The server registers routes from these (so every
 * route declares a permission and a schema) and the web client calls through them (so the
 * client never re-declares a server type).
 */
import Type, { type Static, type TSchema } from 'typebox';
import type { PermissionName } from './permissions.ts';

/**
 * 'public': no token; 'user': any signed-in account; 'scrape': a monitoring scraper (from the
 * loopback address without a token, from elsewhere only with the configured metrics token);
 * otherwise a permission name.
 */
export type Access = 'public' | 'user' | 'scrape' | PermissionName;
export type Encoding = 'form' | 'json' | 'multipart';
export type Method = 'GET' | 'POST' | 'DELETE';

export interface Endpoint {
  method: Method;
  /** Fastify-style path with `:param` segments. */
  path: string;
  access: Access;
  /** How the client encodes the body: default form-encoded. */
  encoding?: Encoding;
  summary: string;
  params?: TSchema;
  query?: TSchema;
  body?: TSchema;
  data: TSchema;
  /** Business codes the screen handles itself: no toast. */
  tolerate?: readonly number[];
  /** The response is a file, not an envelope. */
  file?: boolean;
}

export function endpoint<const E extends Endpoint>(e: E): E {
  return e;
}

type StaticOr<S, D> = S extends TSchema ? Static<S> : D;
export type ParamsOf<E extends Endpoint> = StaticOr<E['params'], undefined>;
export type QueryOf<E extends Endpoint> = StaticOr<E['query'], undefined>;
export type BodyOf<E extends Endpoint> = StaticOr<E['body'], undefined>;
export type DataOf<E extends Endpoint> = Static<E['data']>;

export interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
}

/** List input: `page` from 1, `size` up to 100. */
export const PageQuery = {
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
  size: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
};
export function Paged<T extends TSchema>(item: T) {
  return Type.Object({ total: Type.Integer({ minimum: 0 }), list: Type.Array(item) });
}

/** Fill `:name` segments of a path. */
export function fillPath(path: string, params: Record<string, string | number> | undefined): string {
  return path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`missing path parameter ${name}`);
    return encodeURIComponent(String(value));
  });
}
