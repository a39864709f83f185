/** Deeply nested bodies: 400 with the envelope (code 4) before validation, never a server fault. */

import { ErrorCode } from '@sunfleet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invalidInput } from '../../test/envelopes.ts';
import { startServer, type TestServer } from '../../test/harness.ts';
import { maxBodyDepth, nestedDeeperThan } from './body-depth.ts';

/** JSON text of `depth` nested objects (or arrays), built as text: no recursion on our side either. */
const nestedJson = (depth: number, kind: 'object' | 'array' = 'object') =>
  kind === 'object' ? `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}` : `${'['.repeat(depth)}${']'.repeat(depth)}`;

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

describe('nestedDeeperThan', () => {
  it('counts the outermost object or array as level 1; scalars add no level', () => {
    expect(nestedDeeperThan(JSON.parse(nestedJson(32)), 32)).toBe(false);
    expect(nestedDeeperThan(JSON.parse(nestedJson(33)), 32)).toBe(true);
    expect(nestedDeeperThan(JSON.parse(nestedJson(33, 'array')), 32)).toBe(true);
    expect(nestedDeeperThan({ a: 1, b: 'x', c: [1, 2, { d: null }] }, 2)).toBe(true);
    expect(nestedDeeperThan({ a: 1, b: 'x', c: [1, 2, null] }, 2)).toBe(false);
    expect(nestedDeeperThan('text', 0)).toBe(false);
    expect(nestedDeeperThan(JSON.parse(nestedJson(100_000, 'array')), 32)).toBe(true);
  });
});

describe('request bodies', () => {
  const send = async (token: string | null, url: string, value: string) => {
    const res = await s.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      payload: value,
    });
    return { status: res.statusCode, body: res.json() };
  };
  const refused = {
    status: 400,
    body: invalidInput(`the body is nested deeper than ${maxBodyDepth} levels`),
  };

  it('a UI setting 5,000 levels deep is 400 with code 4, and nothing is saved', async () => {
    const u = await s.user();
    const { access } = await s.login(u.account);
    expect(await send(access, '/api/v1/user/personalized', `{"key":"deep","value":${nestedJson(5000)}}`)).toEqual(refused);
    expect(await send(access, '/api/v1/user/personalized', `{"key":"deep","value":${nestedJson(5000, 'array')}}`)).toEqual(
      refused,
    );
    expect((await s.call(access, 'GET', '/api/v1/user/personalized')).body.data).toEqual({});
    // 31 levels under the body (32 with it) are fine.
    const ok = await send(access, '/api/v1/user/personalized', `{"key":"deep","value":${nestedJson(maxBodyDepth - 1)}}`);
    expect(ok).toMatchObject({ status: 200, body: { code: ErrorCode.ok } });
  });

  it('the same on a public call', async () => {
    expect(await send(null, '/oauth/token', nestedJson(5000))).toEqual(refused);
  });
});
