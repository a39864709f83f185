/**
 * What the benches that command simulated gateways share: a store (a temp SQLite file, or a
 * fresh schema in the PostgreSQL database of BENCH_DATABASE_URL), the server's ingest role wired
 * as main.ts wires it (the embedded broker, startTelemetry with the command channel, the command
 * sweeper), and the simulator's fleet in a child process connected to it over MQTT, waited for
 * until every gateway is online, and its gateways of string inverters. Used by bench/commands.ts,
 * bench/demand-response.ts and bench/upgrades.ts.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pino from 'pino';
import type { CommandChannel } from '../apps/server/src/commands/channel.ts';
import { createCommandChannel } from '../apps/server/src/commands/service.ts';
import { startCommandSweeper } from '../apps/server/src/commands/sweeper.ts';
import { type Config, loadConfig } from '../apps/server/src/config.ts';
import { createDb, type Db, migrate, type Store } from '../apps/server/src/db/index.ts';
import { provisionGateway } from '../apps/server/src/telemetry/gateways.ts';
import { startTelemetry } from '../apps/server/src/telemetry/start.ts';
import { unownedPlant } from '../apps/server/test/telemetry.ts';
import { deviceSn } from '../apps/simulator/src/demo.ts';
import { freePort } from './ingest-probes.ts';

export const root = path.resolve(import.meta.dirname, '..');
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export type StoreKind = 'sqlite' | 'postgres';

export interface BenchStore extends Store {
  kind: StoreKind;
  dataDir: string;
  /** Close the store and drop what it made (the schema, the temp folder). */
  drop(): Promise<void>;
}

/** A migrated store: PostgreSQL in a schema of its own (named `{prefix}_…`) or SQLite in a temp file. */
export async function openStore(
  kind: StoreKind,
  prefix: string,
  pgUrl = process.env.BENCH_DATABASE_URL || null,
): Promise<BenchStore> {
  if (kind === 'postgres' && !pgUrl) throw new Error('postgres needs BENCH_DATABASE_URL');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `sunfleet-${prefix}-`));
  const schema = kind === 'postgres' ? `${prefix}_${Date.now().toString(36)}` : undefined;
  if (schema) {
    const admin = createDb({ databaseUrl: pgUrl, poolSize: 1 });
    await sql`create schema ${sql.id(schema)}`.execute(admin.db);
    await admin.db.destroy();
  }
  const s = createDb({
    databaseUrl: kind === 'postgres' ? pgUrl : null,
    pgSchema: schema,
    sqliteFile: path.join(dataDir, 'sunfleet.db'),
    poolSize: 10,
  });
  await migrate(s.db);
  return {
    ...s,
    kind,
    dataDir,
    async drop() {
      await s.db.destroy();
      if (schema) {
        const admin = createDb({ databaseUrl: pgUrl, poolSize: 1 });
        await sql`drop schema ${sql.id(schema)} cascade`.execute(admin.db);
        await admin.db.destroy();
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface IngestRole {
  config: Config;
  commands: CommandChannel;
  telemetry: Awaited<ReturnType<typeof startTelemetry>>;
  /** The broker's address for the simulator. */
  url: string;
  close(): Promise<void>;
}

/** The server's ingest role on this store, as main.ts runs it: broker, ingest, command channel and sweeper. */
export async function startIngestRole(s: BenchStore, env: Record<string, string> = {}): Promise<IngestRole> {
  const mqttPort = await freePort();
  const config = loadConfig({
    DATA_DIR: s.dataDir,
    MQTT_PORT: String(mqttPort),
    MQTT_HOST: '127.0.0.1',
    MQTT_RATE_LIMIT: 'off',
    MQTT_TLS_PORT: '0',
    DEMO: 'off',
    WEB_DIST: '',
    ...env,
  });
  const log = pino({ level: 'warn' });
  const commands = createCommandChannel({ db: s.db, dialect: s.dialect, log, defaults: config.commands });
  const telemetry = await startTelemetry(config, s, log, { commands });
  const sweeper = startCommandSweeper(commands, log);
  return {
    config,
    commands,
    telemetry,
    url: `mqtt://127.0.0.1:${mqttPort}`,
    async close() {
      await sweeper.stop();
      await telemetry.close();
      await commands.close();
    },
  };
}

/** A gateway of the simulated fleet as the simulator's `--credentials` file lists it. */
export interface FleetGateway {
  sn: string;
  secret: string;
  plant: object;
  devices: object[];
}

/**
 * A plant (Madrid, unowned) with a provisioned gateway of `inverters` simulated 10 kW string
 * inverters, and the gateway as the fleet lists it.
 */
export async function stringInverterGateway(
  db: Db,
  sn: string,
  inverters: number,
  at: number = Date.now(),
): Promise<{ plantId: number; gatewayId: number; gateway: FleetGateway }> {
  const p = await db
    .insertInto('plants')
    .values(unownedPlant(`Bench plant ${sn}`, { timezone: 'Europe/Madrid', latitude: 40.42, longitude: -3.7 }, at))
    .returning('id')
    .executeTakeFirstOrThrow();
  const gw = await provisionGateway(db, { sn, plantId: p.id });
  return {
    plantId: p.id,
    gatewayId: gw.id,
    gateway: {
      sn,
      secret: gw.secret,
      plant: { lat: 40.42, lon: -3.7, timezone: 'Europe/Madrid', capacityKw: 10 * inverters, type: 'grid' },
      devices: Array.from({ length: inverters }, (_, k) => ({
        kind: 'string',
        sn: deviceSn(sn, 'ST', k),
        unit: k + 1,
        ratedW: 10_000,
        pvKwp: 10,
        mppts: 2,
      })),
    },
  };
}

export interface Fleet {
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * The simulator's fleet in a child process (a reading every `intervalS`, no faults, never
 * offline), returned once every one of its gateways is online in the store.
 */
export async function startFleet(
  s: BenchStore,
  url: string,
  gateways: readonly FleetGateway[],
  opts: { intervalS?: number; timeoutMs?: number } = {},
): Promise<Fleet> {
  const file = path.join(s.dataDir, `fleet-${Date.now()}.json`);
  fs.writeFileSync(file, JSON.stringify(gateways));
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'apps/simulator/src/cli.ts',
      '--url',
      url,
      '--credentials',
      file,
      '--interval',
      String(opts.intervalS ?? 300),
      '--fault-rate',
      '0',
      '--offline-rate',
      '0',
    ],
    { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const sns = gateways.map((g) => g.sn);
  const end = Date.now() + (opts.timeoutMs ?? 60_000);
  for (;;) {
    let online = 0;
    for (let i = 0; i < sns.length; i += 500) {
      const r = await s.db
        .selectFrom('gateways')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('online', '=', 1)
        .where('sn', 'in', sns.slice(i, i + 500))
        .executeTakeFirstOrThrow();
      online += Number(r.n);
    }
    if (online === sns.length) break;
    if (Date.now() > end || child.exitCode !== null) {
      child.kill('SIGKILL');
      throw new Error(`only ${online} of ${sns.length} fleet gateways online`);
    }
    await sleep(100);
  }
  return {
    child,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGINT');
      await new Promise((r) => child.once('exit', r));
    },
  };
}
