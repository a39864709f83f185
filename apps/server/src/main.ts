/** Process entry: config, store, roles, graceful shutdown. */
import path from 'node:path';
import pino from 'pino';
import { buildApp } from './app.ts';
import { ensureAdmin } from './bootstrap/admin.ts';
import { DEMO_PASSWORD, demoAccounts, ensureDemo } from './bootstrap/demo.ts';
import { ensureDemoFleet } from './bootstrap/demo-fleet.ts';
import { type SimulatorProcess, startSimulator } from './bootstrap/simulator.ts';
import { startLeader } from './cluster/leader.ts';
import { clusterEffects, createClusterBus, telemetryHandler } from './cluster/notify.ts';
import { createCommandChannel } from './commands/service.ts';
import { startCommandSweeper } from './commands/sweeper.ts';
import { ConfigError, loadConfig } from './config.ts';
import { createDb, migrate } from './db/index.ts';
import { Ven } from './demand-response/ven.ts';
import { loadFirmwareSigner } from './firmware/signing.ts';
import { startHousekeeping } from './jobs/housekeeping.ts';
import { startOfflineJob } from './jobs/offline.ts';
import { createMailer } from './mail/mailer.ts';
import { createMetrics } from './metrics/metrics.ts';
import { AccessTokens } from './modules/auth/tokens.ts';
import { startEventNotifier } from './modules/events/notifier.ts';
import { startUpgradeRunner, upgradeCtx } from './modules/upgrades/index.ts';
import { SHUTDOWN_LIMIT_MS, shutDown } from './shutdown.ts';
import { MosquittoDynsec } from './telemetry/broker/dynsec.ts';
import { liveGatewaySns } from './telemetry/gateways.ts';
import { startTelemetry, type Telemetry } from './telemetry/start.ts';

async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(`configuration error: ${e.message}`);
      process.exit(2);
    }
    throw e;
  }
  const log = pino({ level: config.logLevel, redact: ['req.headers.authorization', '*.password', '*.refresh_token'] });
  const store = createDb({
    databaseUrl: config.databaseUrl,
    poolSize: config.databasePoolSize,
    statementTimeoutMs: config.databaseStatementTimeoutMs,
    longStatementTimeoutMs: config.databaseLongStatementTimeoutMs,
    sqliteFile: path.join(config.dataDir, 'sunfleet.db'),
    applicationName: 'sunfleet',
    onConnectionError: (err) => log.warn({ err }, 'store connection lost; the next query connects anew'),
  });
  const { db, dialect } = store;
  await migrate(db);
  log.info({ store: dialect }, 'store ready');

  const admin = await ensureAdmin(db, config);
  if (admin) {
    const lines = ['', '  First start: a system administrator was created.', `    account:  ${admin.account}`];
    lines.push(
      admin.password
        ? `    password: ${admin.password}   (shown once; change it after signing in)`
        : '    password: from ADMIN_PASSWORD',
    );
    console.log(`${lines.join('\n')}\n`);
  }
  log.info({ demo: config.demo, reason: config.demoReason }, `demo accounts ${config.demo ? 'on' : 'off'}`);
  if (config.demo && (await ensureDemo(db, config))) {
    console.log(`\n  Demo accounts (password ${DEMO_PASSWORD}): ${Object.values(demoAccounts).join(', ')}\n`);
  }

  const mailer = createMailer({
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    outboxDir: path.join(config.dataDir, 'outbox'),
    log,
  });
  let telemetry: Telemetry | null = null;
  const metrics = createMetrics({
    dialect,
    pool: store.pool,
    sqliteFile: store.sqliteFile,
    telemetry: () => telemetry?.stats() ?? null,
    processMetrics: true,
  });
  // Commands to gateways: stored by any process, sent by those with the MQTT side (ingest role).
  const commands = createCommandChannel({ db, dialect, log: log.child({ part: 'commands' }), defaults: config.commands });
  const deps = {
    config,
    db,
    dialect,
    tokens: new AccessTokens(config.jwtSecret, config.accessTokenTtlSec),
    mailer,
    metrics,
    commands,
    // Made on first start; the same key signs every image this store holds.
    firmwareSigner: loadFirmwareSigner(config.dataDir),
  };

  // Ingest first, so that gateways connecting at start find it ready.
  telemetry = config.roles.has('ingest')
    ? await startTelemetry(config, store, log, { onCommit: metrics.onCommit, commands })
    : null;
  // Changes made through the API that every process's ingest and broker must hear of at once.
  const cluster = createClusterBus({ db, databaseUrl: config.databaseUrl, log: log.child({ part: 'cluster' }) });
  if (telemetry) cluster.subscribe(telemetryHandler(telemetry));
  // Expiry, timeouts, resends (also of jobs sent before a restart) and sending what waits.
  const commandSweeper =
    config.roles.has('ingest') || config.roles.has('jobs')
      ? startCommandSweeper(commands, log.child({ part: 'commands' }))
      : null;
  if (telemetry?.localUrl) log.info({ url: telemetry.localUrl }, 'MQTT broker listening');
  if (telemetry?.localTls)
    log.info({ url: telemetry.localTls.url, fingerprint: telemetry.localTls.fingerprint }, 'MQTT over TLS listening');
  // The demo fleet connects as gateways should: over TLS, trusting the broker's certificate.
  const localBroker = telemetry?.localTls ?? (telemetry?.localUrl ? { url: telemetry.localUrl, certFile: null } : null);
  // Work that must run once however many jobs processes run: in the one that leads (a PostgreSQL
  // advisory lock; SQLite's one process always leads).
  const leader = config.roles.has('jobs')
    ? startLeader({ databaseUrl: config.databaseUrl, name: 'jobs', log: log.child({ part: 'leader' }) })
    : null;
  const whenLeader = { when: () => leader?.isLeader() ?? false };
  const offlineJob = config.roles.has('jobs') ? startOfflineJob({ db, log: log.child({ part: 'jobs' }), ...whenLeader }) : null;
  // Pending pictures past their hour, idle throttle counters.
  const housekeeping = config.roles.has('jobs')
    ? startHousekeeping({
        db,
        dataDir: config.dataDir,
        commandJobRetentionDays: config.commands.retentionDays,
        log: log.child({ part: 'housekeeping' }),
        ...whenLeader,
      })
    : null;
  // Upgrade rollouts: waves, confirmation by reported version, pauses (claimed through the store).
  const upgradeRunner = config.roles.has('jobs')
    ? startUpgradeRunner(upgradeCtx({ db, dialect, commands, config }), log.child({ part: 'upgrades' }))
    : null;
  // Fault e-mails to users who enabled them (one process: the leader).
  const eventNotifier = config.roles.has('jobs')
    ? startEventNotifier({ db, mailer, log: log.child({ part: 'notifier' }), ...whenLeader })
    : null;

  // The OpenADR VEN's upkeep (one process at a time, by a lease) and its due work.
  const ven =
    config.oadr && config.roles.has('jobs')
      ? new Ven({ db, config: config.oadr, commands, log: log.child({ part: 'demand-response' }) })
      : null;
  ven?.start();

  // Mosquitto as the external broker: gateways' accounts kept by the API (dynamic security).
  const brokerAccounts =
    config.roles.has('api') && config.mqtt.dynsecUrl
      ? new MosquittoDynsec(config.mqtt.dynsecUrl, log.child({ part: 'dynsec' }))
      : null;
  // The roles, the server's own account and the removal of stale ones: tried again every 10 s
  // until Mosquitto answers (it may start after the API); gateways made meanwhile get a 503.
  const prepareAccounts = async (): Promise<void> => {
    if (!brokerAccounts) return;
    try {
      await brokerAccounts.prepare(
        { username: config.mqtt.serverUsername, password: config.mqtt.serverPassword },
        await liveGatewaySns(db),
      );
      log.info('dynamic security: roles and the server account ready');
    } catch (err) {
      log.warn({ err: (err as Error).message }, 'dynamic security: not ready; trying again in 10 s');
      setTimeout(() => void prepareAccounts(), 10_000).unref();
    }
  };
  void prepareAccounts();
  const app = config.roles.has('api')
    ? await buildApp(
        {
          ...deps,
          ...clusterEffects(cluster),
          ...(brokerAccounts ? { brokerAccounts } : {}),
        },
        log,
      )
    : null;
  if (app) {
    await app.listen({ port: config.port, host: config.host });
    console.log(`  Sunfleet is running on http://localhost:${config.port}\n`);
  }

  let simulator: SimulatorProcess | null = null;
  const fleet = config.demo && config.simulator && localBroker ? await ensureDemoFleet(db, config) : null;
  if (config.demo && config.simulator && localBroker && !fleet) {
    log.warn('the demo owner account is gone: no demo fleet is simulated');
  }
  if (fleet && localBroker) {
    simulator = startSimulator({
      url: localBroker.url,
      caFile: localBroker.certFile,
      credentialsFile: fleet.file,
      intervalS: config.simulatorInterval,
      backfillDays: fleet.created ? config.simulatorBackfillDays : 0,
      firmwareKey: loadFirmwareSigner(config.dataDir).publicKey,
      log,
    });
    console.log(`  Demo fleet: ${config.simulatorGateways} simulated gateways upload every ${config.simulatorInterval} s\n`);
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal, limitMs: SHUTDOWN_LIMIT_MS }, 'shutting down');
    await shutDown(log, {
      // Both ports stop listening at once, whatever the other still waits for.
      listeners: [() => simulator?.stop(), () => app?.close(), () => telemetry?.close(), () => brokerAccounts?.close()],
      cutConnections: () => app?.server.closeAllConnections(),
      rest: [
        [
          () => commandSweeper?.stop(),
          () => offlineJob?.stop(),
          () => housekeeping?.stop(),
          () => upgradeRunner?.stop(),
          () => eventNotifier?.stop(),
          () => ven?.stop(),
        ],
        [() => leader?.stop(), () => cluster.close(), () => commands.close(), () => mailer.close()],
        [() => db.destroy()],
      ],
      exit: (code) => process.exit(code),
    });
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
