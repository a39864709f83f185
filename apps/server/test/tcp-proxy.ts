/**
 * A TCP proxy in front of the test database, to stage outages: `cut()` drops every connection
 * and refuses new ones (a server restart, a failover), `blackhole()` accepts connections and
 * forwards nothing (a hung server, a dead network path), `restore()` forwards again.
 */
import net from 'node:net';

export interface TcpProxy {
  port: number;
  /** Connections forwarded so far. */
  readonly opened: number;
  cut(): Promise<void>;
  blackhole(): void;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let mode: 'forward' | 'blackhole' = 'forward';
  let opened = 0;
  const track = (s: net.Socket) => {
    sockets.add(s);
    s.on('error', () => s.destroy());
    s.on('close', () => sockets.delete(s));
  };
  const server = net.createServer((client) => {
    track(client);
    if (mode === 'blackhole') return; // held open, never answered
    opened++;
    const upstream = net.connect(target.port, target.host);
    track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  server.on('error', () => {});
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve((server.address() as net.AddressInfo).port);
      });
    });
  const dropAll = () => {
    for (const s of sockets) s.destroy();
  };
  const port = await listen(0);
  return {
    port,
    get opened() {
      return opened;
    },
    async cut() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        dropAll();
      });
    },
    blackhole() {
      mode = 'blackhole';
    },
    async restore() {
      mode = 'forward';
      dropAll(); // black-holed connections end; the pool connects anew
      if (!server.listening) await listen(port);
    },
    async close() {
      dropAll();
      if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
