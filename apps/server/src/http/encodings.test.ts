/**
 * Request encodings through the real route mechanism: form-encoded bodies and
 * query strings with repeated array keys, JSON bodies, and code 4 naming field and rule.
 */
import { ErrorCode, endpoint } from '@sunfleet/contracts';
import Type from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invalidInput } from '../../test/envelopes.ts';
import { startServer, type TestServer } from '../../test/harness.ts';
import { fail } from './errors.ts';
import { route } from './route.ts';

const echo = endpoint({
  method: 'POST',
  path: '/api/v1/test/echo',
  access: 'user',
  summary: 'test only',
  query: Type.Object({ plantIds: Type.Optional(Type.Array(Type.Integer())) }),
  body: Type.Object({ gsns: Type.Array(Type.String({ maxLength: 8 })), note: Type.Optional(Type.String()) }),
  data: Type.Object({ plantIds: Type.Array(Type.Integer()), gsns: Type.Array(Type.String()) }),
});

let s: TestServer;
let token: string;
let handled = 0;
beforeAll(async () => {
  s = await startServer({}, (app) =>
    route(app, echo, async ({ query, body }) => {
      handled++;
      if (body.note === 'refuse') fail(ErrorCode.validation, 'note: refused by the handler');
      return { plantIds: query.plantIds ?? [], gsns: body.gsns, secret: 'must not leak' } as never;
    }),
  );
  token = (await s.login((await s.user()).account)).access;
});
afterAll(() => s.close());

const post = (url: string, payload: string, contentType: string) =>
  s.app.inject({ method: 'POST', url, payload, headers: { authorization: `Bearer ${token}`, 'content-type': contentType } });

describe('encodings', () => {
  it('form-encoded body and query with repeated keys become arrays', async () => {
    const res = await post('/api/v1/test/echo?plantIds=3&plantIds=5', 'gsns=A1&gsns=B2', 'application/x-www-form-urlencoded');
    expect(res.json()).toEqual({ code: ErrorCode.ok, msg: 'ok', data: { plantIds: [3, 5], gsns: ['A1', 'B2'] } });
  });
  it('a single value of an array field is an array of one', async () => {
    const res = await post('/api/v1/test/echo?plantIds=7', 'gsns=A1', 'application/x-www-form-urlencoded');
    expect(res.json().data).toEqual({ plantIds: [7], gsns: ['A1'] });
  });
  it('JSON bodies', async () => {
    const res = await post('/api/v1/test/echo', JSON.stringify({ gsns: ['X'] }), 'application/json');
    expect(res.json().data).toEqual({ plantIds: [], gsns: ['X'] });
  });
  it('the response schema is a whitelist: fields outside it never leave the server', async () => {
    const res = await post('/api/v1/test/echo', JSON.stringify({ gsns: ['X'] }), 'application/json');
    expect(res.body).not.toContain('must not leak');
  });
  it('bad input is code 4 naming the field and the rule, and the handler never runs', async () => {
    const before = handled;
    const bad = await post('/api/v1/test/echo?plantIds=abc', 'gsns=A1', 'application/x-www-form-urlencoded');
    expect(bad.json()).toMatchObject({ code: ErrorCode.validation, data: { fields: ['plantIds.0'] } });
    expect(bad.json().msg).toMatch(/querystring\.plantIds.*integer/);
    const long = await post('/api/v1/test/echo', JSON.stringify({ gsns: ['TOO-LONG-SN'] }), 'application/json');
    expect(long.json().msg).toMatch(/body\.gsns\.0 .*8 characters/);
    const missing = await post('/api/v1/test/echo', JSON.stringify({}), 'application/json');
    expect(missing.json().msg).toMatch(/body\.gsns/);
    const broken = await post('/api/v1/test/echo', '{"gsns": [', 'application/json');
    expect(broken.json()).toMatchObject({ code: ErrorCode.validation, data: null });
    expect(handled).toBe(before);
  });
  it('a code-4 answer names the fields its message names in data.fields, paths inside the body or the query', async () => {
    const json = (body: unknown) => post('/api/v1/test/echo', JSON.stringify(body), 'application/json');
    const answers = {
      query: await post('/api/v1/test/echo?plantIds=abc', 'gsns=A1', 'application/x-www-form-urlencoded'),
      item: await json({ gsns: ['TOO-LONG-SN'] }),
      missing: await json({}),
      handler: await json({ gsns: ['X'], note: 'refuse' }),
      notJson: await post('/api/v1/test/echo', '{"gsns": [', 'application/json'),
      notAnObject: await json([1]),
    };
    const data = Object.fromEntries(Object.entries(answers).map(([k, res]) => [k, res.json().data]));
    expect(data).toEqual({
      query: { fields: ['plantIds.0'] },
      item: { fields: ['gsns.0'] },
      missing: { fields: ['gsns'] },
      handler: { fields: ['note'] },
      notJson: null,
      notAnObject: null,
    });
    // The message stays the sentence it was.
    expect(answers.missing.json().msg).toBe('Invalid input: body.gsns is required');
    expect(answers.handler.json().msg).toBe('Invalid input: note: refused by the handler');
  });
  it('bad input is HTTP 400 with code 4 whoever finds it: schema, handler or the JSON parser', async () => {
    const before = handled;
    const schema = await post('/api/v1/test/echo?plantIds=abc', 'gsns=A1', 'application/x-www-form-urlencoded');
    expect([schema.statusCode, schema.json().code]).toEqual([400, ErrorCode.validation]);
    const handler = await post('/api/v1/test/echo', JSON.stringify({ gsns: ['X'], note: 'refuse' }), 'application/json');
    expect([handler.statusCode, handler.json().code]).toEqual([400, ErrorCode.validation]);
    expect(handler.json().msg).toMatch(/note/);
    for (const payload of ['{"gsns": [', '{gsns: 1}', '']) {
      const broken = await post('/api/v1/test/echo', payload, 'application/json');
      expect(broken.statusCode).toBe(400);
      expect(broken.json()).toEqual(invalidInput('the body is not valid JSON'));
    }
    expect(handled).toBe(before + 1);
  });
});
