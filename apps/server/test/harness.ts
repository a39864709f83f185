/**
 * One server per test file: a private store (in-memory SQLite, or a fresh schema in the
 * PostgreSQL database of TEST_DATABASE_URL), a real SMTP server for mail, and helpers to
 * make accounts and sign in. `close()` drops everything it made.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ErrorCode } from '@sunfleet/contracts';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { buildApp } from '../src/app.ts';
import { type Config, loadConfig } from '../src/config.ts';
import { createDb, type Db, type DbOptions, migrate, now, type Store } from '../src/db/index.ts';
import type { AccountKind } from '../src/db/schema.ts';
import type { Deps } from '../src/deps.ts';
import { createMailer } from '../src/mail/mailer.ts';
import { hashPassword } from '../src/modules/auth/passwords.ts';
import { AccessTokens } from '../src/modules/auth/tokens.ts';
import { startSmtp, type TestSmtp } from './smtp.ts';
import { createSchema, dropSchema } from './store.ts';

export const PASSWORD = 'Secret123';

export interface TestServer {
  app: FastifyInstance;
  db: Db;
  store: Store;
  config: Config;
  smtp: TestSmtp;
  /** The PostgreSQL schema of its store (undefined on SQLite). */
  pgSchema: string | undefined;
  close(): Promise<void>;
  /** Make an account directly in the store. */
  user(
    opts?: Partial<{
      account: string;
      kind: AccountKind;
      companyId: number;
      roleId: number;
      readOnly: boolean;
      enabled: boolean;
      agentCompanyId: number;
    }>,
  ): Promise<{ id: number; account: string }>;
  /** Sign in through /oauth/token; returns both tokens. */
  login(account: string, password?: string): Promise<{ access: string; refresh: string; userId: number }>;
  /** Inject a request with a bearer token. */
  call(
    token: string | null,
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    payload?: unknown,
  ): Promise<{ status: number; body: { code: number; msg: string; data: unknown } }>;
}

let seq = 0;
export const uniqueAccount = (prefix = 'user') =>
  `${prefix}.${process.pid}.${++seq}.${randomBytes(3).toString('hex')}@example.com`;

/** `extend` may add routes (test-only endpoints) before the app is ready. */
export async function startServer(
  overrides: Partial<Config> = {},
  extend?: (app: FastifyInstance) => void,
  /** Services a test stands in for, e.g. an `ingest` whose `forget` calls are recorded. */
  extra: Partial<Pick<Deps, 'ingest' | 'commands' | 'revokeGateways' | 'brokerAccounts'>> = {},
  /**
   * How the app reaches its store: PostgreSQL through another address (a proxy in front of
   * TEST_DATABASE_URL) with its own application_name; SQLite in a file instead of in memory.
   * `sameStoreAs`: the store of that server (its PostgreSQL schema or its SQLite file), opened
   * anew with connections of its own, as a second server process would; left to that server to drop.
   */
  storeOptions: Pick<
    DbOptions,
    'databaseUrl' | 'applicationName' | 'sqliteFile' | 'onConnectionError' | 'statementTimeoutMs' | 'longStatementTimeoutMs'
  > & {
    sameStoreAs?: TestServer;
  } = {
    databaseUrl: null,
  },
): Promise<TestServer> {
  const pgUrl = process.env.TEST_DATABASE_URL || null;
  const { sameStoreAs, ...dbOptions } = storeOptions;
  const schema = pgUrl ? (sameStoreAs?.pgSchema ?? (await createSchema(pgUrl))) : undefined;
  if (sameStoreAs && !pgUrl && !sameStoreAs.store.sqliteFile) throw new Error('sameStoreAs: that server keeps SQLite in memory');
  const store = createDb({
    ...dbOptions,
    ...(sameStoreAs?.store.sqliteFile ? { sqliteFile: sameStoreAs.store.sqliteFile } : {}),
    databaseUrl: pgUrl ? dbOptions.databaseUrl || pgUrl : null,
    pgSchema: schema,
    poolSize: 4,
  });
  const { db, dialect } = store;
  await migrate(db);
  const smtp = await startSmtp();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sunfleet-test-'));
  const config: Config = {
    ...loadConfig({ DATA_DIR: dataDir, WEB_DIST: '', PASSWORD_COST: 'test', RATE_LIMITS: 'off', DEMO: 'off', PRESSURE: 'off' }),
    smtpUrl: smtp.url,
    ...overrides,
  };
  const log = pino({ level: 'silent' });
  const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, outboxDir: path.join(dataDir, 'outbox'), log });
  const app = await buildApp({
    config,
    db,
    dialect,
    tokens: new AccessTokens(config.jwtSecret, config.accessTokenTtlSec),
    mailer,
    ...extra,
  });
  extend?.(app);
  await app.ready();

  const server: TestServer = {
    app,
    db,
    store,
    config,
    smtp,
    pgSchema: schema,
    async close() {
      await app.close();
      mailer.close();
      await smtp.close();
      await db.destroy();
      if (pgUrl && schema && !sameStoreAs) await dropSchema(pgUrl, schema);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
    async user(opts = {}) {
      const account = (opts.account ?? uniqueAccount(opts.kind ?? 'user')).toLowerCase();
      const t = now();
      const row = await db
        .insertInto('users')
        .values({
          account,
          password_hash: await hashPassword(PASSWORD, 'test'),
          kind: opts.kind ?? 'end_user',
          company_id: opts.companyId ?? null,
          role_id: opts.roleId ?? null,
          read_only: opts.readOnly ? 1 : 0,
          enabled: opts.enabled === false ? 0 : 1,
          agent_company_id: opts.agentCompanyId ?? null,
          created_at: t,
          updated_at: t,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { id: row.id, account };
    },
    async login(account, password = PASSWORD) {
      const res = await app.inject({
        method: 'POST',
        url: '/oauth/token',
        payload: { grant_type: 'password', username: account, password },
      });
      const body = res.json();
      if (body.code !== ErrorCode.ok) throw new Error(`login ${account} failed: ${res.body}`);
      return { access: body.data.access_token, refresh: body.data.refresh_token, userId: body.data.userId };
    },
    async call(token, method, url, payload) {
      const res = await app.inject({
        method,
        url,
        ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
        ...(payload !== undefined ? { payload: payload as object } : {}),
      });
      return { status: res.statusCode, body: res.json() };
    },
  };
  return server;
}
