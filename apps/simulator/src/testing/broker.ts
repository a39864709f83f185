// Test support: a plain in-process Aedes broker (no auth) on a free port, recording every
// message clients publish (wills included) so tests can wait for and inspect them.
import net from 'node:net';
import { Aedes } from 'aedes';

export interface Captured {
  topic: string;
  body: unknown;
  retain: boolean;
  clientId: string;
}

export interface TestBroker {
  url: string;
  messages: Captured[];
  /** Publishes received from clients (counted even when not recorded). */
  received(): number;
  /** Publishes left unacknowledged (and unrecorded) while `hold` was on. */
  held: Captured[];
  /** Leave clients' publishes unacknowledged, as a server that dies before storing them. */
  hold(on: boolean): void;
  /** Cut every client connection at once, as a crashed server. */
  dropConnections(): void;
  /** Answer each sign-in only after `ms`, as a loaded server does. */
  answerLoginsAfter(ms: number): void;
  /** Every connection attempt's credentials. */
  logins: { clientId: string; username: string | undefined; password: string | undefined }[];
  /** Resolve with the first recorded message (already seen or future) matching `match`. */
  waitFor(match: (m: Captured) => boolean, timeoutMs?: number): Promise<Captured>;
  /** Resolve once `count` recorded messages match. */
  waitForCount(match: (m: Captured) => boolean, count: number, timeoutMs?: number): Promise<Captured[]>;
  close(): Promise<void>;
}

/** `secrets`: when given, only these SN → secret pairs may connect (client id = username = SN), and test tools (client id `test-…`). */
export async function startBroker(options: { secrets?: Record<string, string>; record?: boolean } = {}): Promise<TestBroker> {
  const logins: TestBroker['logins'] = [];
  const held: Captured[] = [];
  let holding = false;
  let loginDelayMs = 0;
  const broker = await Aedes.createBroker({
    concurrency: 1000,
    authorizePublish: (client, packet, done) => {
      if (!holding || !client) return done(null);
      held.push({ topic: packet.topic, body: parse(packet.payload), retain: packet.retain, clientId: client.id });
    },
    authenticate: (client, username, password, done) => {
      const secret = password?.toString();
      logins.push({ clientId: client.id, username, password: secret });
      const known = options.secrets;
      const ok =
        !known ||
        client.id.startsWith('test-') ||
        (username === client.id && username !== undefined && known[username] === secret);
      const answer = () => (ok ? done(null, true) : done(Object.assign(new Error('bad credentials'), { returnCode: 4 }), false));
      if (loginDelayMs > 0) setTimeout(answer, loginDelayMs);
      else answer();
    },
  });
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    broker.handle(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as net.AddressInfo;
  const messages: Captured[] = [];
  let listeners: (() => void)[] = [];
  let received = 0;
  broker.on('publish', (packet, client) => {
    if (!client) return; // the broker's own $SYS traffic
    received++;
    if (options.record === false) return;
    messages.push({ topic: packet.topic, body: parse(packet.payload), retain: packet.retain, clientId: client.id });
    for (const l of listeners) l();
  });
  const waitForCount = (match: (m: Captured) => boolean, count: number, timeoutMs = 10_000) =>
    new Promise<Captured[]>((resolve, reject) => {
      const check = () => {
        const found = messages.filter(match);
        if (found.length < count) return false;
        clearTimeout(timer);
        listeners = listeners.filter((l) => l !== listener);
        resolve(found);
        return true;
      };
      const listener = () => void check();
      const timer = setTimeout(() => {
        listeners = listeners.filter((l) => l !== listener);
        reject(new Error(`timed out waiting for ${count} messages (have ${messages.filter(match).length})`));
      }, timeoutMs);
      if (!check()) listeners.push(listener);
    });
  return {
    url: `mqtt://127.0.0.1:${port}`,
    messages,
    held,
    hold(on) {
      holding = on;
    },
    dropConnections() {
      for (const socket of sockets) socket.destroy();
    },
    answerLoginsAfter(ms) {
      loginDelayMs = ms;
    },
    received: () => received,
    logins,
    waitFor: async (match, timeoutMs) => (await waitForCount(match, 1, timeoutMs))[0]!,
    waitForCount,
    close: () =>
      new Promise<void>((resolve) => {
        server.close();
        broker.close(() => resolve());
      }),
  };
}

function parse(payload: Buffer | string): unknown {
  try {
    return JSON.parse(payload.toString());
  } catch {
    return payload.toString();
  }
}
