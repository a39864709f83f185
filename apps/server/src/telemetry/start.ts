/**
 * The telemetry role: ingest behind either the embedded broker (default) or a client bridge
 * to an external broker (MQTT_URL) with a shared subscription. Also returns what the
 * commands module needs to publish to gateways.
 */
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Store } from '../db/index.ts';
import type { CommitHook, TelemetrySnapshot } from '../metrics/metrics.ts';
import { startBrokerBridge } from './broker/bridge.ts';
import { startEmbeddedBroker } from './broker/embedded.ts';
import { createIngest, type Ingest, type IngestOptions } from './ingest/pipeline.ts';
import { startWalCheckpointer } from './ingest/wal-checkpointer.ts';
import { startSummaryRefresher } from './summary-refresher.ts';

export interface Telemetry {
  ingest: Ingest;
  /** The MQTT URL a local gateway (the demo simulator) connects to. */
  localUrl: string | null;
  publish(topic: string, payload: Buffer | string, opts: { qos: 0 | 1 | 2 }): Promise<void>;
  /** Ingest's and the MQTT side's counters, for the metrics. */
  stats(): TelemetrySnapshot;
  close(): Promise<void>;
}

export interface TelemetryOptions {
  /** Called after each committed ingest batch (the batch commit-time histogram). */
  onCommit?: CommitHook;
}

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
  };
  const ingest = createIngest(ingestOptions);
  const stopAll = async () => {
    await ingest.close();
    await summaries.stop();
    await checkpointer?.stop();
  };
  const common = { db: store.db, log: log.child({ part: 'mqtt' }), handler: ingest, rateLimit: config.mqtt.rateLimit };
  if (config.mqtt.url) {
    const bridge = await startBrokerBridge({
      ...common,
      url: config.mqtt.url,
      clientId: config.mqtt.clientId,
      group: config.mqtt.shareGroup,
    });
    return {
      ingest,
      localUrl: null,
      publish: (topic, payload, opts) => bridge.publish(topic, payload, opts),
      stats: () => ({ ingest: ingest.stats(), broker: { kind: 'bridge', ...bridge.stats() } }),
      async close() {
        await bridge.close();
        await stopAll();
      },
    };
  }
  const broker = await startEmbeddedBroker({
    ...common,
    port: config.mqtt.port,
    host: config.mqtt.host,
    serverCredentials: { username: config.mqtt.serverUsername, password: config.mqtt.serverPassword },
  });
  return {
    ingest,
    localUrl: `mqtt://127.0.0.1:${broker.port}`,
    publish: (topic, payload, opts) => broker.publish(topic, payload, opts),
    stats: () => ({ ingest: ingest.stats(), broker: { kind: 'embedded', ...broker.stats() } }),
    async close() {
      await broker.close();
      await stopAll();
    },
  };
}
