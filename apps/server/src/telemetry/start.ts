/**
 * The telemetry role: ingest behind either the embedded broker (default) or a client bridge
 * to an external broker (MQTT_URL) with a shared subscription. Also returns what the
 * commands module needs to publish to gateways.
 */
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Store } from '../db/index.ts';
import { startBrokerBridge } from './broker/bridge.ts';
import { startEmbeddedBroker } from './broker/embedded.ts';
import { createIngest, type Ingest } from './ingest/pipeline.ts';
import { startWalCheckpointer } from './ingest/wal-checkpointer.ts';
import { startSummaryRefresher } from './summary-refresher.ts';

export interface Telemetry {
  ingest: Ingest;
  /** The MQTT URL a local gateway (the demo simulator) connects to. */
  localUrl: string | null;
  publish(topic: string, payload: Buffer | string, opts: { qos: 0 | 1 | 2 }): Promise<void>;
  close(): Promise<void>;
}

export async function startTelemetry(config: Config, store: Store, log: Logger): Promise<Telemetry> {
  const summaries = startSummaryRefresher(store.db, log);
  // SQLite: WAL checkpoints move off the committing connection to a worker thread.
  const checkpointer = store.sqliteFile
    ? startWalCheckpointer(store.sqliteFile, { onError: (m) => log.warn({ part: 'wal' }, m) })
    : null;
  if (checkpointer) store.sqlite?.pragma('wal_autocheckpoint = 0');
  const ingest = createIngest({
    db: store.db,
    dialect: store.dialect,
    sqlite: store.sqlite,
    decodeInWorker: true,
    log: log.child({ part: 'ingest' }),
    onBatch: (plants) => summaries.touch(plants),
  });
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
    async close() {
      await broker.close();
      await stopAll();
    },
  };
}
