/**
 * Mosquitto as the external broker, as `deploy/mosquitto/` sets it up: its configuration file run
 * by Debian's Mosquitto (paths and ports made local), the dynamic-security store made by
 * `mosquitto_ctrl dynsec init` as the compose file does. The server makes the roles and its own
 * account; a gateway made through the gateway stock's API connects through Mosquitto over TLS and
 * publishes its own data, may not touch another gateway's topics, and is refused once deleted; a
 * broker that does not answer makes the create answer 503 with nothing written.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ErrorCode, topics } from '@sunfleet/contracts';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness.ts';
import { type Account, account, uniqueSn } from '../../../test/kits/plants.ts';
import { connectOrThrow, freePort, MOSQUITTO_BIN, subackCodes, tryConnect, waitFor } from '../../../test/mqtt.ts';
import { MosquittoDynsec } from './dynsec.ts';
import { brokerTls } from './tls.ts';

const DEPLOY = path.resolve(import.meta.dirname, '../../../../../deploy/mosquitto/mosquitto.conf');
const PLUGIN = '/usr/lib/x86_64-linux-gnu/mosquitto_dynamic_security.so';
const log = pino({ level: 'silent' });
const server = { username: 'sunfleet.server', password: 'server-secret-for-dynsec' };

describe.skipIf(!MOSQUITTO_BIN || !fs.existsSync(PLUGIN))('Mosquitto with dynamic security (deploy/mosquitto)', () => {
  let dir: string;
  let child: ReturnType<typeof spawn>;
  let output = '';
  let tlsPort: number;
  let plainPort: number;
  let cert: string;
  let accounts: MosquittoDynsec;
  let s: TestServer;
  let admin: Account;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sunfleet-dynsec-'));
    execFileSync('mosquitto_ctrl', ['dynsec', 'init', path.join(dir, 'dynamic-security.json'), 'admin', 'admin-secret-1'], {
      stdio: 'ignore',
    });
    cert = (await brokerTls({ certFile: null, keyFile: null }, dir, log)).cert;
    tlsPort = await freePort();
    plainPort = await freePort();
    const conf = fs
      .readFileSync(DEPLOY, 'utf8')
      .replace('/usr/lib/mosquitto_dynamic_security.so', PLUGIN)
      .replaceAll('/mosquitto/data/', `${dir}/`)
      .replaceAll('/mosquitto/certs/', `${dir}/keys/`)
      .replace(/^listener 8883$/m, `listener ${tlsPort} 127.0.0.1`)
      .replace(/^listener 1883$/m, `listener ${plainPort} 127.0.0.1`);
    const root = process.getuid?.() === 0 ? `\nuser ${os.userInfo().username}\n` : '';
    fs.writeFileSync(path.join(dir, 'mosquitto.conf'), conf + root);
    child = spawn(MOSQUITTO_BIN!, ['-c', path.join(dir, 'mosquitto.conf')], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout?.on('data', (d) => {
      output += d;
    });
    child.stderr?.on('data', (d) => {
      output += d;
    });
    await waitFor(
      async () => {
        if (child.exitCode !== null) throw new Error(`mosquitto exited: ${output}`);
        const r = await tryConnect(plainPort, { username: 'admin', password: 'admin-secret-1', clientId: 'probe' });
        if (r.ok) r.client.end(true);
        return r.ok;
      },
      10_000,
      'mosquitto',
    );
    accounts = new MosquittoDynsec(`mqtt://admin:admin-secret-1@127.0.0.1:${plainPort}`, log);
    await accounts.prepare(server, new Set());
    s = await startServer({}, undefined, { brokerAccounts: accounts });
    admin = await account(s, { kind: 'sysadmin' });
  });
  afterAll(async () => {
    await s?.close();
    await accounts?.close();
    if (child && child.exitCode === null) {
      const gone = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await gone;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const gatewayOptions = (sn: string, secret: string) => ({
    protocol: 'mqtts' as const,
    host: '127.0.0.1',
    ca: cert,
    clientId: sn,
    username: sn,
    password: secret,
  });
  const create = async () => {
    const res = await s.call(admin.token, 'POST', '/api/v1/gateway/create', { sn: uniqueSn('GWM') });
    expect(res.body).toMatchObject({ code: ErrorCode.ok });
    return res.body.data as { id: number; sn: string; secret: string };
  };

  it('the server’s own account reads gateways’ data and writes their commands', async () => {
    const c = await connectOrThrow(plainPort, { ...server, clientId: 'sunfleet.ingest.test' });
    expect(await subackCodes(c, '$share/sunfleet-ingest/sf/gw/+/up/data')).toEqual([1]);
    expect(await subackCodes(c, '#')).toEqual([0x80]);
    c.end(true);
  });

  it('a gateway made through the API connects through Mosquitto over TLS and publishes its own data, not another’s', async () => {
    const a = await create();
    const b = await create();
    const ingest = await connectOrThrow(plainPort, { ...server, clientId: 'sunfleet.ingest.a' });
    await ingest.subscribeAsync('sf/gw/+/up/#', { qos: 1 });
    const got: string[] = [];
    ingest.on('message', (topic, payload) => got.push(`${topic} ${payload.toString()}`));
    const gw = await connectOrThrow(tlsPort, gatewayOptions(a.sn, a.secret));
    await gw.publishAsync(topics.up(a.sn, 'data'), 'mine', { qos: 1 });
    await gw.publishAsync(topics.up(b.sn, 'data'), 'forged', { qos: 1 }).catch(() => undefined);
    await waitFor(() => got.includes(`${topics.up(a.sn, 'data')} mine`), 5000, 'the gateway’s data');
    expect(await subackCodes(gw, topics.down(b.sn))).toEqual([0x80]);
    expect(await subackCodes(gw, topics.down(a.sn))).toEqual([1]);
    gw.end(true);
    // Another client id than its SN, or the wrong secret: refused.
    expect((await tryConnect(tlsPort, { ...gatewayOptions(a.sn, a.secret), clientId: 'other' })).ok).toBe(false);
    expect((await tryConnect(tlsPort, gatewayOptions(a.sn, 'wrong-secret'))).ok).toBe(false);
    expect(got.some((m) => m.includes('forged'))).toBe(false);
    ingest.end(true);
  });

  it('a deleted gateway is refused; a broker that does not answer refuses the create with 503 and nothing written', async () => {
    const a = await create();
    expect((await tryConnect(tlsPort, gatewayOptions(a.sn, a.secret))).ok).toBe(true);
    expect((await s.call(admin.token, 'GET', `/api/v1/gateway/${a.id}/delete`)).body).toMatchObject({ code: ErrorCode.ok });
    await waitFor(async () => !(await tryConnect(tlsPort, gatewayOptions(a.sn, a.secret))).ok, 5000, 'the refusal');

    child.kill('SIGSTOP');
    try {
      const sn = uniqueSn('GWM');
      const res = await s.call(admin.token, 'POST', '/api/v1/gateway/create', { sn });
      expect(res.status).toBe(503);
      expect(await s.db.selectFrom('gateways').select('id').where('sn', '=', sn).executeTakeFirst()).toBeUndefined();
    } finally {
      child.kill('SIGCONT');
    }
  }, 30_000);

  it('at start, accounts of gateways the store no longer has are removed', async () => {
    const a = await create();
    await accounts.prepare(server, new Set());
    expect((await tryConnect(tlsPort, gatewayOptions(a.sn, a.secret))).ok).toBe(false);
  });
});
