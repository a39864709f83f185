/** What the HTTP app and the other roles share: built once in main.ts (or a test). */
import type { CommandChannel } from './commands/channel.ts';
import type { Config } from './config.ts';
import type { Db, Dialect } from './db/index.ts';
import type { FirmwareSigner } from './firmware/signing.ts';
import type { Mailer } from './mail/mailer.ts';
import type { Metrics } from './metrics/metrics.ts';
import type { AccessTokens } from './modules/auth/tokens.ts';

export interface Deps {
  config: Config;
  db: Db;
  dialect: Dialect;
  tokens: AccessTokens;
  mailer: Mailer;
  /**
   * The command channel to gateways (commands/): jobs stored in the database, sent over MQTT by
   * whichever process can publish. buildApp makes one over the store when none is given (it then
   * stores jobs, and a process with the ingest role sends them).
   */
  commands: CommandChannel;
  /**
   * Ingest in this process (roles api and ingest together, as `npm start`): drop its cached
   * gateways, devices and plant facts after a change made through the API. Absent when ingest
   * runs elsewhere; its caches then reload within their time to live (5 min).
   */
  ingest?: { forget(opts?: { gatewaySn?: string; deviceSn?: string }): void };
  /**
   * This process's counters (`/metrics`, the system status page). main.ts builds them with the
   * store and the ingest role; without them the app makes its own (HTTP and store figures only).
   */
  metrics?: Metrics;
  /** The server's firmware signing key (firmware/signing.ts), loaded once at start. */
  firmwareSigner: FirmwareSigner;
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: Deps;
  }
}
