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
 * 'broker': the external MQTT broker's hooks (with the configured hook secret; internal, left out
 * of the API description); otherwise a permission name, or a list of names of which the caller
 * needs any one (an upload both the create and the edit form use: `['station.create', 'station.edit']`).
 */
export type Access = 'public' | 'user' | 'scrape' | 'broker' | PermissionName | readonly PermissionName[];
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
  /** The media type of that file, as the server sends it (default application/octet-stream). */
  fileType?: string;
  /** Error replies (the error envelope) this call gives besides the shared ones: HTTP status → when. */
  errors?: Readonly<Record<number, string>>;
  /**
   * The call changes what the portal stores (a plant, a device, an account's profile, password or
   * notifications, an acknowledgement, a saved profile): a read-only account is refused with
   * code 2 before anything runs, whatever permissions it holds. Set it on every call that
   * changes data, and only there: a POST that only reads (a check, a query with a body), signing
   * out, and the account's own display preferences leave it out. Never on a 'public', 'scrape' or
   * 'broker' call (there is no account to refuse). Whether the caller may change a given plant (a visitor
   * of that plant may not) is the plant's rule, checked where the plant is loaded.
   */
  writes?: true;
}

/** The permission names an access rule accepts (any one of them), or null when it names none. */
export function accessPermissions(access: Access): readonly PermissionName[] | null {
  if (access === 'public' || access === 'user' || access === 'scrape' || access === 'broker') return null;
  return typeof access === 'string' ? [access] : access;
}

/** Whether an account holding `granted` passes the rule: 'user' and 'public' any account, a permission rule one of its names. */
export function permits(access: Access, granted: ReadonlySet<PermissionName>): boolean {
  const names = accessPermissions(access);
  return names === null ? access === 'user' || access === 'public' : names.some((name) => granted.has(name));
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

/** The media type of an .xlsx download. */
export const XLSX_MEDIA_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

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
