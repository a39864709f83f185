/**
 * Requests generated for one operation from its contract: path parameters, query and body
 * derived from the endpoint's schemas, sent valid, with one value broken, with the query
 * repeated, with a body that is not what the route parses (garbage, deep, huge, the wrong
 * content type, broken multipart), with bad path segments or a bad token.
 */
import type { Endpoint } from '@sunfleet/contracts';
import fc from 'fast-check';
import {
  deepJson,
  type Hints,
  jsonText,
  malformed,
  malformedObject,
  nastyString,
  RawNumber,
  type Schema,
  valid,
} from './derive.ts';
import type { Role, World } from './world.ts';

export interface Operation {
  key: string;
  method: string;
  path: string;
  ep: Endpoint;
  /** The HTTP statuses its API description documents. */
  documented: ReadonlySet<number>;
}

export type Auth = 'token' | 'garbage' | 'other-scheme';

export interface FuzzRequest {
  op: Operation;
  role: Role;
  variant: string;
  auth: Auth;
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
}

const plain = (s: unknown): Schema | undefined => (s ? (JSON.parse(JSON.stringify(s)) as Schema) : undefined);

/** Ids and serial numbers by property name: those that exist (mine, another tenant's) or none. */
export function worldHints(world: World): Hints {
  const ids = fc.constantFrom(...world.ids);
  const sns = fc.constantFrom(...world.sns);
  const uuids = fc.oneof(fc.constantFrom(...world.uuids), fc.uuid());
  const zones = fc.constantFrom('Europe/Madrid', 'UTC', 'America/New_York', 'Asia/Kolkata');
  return (name, s) => {
    const type = Array.isArray(s.type) ? s.type[0] : s.type;
    if (/^timezone$|Zone$/.test(name) && type === 'string') return zones;
    if (name === 'currency' && type === 'string') return fc.constantFrom('EUR', 'USD');
    if (/(^id|Id|Ids|ids)$/.test(name) && (type === 'integer' || type === 'number')) {
      return fc.oneof({ arbitrary: ids, weight: 4 }, { arbitrary: fc.integer({ min: 1, max: 2 ** 31 - 1 }), weight: 1 });
    }
    if (/(^sn|Sn|^gsns)$/.test(name) && type === 'string') return sns;
    if (/(^id|Id)$/.test(name) && type === 'string' && typeof s.pattern === 'string' && s.pattern.includes('[0-9a-f]')) {
      return uuids;
    }
    return undefined;
  };
}

/** Percent-encoded UTF-8 (a lone surrogate is sent as U+FFFD). */
const enc = (text: string) => encodeURIComponent(Buffer.from(text).toString());

/** `k=v&…`; an array repeats its key, an object is its JSON. */
export function queryString(values: Record<string, unknown>): string {
  const out: string[] = [];
  const one = (k: string, v: unknown) => {
    const text =
      v === null || v === undefined ? '' : typeof v === 'object' && !(v instanceof RawNumber) ? JSON.stringify(v) : String(v);
    out.push(`${enc(k)}=${enc(text)}`);
  };
  for (const [k, v] of Object.entries(values ?? {})) {
    if (Array.isArray(v)) for (const item of v) one(k, item);
    else one(k, v);
  }
  return out.join('&');
}

/** A path segment: a value as text, percent-encoded; never empty (an empty segment is another URL). */
const segment = (v: unknown) => enc(v === null || v === undefined || v === '' ? '_' : String(v));

export function fillPath(path: string, params: Record<string, unknown>): string {
  return path.replace(/:([A-Za-z]+)/g, (_, n: string) => segment(params?.[n]));
}

const boundary = '----sunfleetfuzz7d1c';
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** A multipart/form-data body: the fields as text parts, then one file part. */
export function multipartBody(
  fields: Record<string, unknown>,
  file: { name: string; type: string; bytes: Buffer } | null,
): Buffer {
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields ?? {})) {
    const text = v !== null && typeof v === 'object' && !(v instanceof RawNumber) ? JSON.stringify(v) : String(v ?? '');
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${text}\r\n`));
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
      file.bytes,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(parts);
}
const MULTIPART = `multipart/form-data; boundary=${boundary}`;

const fileArb = fc.oneof(
  fc.constant({ name: 'a.png', type: 'image/png', bytes: PNG }),
  fc.constant({ name: 'fw.bin', type: 'application/octet-stream', bytes: Buffer.from('SUNFLEETFW\x00\x01garbage') }),
  fc.constant({ name: 'gateways.csv', type: 'text/csv', bytes: Buffer.from('sn,key\nFUZZGW9,ABC\n') }),
  fc.uint8Array({ maxLength: 64 }).map((b) => ({ name: '../../x.png', type: 'image/png', bytes: Buffer.from(b) })),
);

/** Multipart bodies the parser must refuse as bad input. */
const brokenMultipart: fc.Arbitrary<{ contentType: string; payload: Buffer | string }> = fc.oneof(
  fc.constant({ contentType: 'multipart/form-data', payload: multipartBody({ a: '1' }, null) }),
  fc.constant({
    contentType: MULTIPART,
    payload: multipartBody({}, { name: 'a.png', type: 'image/png', bytes: PNG }).subarray(0, 90),
  }),
  fc.uint8Array({ minLength: 1, maxLength: 200 }).map((b) => ({ contentType: MULTIPART, payload: Buffer.from(b) })),
  fc.constant({ contentType: 'multipart/form-data; boundary=other', payload: multipartBody({ a: '1' }, null) }),
  fc.constant({
    contentType: MULTIPART,
    payload: `--${boundary}\r\nContent-Disposition: form-data\r\n\r\nx\r\n--${boundary}--\r\n`,
  }),
  fc.constant({
    contentType: MULTIPART,
    payload: multipartBody(Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`f${i}`, 'x'])), null),
  }),
  fc.constant({ contentType: MULTIPART, payload: '' }),
);

const HUGE_BODY = `{"a":"${'x'.repeat(1024 * 1024 + 10)}"}`;

/** Bodies that are not the JSON or form the route parses. */
const garbageBody: fc.Arbitrary<{ contentType: string; payload: string | Buffer }> = fc.oneof(
  fc
    .constantFrom('', 'not json', '{"a":', '[]', '"text"', '123', 'null', '{"__proto__":{"polluted":1}}', '{"a":1e309}')
    .map((payload) => ({ contentType: 'application/json', payload })),
  fc.constantFrom(deepJson(10_000, false), deepJson(2_000, true), deepJson(40, false)).map((payload) => ({
    contentType: 'application/json',
    payload,
  })),
  fc.constant({ contentType: 'application/json', payload: HUGE_BODY }),
  fc.constant({ contentType: 'application/json', payload: Buffer.from([0xff, 0xfe, 0x7b, 0x00, 0xc3, 0x28]) }),
  fc
    .constantFrom('text/plain', 'application/xml', 'application/json; charset=utf-16', 'application/octet-stream')
    .map((contentType) => ({
      contentType,
      payload: '{"a":1}',
    })),
  fc.constant({ contentType: 'application/x-www-form-urlencoded', payload: 'a=1&a=2&a[b]=3&%ZZ=%' }),
);

function encodeBody(ep: Endpoint, body: unknown, asJson: boolean): { contentType: string; payload: string | Buffer } {
  if (ep.encoding === 'multipart')
    return { contentType: MULTIPART, payload: multipartBody(body as Record<string, unknown>, null) };
  if (ep.encoding === 'json' || asJson || body === null || typeof body !== 'object' || Array.isArray(body)) {
    return { contentType: 'application/json', payload: jsonText(body ?? {}) };
  }
  return { contentType: 'application/x-www-form-urlencoded', payload: queryString(body as Record<string, unknown>) };
}

const badSegment = fc.constantFrom(
  '%00',
  '..',
  '-1',
  '0',
  '1e309',
  'Infinity',
  '%F0%9F%A6%84',
  '%E0%A4%A',
  'x'.repeat(300),
  '9'.repeat(30),
  '%2F',
);

/** Every request shape for one operation (its caller is set afterwards); `validOnly`: the valid one only. */
export function requestArb(op: Operation, hints: Hints, validOnly = false): fc.Arbitrary<FuzzRequest> {
  const { ep } = op;
  const params = plain(ep.params);
  const query = plain(ep.query);
  const body = plain(ep.body);
  const takesBody = ep.method !== 'GET';
  const obj = (s: Schema | undefined): fc.Arbitrary<Record<string, unknown>> =>
    s ? (valid(s, hints) as fc.Arbitrary<Record<string, unknown>>) : fc.constant({});
  const bad = (s: Schema | undefined) => (s?.properties ? malformedObject(s, hints) : obj(s));
  const make = (
    variant: string,
    p: Record<string, unknown>,
    q: string,
    b: { contentType: string; payload: string | Buffer } | null,
    auth: Auth = 'token',
    path?: string,
  ): FuzzRequest => ({
    op,
    role: 'nobody',
    variant,
    auth,
    method: ep.method,
    url: `${path ?? fillPath(op.path, p)}${q ? `?${q}` : ''}`,
    headers: b ? { 'content-type': b.contentType } : {},
    ...(b ? { payload: b.payload } : {}),
  });
  const bodyOf = (b: fc.Arbitrary<unknown>) =>
    takesBody ? fc.tuple(b, fc.boolean()).map(([v, j]) => encodeBody(ep, v, j)) : fc.constant(null);
  const withFile = (b: fc.Arbitrary<Record<string, unknown>>) =>
    fc.tuple(b, fileArb).map(([fields, file]) => ({ contentType: MULTIPART, payload: multipartBody(fields, file) }));
  const validBody = ep.encoding === 'multipart' ? withFile(obj(body)) : bodyOf(obj(body));

  const variants: fc.Arbitrary<FuzzRequest>[] = [
    fc.tuple(obj(params), obj(query), validBody).map(([p, q, b]) => make('valid', p, queryString(q), b)),
    fc
      .tuple(obj(params), obj(query), validBody, fc.constantFrom<Auth>('garbage', 'other-scheme'))
      .map(([p, q, b, a]) => make('auth', p, queryString(q), b, a)),
    fc
      .tuple(obj(params), obj(query), validBody, fc.constantFrom(...Object.keys(query?.properties ?? {}), 'lan', 'page', 'size'))
      .chain(([p, q, b, k]) =>
        fc
          .array(fc.oneof(fc.constantFrom('en', 'es', '1', '1e309', 'Infinity', '', '9223372036854775808'), nastyString), {
            minLength: 1,
            maxLength: 3,
          })
          .map((extra) => make('repeated-query', p, queryString({ ...q, [k]: [q[k] ?? 'en', ...extra] }), b)),
      ),
  ];
  if (params?.properties) {
    variants.push(fc.tuple(bad(params), obj(query), validBody).map(([p, q, b]) => make('bad-param', p, queryString(q), b)));
    variants.push(
      fc.tuple(obj(params), obj(query), validBody, badSegment).map(([p, q, b, seg]) => {
        // The first path parameter as the raw segment, the others as generated.
        const first = Object.keys(params.properties ?? {})[0];
        const path = op.path.replace(/:([A-Za-z]+)/g, (_, n: string) => (n === first ? seg : segment(p[n])));
        return make('bad-segment', p, queryString(q), b, 'token', path);
      }),
    );
  }
  if (query?.properties) {
    variants.push(fc.tuple(obj(params), bad(query), validBody).map(([p, q, b]) => make('bad-query', p, queryString(q), b)));
  }
  if (takesBody) {
    const badBody = body ? (body.properties ? bad(body) : malformed(body, hints)) : fc.jsonValue({ maxDepth: 2 });
    variants.push(
      fc
        .tuple(obj(params), obj(query), ep.encoding === 'multipart' ? withFile(badBody as never) : bodyOf(badBody))
        .map(([p, q, b]) => make('bad-body', p, queryString(q), b)),
      fc.tuple(obj(params), obj(query), garbageBody).map(([p, q, b]) => make('garbage-body', p, queryString(q), b)),
      fc.tuple(obj(params), obj(query), brokenMultipart).map(([p, q, b]) => make('broken-multipart', p, queryString(q), b)),
    );
  }
  return validOnly ? variants[0]! : fc.oneof(...variants);
}

/** The token header for a request: the caller's, a forged one, or another scheme. */
export function authorization(req: FuzzRequest, world: World): Record<string, string> {
  const token = world.tokens[req.role];
  if (req.auth === 'garbage') return { authorization: `Bearer ${token ? `${token.slice(0, -4)}AAAA` : 'not-a-jwt'}` };
  if (req.auth === 'other-scheme') return { authorization: 'Basic c3lzYWRtaW46eA==' };
  return token ? { authorization: `Bearer ${token}` } : {};
}
