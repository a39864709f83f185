/**
 * A seeded fuzz run against a test server: every operation of the route table, as each caller,
 * `perCaller` generated requests each, shuffled and sent `concurrency` at a time. Each answer
 * is checked: no 5xx, the `{ code, msg, data }` envelope (a file only as a file route's 200), a
 * status the operation's API description documents. Returns the counts and the first examples
 * of each finding.
 */

import { type Endpoint, ErrorCode, errorCatalogue } from '@sunfleet/contracts';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { pluginPublicPrefixes } from '../../src/app.ts';
import { errorResponses } from '../../src/http/openapi.ts';
import type { TestServer } from '../harness.ts';
import { authorization, type FuzzRequest, type Operation, requestArb, worldHints } from './requests.ts';
import { roles, type World } from './world.ts';

export type FindingKind = 'server-error' | 'not-envelope' | 'undocumented';

export interface Finding {
  kind: FindingKind;
  op: string;
  role: string;
  variant: string;
  status: number;
  request: string;
  answer: string;
}

export interface FuzzStats {
  requests: number;
  /** Answered with success (code 0). */
  succeeded: number;
  ms: number;
  byStatus: Record<string, number>;
  byOperation: Record<string, { requests: number; ms: number; statuses: Record<string, number> }>;
  byVariant: Record<string, number>;
  counts: Record<FindingKind, number>;
  /** Findings excused by `excused`, by the rule still broken. */
  excused: Record<string, number>;
  /** The first few of each kind, operation and status. */
  findings: Finding[];
}

/** Header the run's hook sets: the route that answered (`METHOD url`). */
export const ROUTE_HEADER = 'x-fuzz-route';

/** For startServer's `extend`: name the route that answers each request. */
export function markRoutes(app: FastifyInstance) {
  app.addHook('onRequest', (req, reply, done) => {
    if (req.routeOptions.url) reply.header(ROUTE_HEADER, `${req.method} ${req.routeOptions.url}`);
    done();
  });
}

type Doc = { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };

/** Every contract operation with the statuses its API description documents. */
export async function operations(app: FastifyInstance): Promise<Operation[]> {
  const doc = (await app.inject({ method: 'GET', url: '/api/docs/json' })).json() as Doc;
  const out: Operation[] = [];
  for (const r of app.routeTable) {
    const ep = r.config?.endpoint as Endpoint | undefined;
    if (!ep || pluginPublicPrefixes.some((p) => r.url.startsWith(p))) continue;
    for (const method of [r.method].flat().map(String)) {
      if (method === 'HEAD') continue;
      const described = doc.paths[r.url.replace(/:([A-Za-z]+)/g, '{$1}')]?.[method.toLowerCase()];
      // The broker's hooks are left out of the description: their replies are the ones the route declares.
      const statuses = described
        ? Object.keys(described.responses)
        : ['200', ...Object.keys(errorResponses(ep, !!r.config?.rateLimited))];
      out.push({ key: `${method} ${r.url}`, method, path: r.url, ep, documented: new Set(statuses.map(Number)) });
    }
  }
  return out.sort((a, b) => a.key.localeCompare(b.key));
}

/** The reason an answer is not the envelope, or null when it is. */
export function envelopeProblem(status: number, contentType: string, body: string, isFile: boolean): string | null {
  if (!contentType.includes('application/json')) {
    return isFile && status === 200 ? null : `content type "${contentType}"`;
  }
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return 'body is not JSON';
  }
  if (!json || typeof json !== 'object' || Array.isArray(json)) return 'body is not an object';
  const keys = Object.keys(json).sort().join(',');
  if (keys !== 'code,data,msg') return `keys ${keys}`;
  const { code, msg, data } = json as { code: unknown; msg: unknown; data: unknown };
  if (!Number.isInteger(code) || typeof msg !== 'string') return 'code or msg of the wrong type';
  if (code === ErrorCode.ok) return status === 200 ? null : `code 0 with HTTP ${status}`;
  if (!Object.hasOwn(errorCatalogue, code as number)) return `code ${code} is not in the catalogue`;
  const expected = codeOfStatus[status];
  if (expected && !expected.includes(code as number)) return `HTTP ${status} with code ${code}`;
  if (data === null) return null;
  return code === ErrorCode.validation && namesFields(data) ? null : `code ${code} with data`;
}

/** Bad input's data: `{ fields }`, a non-empty list of field paths, and nothing else. */
const namesFields = (data: unknown): boolean => {
  const fields = (data as { fields?: unknown } | null)?.fields;
  return (
    Object.keys(data as object).join() === 'fields' &&
    Array.isArray(fields) &&
    fields.length > 0 &&
    fields.every((f) => typeof f === 'string' && f !== '')
  );
};

/** The code each error status carries (the error handler's rule); HTTP 200 carries any catalogue code. */
const codeOfStatus: Record<number, number[]> = {
  400: [ErrorCode.validation],
  401: [ErrorCode.tokenFailed],
  403: [ErrorCode.noPermission],
  404: [ErrorCode.notFound],
  406: [ErrorCode.validation],
  408: [ErrorCode.validation],
  413: [ErrorCode.validation],
  414: [ErrorCode.validation],
  415: [ErrorCode.validation],
  429: [ErrorCode.tooManyRequests],
  431: [ErrorCode.validation],
  500: [ErrorCode.serverError],
  503: [ErrorCode.storeUnavailable],
};

const describe = (req: FuzzRequest) =>
  `${req.role} ${req.method} ${req.url.slice(0, 300)}${req.payload !== undefined ? ` [${req.headers['content-type']}] ${String(req.payload).slice(0, 200)}` : ''}`;

/** A deterministic shuffle (seeded). */
function shuffle<T>(items: T[], seed: number): T[] {
  const [order] = fc.sample(fc.shuffledSubarray(items, { minLength: items.length }), { seed, numRuns: 1 });
  return order!;
}

export interface FuzzOptions {
  seed: number;
  /** Requests per operation and caller. */
  perCaller: number;
  concurrency: number;
  /** Examples kept per (kind, operation, status). */
  examples?: number;
  /** A finding of a rule known to be still broken: the rule (counted under it, not as a finding), or null. */
  excused?: (finding: { kind: FindingKind; op: string; status: number; request: string; answer: string }) => string | null;
  onProgress?: (done: number, total: number) => void;
}

export async function fuzz(s: TestServer, world: World, ops: Operation[], opts: FuzzOptions): Promise<FuzzStats> {
  const hints = worldHints(world);
  const all: FuzzRequest[] = [];
  ops.forEach((op, i) => {
    const arb = requestArb(op, hints);
    roles.forEach((role, j) => {
      const made = fc.sample(arb, { seed: opts.seed + i * 8 + j, numRuns: opts.perCaller });
      all.push(...made.map((r) => ({ ...r, role })));
    });
  });
  const requests = shuffle(all, opts.seed);
  const stats: FuzzStats = {
    requests: 0,
    succeeded: 0,
    ms: 0,
    byStatus: {},
    byOperation: {},
    byVariant: {},
    counts: { 'server-error': 0, 'not-envelope': 0, undocumented: 0 },
    excused: {},
    findings: [],
  };
  const seen = new Map<string, number>();
  const byKey = new Map(ops.map((o) => [o.key, o]));
  const record = (kind: FindingKind, req: FuzzRequest, status: number, answer: string) => {
    const rule = opts.excused?.({ kind, op: req.op.key, status, request: describe(req), answer });
    if (rule) {
      stats.excused[rule] = (stats.excused[rule] ?? 0) + 1;
      return;
    }
    stats.counts[kind]++;
    const key = `${kind}|${req.op.key}|${status}`;
    const n = seen.get(key) ?? 0;
    seen.set(key, n + 1);
    if (n < (opts.examples ?? 2)) {
      stats.findings.push({ kind, op: req.op.key, role: req.role, variant: req.variant, status, request: describe(req), answer });
    }
  };
  const started = performance.now();
  const send = async (req: FuzzRequest) => {
    const t0 = performance.now();
    const res = await s.app.inject({
      method: req.method as 'GET',
      url: req.url,
      headers: { ...req.headers, ...authorization(req, world) },
      remoteAddress: '203.0.113.9',
      ...(req.payload !== undefined ? { payload: req.payload } : {}),
    });
    stats.requests++;
    stats.byStatus[res.statusCode] = (stats.byStatus[res.statusCode] ?? 0) + 1;
    stats.byVariant[req.variant] = (stats.byVariant[req.variant] ?? 0) + 1;
    const perOp = stats.byOperation[req.op.key] ?? { requests: 0, ms: 0, statuses: {} };
    stats.byOperation[req.op.key] = perOp;
    perOp.requests++;
    perOp.ms += performance.now() - t0;
    perOp.statuses[res.statusCode] = (perOp.statuses[res.statusCode] ?? 0) + 1;
    // The route that answered (a generated segment may name another route of the same shape).
    const routed = res.headers[ROUTE_HEADER];
    const op = (typeof routed === 'string' && byKey.get(routed)) || req.op;
    const answer = `HTTP ${res.statusCode} ${String(res.headers['content-type'] ?? '')} ${res.body.slice(0, 200)}`;
    if (res.statusCode === 200 && res.body.startsWith('{"code":0,')) stats.succeeded++;
    if (res.statusCode >= 500) record('server-error', req, res.statusCode, answer);
    const problem = envelopeProblem(res.statusCode, String(res.headers['content-type'] ?? ''), res.body, !!op.ep.file);
    if (problem) record('not-envelope', req, res.statusCode, `${problem}: ${answer}`);
    // A URL no route answers is the not-found envelope (404), whatever operation it was made for.
    const documented = routed ? op.documented.has(res.statusCode) : op.documented.has(res.statusCode) || res.statusCode === 404;
    if (!documented) record('undocumented', req, res.statusCode, answer);
  };
  const burst: FuzzRequest[][] = [];
  for (let i = 0; i < requests.length; i += opts.concurrency) {
    await Promise.all(requests.slice(i, i + opts.concurrency).map(send));
    // A call may have signed a caller out (a new password, a revoked session): sign it in again.
    if (i % (opts.concurrency * 25) === 0) {
      for (const role of roles) {
        const token = world.tokens[role];
        if (!token) continue;
        const me = await s.app.inject({ method: 'GET', url: '/api/v1/user', headers: { authorization: `Bearer ${token}` } });
        // An account the run deleted cannot sign in again: its calls stay 401, which every route documents.
        if (me.statusCode === 401) await world.refresh(role).catch(() => undefined);
      }
      opts.onProgress?.(stats.requests, requests.length);
    }
  }
  // Uploads at once: each multipart operation's valid request sent `concurrency` times together,
  // as each caller (identical uploads racing for the same stored name).
  const uploads = ops.filter((op) => op.ep.encoding === 'multipart');
  uploads.forEach((op, i) => {
    const arb = requestArb(op, hints, true);
    for (const role of roles) {
      const [req] = fc.sample(arb, { seed: opts.seed + 7919 * (i + 1), numRuns: 1 });
      burst.push(Array.from({ length: opts.concurrency }, () => ({ ...req!, role, variant: 'upload-burst' })));
    }
  });
  for (const group of burst) await Promise.all(group.map(send));
  stats.ms = Math.round(performance.now() - started);
  return stats;
}

/** The findings as lines for a failure message or a report. */
export const findingLines = (stats: FuzzStats) =>
  stats.findings.map((f) => `${f.kind} ${f.op} (${f.variant}): ${f.request}\n    → ${f.answer}`);
