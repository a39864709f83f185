/**
 * A test server with ingest in the same process (as `npm start`): frames fed to `ingest` land in
 * the server's store, and the API's `deps.ingest.forget` calls reach this ingest (and are
 * recorded). Tests outside telemetry feed data through here rather than importing ingest.
 */
import type { FieldValue } from '@sunfleet/protocols';
import type { DeviceKind } from '../../src/db/schema.ts';
import { sampleColumns } from '../../src/energy/samples.ts';
import { silentLogger } from '../../src/log.ts';
import { createIngest, type Ingest, ruleEvents } from '../../src/telemetry/ingest/index.ts';
import { kinds } from '../../src/telemetry/ingest/kinds.ts';
import { startServer, type TestServer } from '../harness.ts';

export type { Ingest };

export interface IngestServer {
  s: TestServer;
  ingest: Ingest;
  /** deviceSn / gatewaySn arguments of every `deps.ingest.forget` call. */
  forgotten: Array<{ gatewaySn?: string; deviceSn?: string }>;
  close(): Promise<void>;
}

export async function ingestServer(): Promise<IngestServer> {
  // The ingest needs the server's store, and the server needs the ingest: built in that order.
  const deps: { ingest?: Ingest } = {};
  const forgotten: IngestServer['forgotten'] = [];
  const s = await startServer({}, undefined, {
    ingest: {
      forget: (o) => {
        forgotten.push(o ?? {});
        deps.ingest?.forget(o);
      },
    },
  });
  const dialect = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';
  const ingest = createIngest({ db: s.db, dialect, log: silentLogger, flushMs: 10 });
  deps.ingest = ingest;
  return {
    s,
    ingest,
    forgotten,
    async close() {
      await ingest.close();
      await s.close();
    },
  };
}

/** The codes of the events the server's own rules raise (ingest's rules and the offline job). */
export const ruleEventCodes: readonly string[] = Object.keys(ruleEvents);

/** The samples-table row ingest stores for a device's decoded values: its columns and their values. */
export function storedSample(kind: DeviceKind, values: Record<string, FieldValue>) {
  return { columns: sampleColumns[kind], sample: kinds[kind].sample(values) };
}
