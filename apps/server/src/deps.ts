/** What the HTTP app and the other roles share: built once in main.ts (or a test). */
import type { CommandChannel } from './commands/channel.ts';
import type { Config } from './config.ts';
import type { Db, Dialect } from './db/index.ts';
import type { FirmwareSigner } from './firmware/signing.ts';
import type { Mailer } from './mail/mailer.ts';
import type { Metrics } from './metrics/metrics.ts';
import type { AccessTokens } from './modules/auth/tokens.ts';
import type { BrokerAccounts } from './telemetry/broker/dynsec.ts';

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
   * Ingest's caches: drop its cached gateways, devices and plant facts after a change made
   * through the API. main.ts sends this to every process's ingest (cluster/notify.ts); a test may
   * pass its own. Absent: ingest's caches reload within their time to live (5 min).
   */
  ingest?: { forget(opts?: { gatewaySn?: string; deviceSn?: string }): void };
  /**
   * Gateways deleted: every process's embedded broker drops their cached secret and ends their
   * live session at once (cluster/notify.ts). Absent: the cached secret expires within 60 s.
   */
  revokeGateways?: (sns: readonly string[]) => void;
  /**
   * Gateways' accounts on an external Mosquitto (MQTT_DYNSEC_URL, telemetry/broker/dynsec.ts):
   * made before the gateway stock commits new gateways, removed when they are deleted. Absent: the
   * broker asks the store (embedded broker, EMQX's hooks).
   */
  brokerAccounts?: BrokerAccounts;
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
