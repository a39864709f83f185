/**
 * The telemetry role: ingest behind either the embedded broker (default) or a client bridge
 * to an external broker (MQTT_URL) with a shared subscription. Also returns what the
 * commands module needs to publish to gateways.
 */
import type { Logger } from 'pino';
import type { CommandService } from '../commands/service.ts';
import type { Config } from '../config.ts';
import type { Store } from '../db/index.ts';
import type { CommitHook, TelemetrySnapshot } from '../metrics/metrics.ts';
import { startBrokerBridge } from './broker/bridge.ts';
import { startEmbeddedBroker } from './broker/embedded.ts';
import { brokerTls } from './broker/tls.ts';
import { createIngest, type Ingest, type IngestOptions } from './ingest/pipeline.ts';
import { startWalCheckpointer } from './ingest/wal-checkpointer.ts';
import { startSummaryRefresher } from './summary-refresher.ts';
import type { TelemetryHandler } from './types.ts';

export interface Telemetry {
  ingest: Ingest;
  /** The plain MQTT URL a local gateway connects to; null without a plain listener. */
  localUrl: string | null;
  /** The MQTT-over-TLS URL a local gateway (the demo simulator) connects to, the certificate it trusts and its fingerprint. */
  localTls: { url: string; certFile: string; fingerprint: string } | null;
  publish(topic: string, payload: Buffer | string, opts: { qos: 0 | 1 | 2 }): Promise<void>;
  /** Ingest's and the MQTT side's counters, for the metrics. */
  stats(): TelemetrySnapshot;
  /**
   * A gateway deleted: the embedded broker forgets its cached secret and ends its session. An
   * external broker asks the authentication hook on every connect, which reads the store.
   */
  revoke(sn: string): void;
  close(): Promise<void>;
}

export interface TelemetryOptions {
  /** Called after each committed ingest batch (the batch commit-time histogram). */
  onCommit?: CommitHook;
  /** The command channel: takes the gateways' replies, publishes through this MQTT side, and hears who comes online. */
  commands?: CommandService;
}

/** Gateway messages to their consumer: command replies to the command channel, the rest to ingest. */
export function routeReplies(ingest: TelemetryHandler, commands: CommandService): TelemetryHandler {
  return {
    message(sn, channel, payload, receivedAt, ack) {
      if (channel === 'reply') commands.reply(sn, payload, ack);
      else ingest.message(sn, channel, payload, receivedAt, ack);
    },
    ready: () => ingest.ready?.() ?? null,
  };
}

/** What the command channel needs of presence: a gateway that says it is online gets what waits for it. */
export const commandPresence = (commands: CommandService | undefined, log: Logger) =>
  commands
    ? {
        onOnline: (sn: string) =>
          void commands.gatewayOnline(sn).catch((err) => log.error({ err, sn }, 'sending waiting commands failed')),
      }
    : {};

export async function startTelemetry(config: Config, store: Store, log: Logger, opts: TelemetryOptions = {}): Promise<Telemetry> {
  const summaries = startSummaryRefresher(store.db, log);
  // SQLite: WAL checkpoints move off the committing connection to a worker thread.
  const checkpointer = store.sqliteFile
    ? startWalCheckpointer(store.sqliteFile, { onError: (m) => log.warn({ part: 'wal' }, m) })
    : null;
  if (checkpointer) store.sqlite?.pragma('wal_autocheckpoint = 0');
  // `onCommit` is an ingest option once ingest reports each commit; passed as a variable so that
  // this compiles before and after.
  const ingestOptions: IngestOptions = {
    db: store.db,
    dialect: store.dialect,
    sqlite: store.sqlite,
    decodeInWorker: true,
    log: log.child({ part: 'ingest' }),
    onBatch: (plants) => summaries.touch(plants),
    onCommit: opts.onCommit,
    // Through an external broker's shared subscription, other ingest processes take this
    // process's gateways' messages too.
    sharedDevices: Boolean(config.mqtt.url && config.mqtt.shareGroup),
  };
  const ingest = createIngest(ingestOptions);
  const stopAll = async () => {
    await ingest.close();
    await summaries.stop();
    await checkpointer?.stop();
  };
  const commands = opts.commands;
  const mqttLog = log.child({ part: 'mqtt' });
  const common = {
    db: store.db,
    log: mqttLog,
    handler: commands ? routeReplies(ingest, commands) : ingest,
    rateLimit: config.mqtt.rateLimit,
    presence: commandPresence(commands, mqttLog),
  };
  if (config.mqtt.url) {
    const bridge = await startBrokerBridge({
      ...common,
      url: config.mqtt.url,
      clientId: config.mqtt.clientId,
      group: config.mqtt.shareGroup,
      leaveOnClose: config.mqtt.leaveOnStop,
    });
    commands?.attach((topic, payload, o) => bridge.publish(topic, payload, o));
    return {
      ingest,
      localUrl: null,
      localTls: null,
      publish: (topic, payload, opts) => bridge.publish(topic, payload, opts),
      stats: () => ({ ingest: ingest.stats(), broker: { kind: 'bridge', ...bridge.stats() }, commands: commands?.stats() }),
      revoke: () => {},
      async close() {
        await bridge.close();
        await stopAll();
      },
    };
  }
  const tlsListener = config.mqtt.tls;
  const certificate = tlsListener ? await brokerTls(tlsListener, config.dataDir, mqttLog) : null;
  const broker = await startEmbeddedBroker({
    ...common,
    port: config.mqtt.plain ? config.mqtt.port : null,
    host: config.mqtt.host,
    tls:
      tlsListener && certificate
        ? { port: tlsListener.port, host: tlsListener.host, key: certificate.key, cert: certificate.cert }
        : null,
    serverCredentials: { username: config.mqtt.serverUsername, password: config.mqtt.serverPassword },
  });
  commands?.attach(
    (topic, payload, o) => broker.publish(topic, payload, o),
    (sn) => broker.isConnected(sn),
  );
  return {
    ingest,
    localUrl: config.mqtt.plain ? `mqtt://127.0.0.1:${broker.port}` : null,
    localTls:
      broker.tlsPort !== null && certificate
        ? { url: `mqtts://127.0.0.1:${broker.tlsPort}`, certFile: certificate.certFile, fingerprint: certificate.fingerprint }
        : null,
    publish: (topic, payload, opts) => broker.publish(topic, payload, opts),
    stats: () => ({ ingest: ingest.stats(), broker: { kind: 'embedded', ...broker.stats() }, commands: commands?.stats() }),
    revoke: (sn) => broker.revoke(sn),
    async close() {
      await broker.close();
      await stopAll();
    },
  };
}
