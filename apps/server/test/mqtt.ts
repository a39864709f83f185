/**
 * MQTT test clients: connect and report the CONNACK outcome instead of reconnecting forever; a
 * private Mosquitto (the external broker) configured as production configures it.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { type MosquittoUser, mosquittoConfig, writeMosquittoAuth } from '../src/telemetry/broker/mosquitto.ts';

export type ConnectResult = { ok: true; client: MqttClient } | { ok: false; code: number | undefined; message: string };

/** One connection attempt (no reconnects); MQTT 3.1.1 unless told otherwise. */
export function tryConnect(port: number, opts: IClientOptions = {}): Promise<ConnectResult> {
  return new Promise((resolve) => {
    const client = mqtt.connect({
      host: '127.0.0.1',
      port,
      protocolVersion: 4,
      reconnectPeriod: 0,
      connectTimeout: 5000,
      ...opts,
    });
    let settled = false;
    client.once('connect', () => {
      settled = true;
      resolve({ ok: true, client });
    });
    const fail = (err?: Error & { code?: number }) => {
      if (settled) return;
      settled = true;
      client.end(true);
      resolve({ ok: false, code: err?.code, message: err?.message ?? 'closed' });
    };
    client.once('error', fail);
    client.once('close', () => fail());
  });
}

export async function connectOrThrow(port: number, opts: IClientOptions = {}): Promise<MqttClient> {
  const r = await tryConnect(port, opts);
  if (!r.ok) throw new Error(`MQTT connect failed: ${r.message} (${r.code})`);
  return r.client;
}

/** Connect as a gateway: client id = username = SN. */
export const connectGateway = (port: number, sn: string, secret: string, opts: IClientOptions = {}) =>
  connectOrThrow(port, { clientId: sn, username: sn, password: secret, ...opts });

/** Resolves when the client's connection closes (or at once if already closed). */
export function closed(client: MqttClient, timeoutMs = 5000): Promise<boolean> {
  if (!client.connected) return Promise.resolve(true);
  return new Promise((resolve) => {
    const t = setTimeout(() => resolve(false), timeoutMs);
    client.once('close', () => {
      clearTimeout(t);
      resolve(true);
    });
  });
}

type Truthy<T> = Exclude<T, false | null | undefined | 0 | ''>;

/** Poll until `check` returns a truthy value. */
export async function waitFor<T>(check: () => T | Promise<T>, timeoutMs = 5000, what = 'condition'): Promise<Truthy<T>> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v as Truthy<T>;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Subscribe and return the SUBACK codes (mqtt.js rejects when any is a failure, 128 / ≥ 0x80). */
export async function subackCodes(client: MqttClient, filter: string, qos: 0 | 1 | 2 = 1): Promise<number[]> {
  try {
    return (await client.subscribeAsync(filter, { qos })).map((g) => g.qos);
  } catch (e) {
    const granted = (e as { packet?: { granted?: (number | { qos: number })[] } }).packet?.granted;
    if (!granted) throw e;
    return granted.map((g) => (typeof g === 'number' ? g : g.qos));
  }
}

/** A TCP port free right now (for servers that cannot be told to pick one, like mosquitto). */
export async function freePort(): Promise<number> {
  const net = await import('node:net');
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as import('node:net').AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** Debian's Mosquitto (CI installs it), or undefined: tests that need it are skipped. */
export const MOSQUITTO_BIN = ['/usr/sbin/mosquitto', '/usr/bin/mosquitto'].find((p) => existsSync(p));

export interface MosquittoOptions {
  /** Everyone who may connect: gateways (username = SN) and the server users. */
  users: MosquittoUser[];
  /** Users who read every `up/` and write every `down/cmd` (the ingest processes). */
  serverUsers: MosquittoUser[];
  /** Extra config lines (e.g. `max_queued_messages 500000`). */
  extra?: string[];
}

export interface Mosquitto {
  /** The gateway listener (client id forced to the username). */
  gatewayPort: number;
  /** The server listener, where ingest processes connect. */
  serverPort: number;
  pid: number;
  /** `mqtt://user:password@127.0.0.1:<server port>` for a server user. */
  serverUrl(user: MosquittoUser): string;
  /** What Mosquitto printed so far. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * A private Mosquitto on two free loopback ports, configured by `mosquitto.ts` as production is
 * (password file, ACL, gateway and server listeners); resolves once a server user can connect.
 */
export async function startMosquitto(o: MosquittoOptions): Promise<Mosquitto> {
  if (!MOSQUITTO_BIN) throw new Error('no mosquitto binary (apt-get install mosquitto)');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sunfleet-mosquitto-'));
  const gatewayPort = await freePort();
  const serverPort = await freePort();
  const passwordFile = path.join(dir, 'passwd');
  const aclFile = path.join(dir, 'acl');
  writeMosquittoAuth({
    passwordFile,
    aclFile,
    users: [...o.users, ...o.serverUsers],
    serverUsers: o.serverUsers.map((u) => u.username),
  });
  const conf = path.join(dir, 'mosquitto.conf');
  const config = mosquittoConfig({
    passwordFile,
    aclFile,
    gatewayListener: { port: gatewayPort, host: '127.0.0.1' },
    serverListener: { port: serverPort, host: '127.0.0.1' },
    ...(process.getuid?.() === 0 ? { user: os.userInfo().username } : {}),
  });
  writeFileSync(conf, [config, ...(o.extra ?? [])].join('\n'));
  const child = spawn(MOSQUITTO_BIN, ['-c', conf], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (d) => {
    output += d;
  });
  child.stderr?.on('data', (d) => {
    output += d;
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const gone = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await gone;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const probe = o.serverUsers[0];
  try {
    await waitFor(
      async () => {
        if (child.exitCode !== null) throw new Error(`mosquitto exited: ${output}`);
        if (!probe) return /running/.test(output);
        const r = await tryConnect(serverPort, { clientId: `probe.${process.pid}`, ...probe });
        if (r.ok) r.client.end(true);
        return r.ok;
      },
      10_000,
      'mosquitto to accept connections',
    );
  } catch (e) {
    await stop();
    throw e;
  }
  return {
    gatewayPort,
    serverPort,
    pid: child.pid!,
    serverUrl: (u) => `mqtt://${encodeURIComponent(u.username)}:${encodeURIComponent(u.password)}@127.0.0.1:${serverPort}`,
    output: () => output,
    stop,
  };
}
