/** MQTT test clients: connect and report the CONNACK outcome instead of reconnecting forever. */
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';

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
