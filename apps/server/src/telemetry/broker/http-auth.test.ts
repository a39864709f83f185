/**
 * The external broker's hooks over HTTP, as EMQX 5 calls them: the hook secret is required;
 * gateways connect with their current secret (a deleted gateway or a wrong secret is denied at
 * once), the server with its configured password; publishes and subscriptions follow the embedded
 * broker's topic rules, the server's shared subscription included.
 */

import { ErrorCode } from '@sunfleet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { badInput } from '../../../test/envelopes.ts';
import { startServer, type TestServer } from '../../../test/harness.ts';
import { uniqueSn } from '../../../test/telemetry.ts';
import { provisionGateway } from '../gateways.ts';

const HOOK_SECRET = 'h'.repeat(40);
const SERVER = { username: 'sunfleet.server', password: 'server-password-for-tests' };

let s: TestServer;
let gw: { sn: string; secret: string; id: number };
beforeAll(async () => {
  const base = await startServer();
  await base.close();
  s = await startServer({
    mqtt: { ...base.config.mqtt, hookSecret: HOOK_SECRET, serverUsername: SERVER.username, serverPassword: SERVER.password },
  });
  gw = await provisionGateway(s.db, { sn: uniqueSn('HK') });
});
afterAll(() => s.close());

const hook = (path: 'authn' | 'authz', payload: object, secret: string | null = HOOK_SECRET) =>
  s.app.inject({
    method: 'POST',
    url: `/internal/mqtt/${path}`,
    headers: secret === null ? {} : { authorization: `Bearer ${secret}` },
    remoteAddress: '10.0.0.7',
    payload,
  });
const authn = async (clientid: string, username: string, password?: string) => {
  const res = await hook('authn', { clientid, username, ...(password === undefined ? {} : { password }) });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  return res.json() as { result: string; is_superuser: boolean };
};
const authz = async (who: { clientid: string; username: string }, action: string, topic: string, retain = false) => {
  const res = await hook('authz', { ...who, action, topic, retain: String(retain) });
  expect(res.statusCode).toBe(200);
  return (res.json() as { result: string }).result;
};
const asGateway = () => ({ clientid: gw.sn, username: gw.sn });
const asServer = { clientid: 'sunfleet.ingest.1', username: SERVER.username };

describe('the hook secret', () => {
  it('is required: none, a wrong one, or none configured answers 401 (EMQX: ignore, so the client is refused)', async () => {
    const body = { clientid: gw.sn, username: gw.sn, password: gw.secret };
    for (const secret of [null, 'x'.repeat(40)]) {
      const res = await hook('authn', body, secret);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: ErrorCode.tokenFailed, data: null });
    }
    const unset = await startServer();
    try {
      const res = await unset.app.inject({
        method: 'POST',
        url: '/internal/mqtt/authn',
        headers: { authorization: `Bearer ${HOOK_SECRET}` },
        payload: body,
      });
      expect(res.statusCode).toBe(401);
    } finally {
      await unset.close();
    }
  });

  it('is not in the API description', async () => {
    const doc = (await s.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/internal/'))).toEqual([]);
  });
});

describe('authentication', () => {
  it('lets a gateway in with its current secret, never as a superuser', async () => {
    expect(await authn(gw.sn, gw.sn, gw.secret)).toEqual({ result: 'allow', is_superuser: false });
  });

  it('denies a wrong secret, no secret, an unknown SN, and a client id that is not the user name', async () => {
    expect((await authn(gw.sn, gw.sn, `${gw.secret}x`)).result).toBe('deny');
    expect((await authn(gw.sn, gw.sn)).result).toBe('deny');
    expect((await authn(gw.sn, gw.sn, '')).result).toBe('deny');
    expect((await authn('NOSUCHGW1', 'NOSUCHGW1', gw.secret)).result).toBe('deny');
    const other = await provisionGateway(s.db, { sn: uniqueSn('HK') });
    expect((await authn(other.sn, gw.sn, gw.secret)).result).toBe('deny');
    expect((await authn('not/an+sn', 'not/an+sn', gw.secret)).result).toBe('deny');
  });

  it('denies a deleted gateway at once (nothing cached)', async () => {
    const doomed = await provisionGateway(s.db, { sn: uniqueSn('HK') });
    expect((await authn(doomed.sn, doomed.sn, doomed.secret)).result).toBe('allow');
    await s.db.updateTable('gateways').set({ deleted_at: Date.now() }).where('id', '=', doomed.id).execute();
    expect((await authn(doomed.sn, doomed.sn, doomed.secret)).result).toBe('deny');
    expect(await authz({ clientid: doomed.sn, username: doomed.sn }, 'publish', `sf/gw/${doomed.sn}/up/data`)).toBe('deny');
  });

  it('lets the server in with its password and a client id that is not an SN', async () => {
    expect(await authn(asServer.clientid, SERVER.username, SERVER.password)).toEqual({ result: 'allow', is_superuser: false });
    expect((await authn(asServer.clientid, SERVER.username, 'wrong')).result).toBe('deny');
    expect((await authn('SERVERLIKESN1', SERVER.username, SERVER.password)).result).toBe('deny');
  });

  it('answers bad input with the error envelope (HTTP 400: EMQX ignores it, the client is refused)', async () => {
    const res = await hook('authn', { clientid: gw.sn });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject(badInput('username'));
  });
});

describe('authorization: the embedded broker topic rules', () => {
  it('a gateway publishes its own up/ channels; state may be retained, nothing else', async () => {
    for (const ch of ['data', 'event', 'reply', 'state']) {
      expect(await authz(asGateway(), 'publish', `sf/gw/${gw.sn}/up/${ch}`), ch).toBe('allow');
    }
    expect(await authz(asGateway(), 'publish', `sf/gw/${gw.sn}/up/state`, true)).toBe('allow');
    expect(await authz(asGateway(), 'publish', `sf/gw/${gw.sn}/up/data`, true)).toBe('deny');
  });

  it("a gateway may not publish another gateway's topic, a down/ topic, an unknown channel or $SYS", async () => {
    expect(await authz(asGateway(), 'publish', 'sf/gw/OTHERGW1/up/data')).toBe('deny');
    expect(await authz(asGateway(), 'publish', `sf/gw/${gw.sn}/down/cmd`)).toBe('deny');
    expect(await authz(asGateway(), 'publish', `sf/gw/${gw.sn}/up/other`)).toBe('deny');
    expect(await authz(asGateway(), 'publish', '$SYS/brokers')).toBe('deny');
  });

  it('a gateway subscribes only to its own down/cmd, exactly', async () => {
    expect(await authz(asGateway(), 'subscribe', `sf/gw/${gw.sn}/down/cmd`)).toBe('allow');
    for (const filter of [
      `sf/gw/${gw.sn}/down/#`,
      'sf/gw/+/down/cmd',
      '#',
      '$SYS/#',
      'sf/gw/OTHERGW1/down/cmd',
      `$share/g/sf/gw/${gw.sn}/down/cmd`,
    ]) {
      expect(await authz(asGateway(), 'subscribe', filter), filter).toBe('deny');
    }
  });

  it('the server reads every gateway through its shared subscription and sends commands, never retained', async () => {
    expect(await authz(asServer, 'subscribe', '$share/sunfleet-ingest/sf/gw/+/up/#')).toBe('allow');
    expect(await authz(asServer, 'subscribe', 'sf/gw/+/up/+')).toBe('allow');
    expect(await authz(asServer, 'publish', `sf/gw/${gw.sn}/down/cmd`)).toBe('allow');
    expect(await authz(asServer, 'publish', `sf/gw/${gw.sn}/down/cmd`, true)).toBe('deny');
    expect(await authz(asServer, 'publish', '$SYS/x')).toBe('deny');
  });

  it('an unknown client, a client id that is not the user name, or an unknown action is denied', async () => {
    expect(await authz({ clientid: 'someone', username: 'someone' }, 'subscribe', '#')).toBe('deny');
    expect(await authz({ clientid: 'OTHERGW1', username: gw.sn }, 'publish', `sf/gw/${gw.sn}/up/data`)).toBe('deny');
    expect(await authz(asGateway(), 'all', `sf/gw/${gw.sn}/up/data`)).toBe('deny');
  });
});
