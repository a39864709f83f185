/**
 * The served API description (`/api/docs/json`) walked operation by operation: every route
 * lists the error replies its declaration implies, each one the shared error envelope, and
 * the 400 it documents for a body is what a malformed body really gets.
 */
import type { Endpoint } from '@sunfleet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invalidInput } from '../../test/envelopes.ts';
import { startServer, type TestServer } from '../../test/harness.ts';
import { pluginPublicPrefixes } from '../app.ts';

interface Operation {
  responses: Record<string, { description: string; content?: Record<string, { schema: Record<string, unknown> }> }>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, { properties: Record<string, Record<string, unknown>>; required: string[] }> };
}

const envelopeRef = '#/components/schemas/ErrorEnvelope';
let s: TestServer;
let doc: Document;
let admin: string;

/** Every contract route with what its declaration says: the endpoint and whether it is rate-limited. */
const allContractRoutes = () =>
  s.app.routeTable
    .filter((r) => r.method !== 'HEAD' && !pluginPublicPrefixes.some((p) => r.url.startsWith(p)) && r.config?.endpoint)
    .map((r) => ({
      ep: r.config!.endpoint as Endpoint,
      rateLimited: !!r.config?.rateLimited,
      docPath: r.url.replace(/:([A-Za-z]+)/g, '{$1}'),
    }));
/** The documented ones: all but the internal calls (the broker's hooks). */
const contractRoutes = () => allContractRoutes().filter((r) => r.ep.access !== 'broker');

beforeAll(async () => {
  // Rate limits on, as in production, so the rate-limited routes document their 429.
  s = await startServer({ rateLimits: true });
  const res = await s.app.inject({ method: 'GET', url: '/api/docs/json' });
  expect(res.statusCode).toBe(200);
  doc = res.json();
  admin = (await s.login((await s.user({ kind: 'sysadmin' })).account)).access;
});
afterAll(() => s.close());

describe('API description', () => {
  it('has one shared error envelope: code, msg and data that is null or the fields bad input names', () => {
    const envelope = doc.components.schemas.ErrorEnvelope!;
    expect(envelope.required).toEqual(['code', 'msg', 'data']);
    // OpenAPI 3.0 has no null type: "null or the fields" is written as a nullable object.
    expect(envelope.properties.data).toMatchObject({
      nullable: true,
      type: 'object',
      required: ['fields'],
      properties: { fields: { type: 'array', items: { type: 'string' } } },
    });
    expect(envelope.properties.code).toMatchObject({ type: 'integer' });
  });

  it('leaves the internal broker hooks out', () => {
    const internal = allContractRoutes().filter((r) => r.ep.access === 'broker');
    expect(internal.length).toBe(2);
    for (const r of internal) expect(doc.paths[r.docPath], r.docPath).toBeUndefined();
  });

  it('documents every route, each with the error replies its declaration implies', () => {
    const routes = contractRoutes();
    expect(routes.length).toBeGreaterThan(100);
    const operations = Object.values(doc.paths).reduce((n, ops) => n + Object.keys(ops).length, 0);
    expect(operations).toBe(routes.length);
    for (const { ep, rateLimited, docPath } of routes) {
      const where = `${ep.method} ${ep.path}`;
      const op = doc.paths[docPath]?.[ep.method.toLowerCase()];
      expect(op, where).toBeDefined();
      const statuses = Object.keys(op!.responses).map(Number);
      const takesInput = !!(ep.params || ep.query || ep.body) || ep.method !== 'GET';
      const expected = [
        200,
        ...(takesInput ? [400] : []),
        ...(ep.access !== 'public' ? [401] : []),
        ...(ep.encoding === 'multipart' ? [406] : []),
        408,
        ...(ep.method !== 'GET' ? [413] : []),
        ...(ep.path.includes('/:') ? [414] : []),
        ...(ep.method !== 'GET' ? [415] : []),
        ...(rateLimited ? [429] : []),
        431,
        500,
        503,
        ...Object.keys(ep.errors ?? {}).map(Number),
      ];
      expect(statuses.sort(), where).toEqual(expected.sort());
      for (const status of expected.filter((x) => x !== 200)) {
        expect(op!.responses[status]!.content!['application/json']!.schema, `${where} ${status}`).toEqual({
          $ref: envelopeRef,
        });
      }
      // The 200 reply is the success or a business error: both shapes are described.
      const ok = JSON.stringify(op!.responses[200]!.content);
      expect(ok, where).toContain(envelopeRef);
      if (!ep.file) expect(ok, where).toContain('"anyOf"');
      if (ep.access !== 'public' && ep.access !== 'user') {
        for (const name of [ep.access].flat()) expect(op!.responses[200]!.description, where).toContain(name);
      }
      if (ep.writes) expect(op!.responses[200]!.description, where).toContain('read-only account');
    }
  });

  it('a file download names the media type it sends: an .xlsx its spreadsheet type, and really sends it', async () => {
    const xlsx = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
    const files = contractRoutes().filter((r) => r.ep.file && r.ep.summary.includes('.xlsx'));
    expect(files.length).toBeGreaterThanOrEqual(8);
    for (const { ep, docPath } of files) {
      const content = doc.paths[docPath]![ep.method.toLowerCase()]!.responses[200]!.content!;
      expect(Object.keys(content), `${ep.method} ${ep.path}`).toEqual([xlsx, 'application/json']);
    }
    const template = await s.app.inject({
      method: 'GET',
      url: '/api/v1/gateway/import/template',
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(template.statusCode).toBe(200);
    expect(template.headers['content-type']).toBe(xlsx);
  });

  it('a call that answers for itself documents its own statuses: the firmware link its 403, 404 and 416', () => {
    const op = doc.paths['/anonymous/firmware/{id}']!.get!;
    for (const status of [403, 404, 416]) {
      expect(op.responses[status]!.content!['application/json']!.schema, String(status)).toEqual({ $ref: envelopeRef });
    }
  });

  it('rate-limited routes are documented with 429 and the others are not', () => {
    const limited = contractRoutes().filter((r) => r.rateLimited);
    expect(limited.map((r) => r.ep.path)).toContain('/oauth/token');
    expect(doc.paths['/oauth/token']!.post!.responses[429]).toBeDefined();
    expect(doc.paths['/api/v1/permission']!.get!.responses[429]).toBeUndefined();
  });

  it('every route that takes a body answers a malformed JSON body with the documented 400 and code 4', async () => {
    const withBody = contractRoutes().filter((r) => r.ep.method !== 'GET');
    expect(withBody.length).toBeGreaterThan(30);
    for (const { ep } of withBody) {
      const res = await s.app.inject({
        method: ep.method,
        url: ep.path.replace(/:([A-Za-z]+)/g, '1'),
        payload: '{"broken": ',
        headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      });
      const where = `${ep.method} ${ep.path}`;
      expect([res.statusCode, res.json()], where).toEqual([400, invalidInput('the body is not valid JSON')]);
    }
  });
});
