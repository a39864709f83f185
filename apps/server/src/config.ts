/** Environment → typed configuration, validated once at start. A bad value stops the process. */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isGatewaySn, isPassword, limits } from '@sunfleet/contracts';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  /** PostgreSQL connections this process may hold at once (DATABASE_POOL_SIZE). */
  databasePoolSize: number;
  /** PostgreSQL: a statement running longer is cancelled (ms; 0: no limit); reports and imports have the long one. */
  databaseStatementTimeoutMs: number;
  databaseLongStatementTimeoutMs: number;
  /**
   * Access-token signing key: JWT_SECRET, or a key made once in the data folder
   * (`keys/jwt.key`), read when first used, so sessions outlive a restart.
   */
  jwtSecret: string;
  accessTokenTtlSec: number;
  refreshTokenTtlSec: number;
  smtpUrl: string | null;
  mailFrom: string;
  /** The portal's public address (PORTAL_URL), for links in mail; null: mails name the page instead. */
  portalUrl: string | null;
  /** Demo tenants with their published password (see demoSetting). */
  demo: boolean;
  /** Why `demo` is on or off, for the start-up log. */
  demoReason: string;
  roles: Set<'api' | 'ingest' | 'jobs'>;
  webDist: string | null;
  adminEmail: string | null;
  adminPassword: string | null;
  logLevel: string;
  rateLimits: boolean;
  /** Overload (http/pressure.ts): past either limit a new request is refused at once with 503; null: off. */
  pressure: PressureConfig | null;
  /** Reverse-proxy hops in front of the server whose X-Forwarded-For is trusted; 0: none. */
  trustProxy: number;
  /** Bearer token a scraper outside the loopback address presents for /metrics; null: loopback only. */
  metricsToken: string | null;
  /** scrypt/argon2 cost: 'owasp' in production; tests may lower it. */
  passwordCost: 'owasp' | 'test';
  mqtt: {
    /** Embedded broker port (no MQTT_URL). */
    port: number;
    host: string;
    /** External broker: the server connects as a client instead of embedding one. */
    url: string | null;
    serverUsername: string;
    serverPassword: string;
    shareGroup: string;
    clientId: string;
    /** On a graceful stop, leave the share group before disconnecting (a process removed for good). */
    leaveOnStop: boolean;
    /** Per-gateway messages per second and burst; false: off. */
    rateLimit: { perSecond: number; burst: number } | false;
    /**
     * Secret the external broker presents to the authentication and authorization hooks
     * (`/internal/mqtt/*`, EMQX's HTTP auth); null: the hooks refuse every call.
     */
    hookSecret: string | null;
    /** The embedded broker's plain (unencrypted) listener; off in production unless switched on. */
    plain: boolean;
    /**
     * The embedded broker's TLS listener (null: none): its port and the certificate and key files
     * (null: a self-signed pair made in the data folder, outside production only).
     */
    tls: { port: number; host: string; certFile: string | null; keyFile: string | null } | null;
    /**
     * Mosquitto's dynamic-security admin (`mqtt://admin:password@host:port`): gateways' accounts
     * are made and removed there by the API (telemetry/broker/dynsec.ts); null: not used.
     */
    dynsecUrl: string | null;
  };
  /** The command channel's defaults (commands/). */
  commands: {
    /** From sending a command to its final reply; then the job is timed out. */
    timeoutMs: number;
    /** How long a command waits for an offline gateway before it expires. */
    expiryMs: number;
    /** A sent command without an answer is sent again (same id) this often until its timeout. */
    resendMs: number;
    /** Final jobs finished longer ago are deleted by housekeeping (commands/retention.ts). */
    retentionDays: number;
  };
  /** Remote firmware upgrades (modules/upgrades). */
  upgrades: {
    /** Where devices fetch images: the server's address as they reach it (the signed links start with it). */
    baseUrl: string;
    /** Key of the download links' HMAC; null: a key made once in the data folder (`keys/upgrade-links.key`). */
    linkSecret: string | null;
    /** How long a download link works. */
    linkTtlMs: number;
    /** From sending an upgrade to the device's final reply (download, check, flash). */
    timeoutMs: number;
    /** After the device says it flashed: how long to wait for it to report the new version. */
    confirmMs: number;
  };
  /** Run the simulated demo fleet (default: on when DEMO is on). */
  simulator: boolean;
  /** Seconds between simulated uploads. */
  simulatorInterval: number;
  simulatorGateways: number;
  /** Days of history the demo fleet uploads on first start. */
  simulatorBackfillDays: number;
  /** The mobile app's store pages, shown with their QR codes on /app/download; null: that store is not shown. */
  appStores: { ios: string | null; android: string | null };
  /** The plant map's tile server; null: the web's bundled country outlines, nothing fetched from outside. */
  mapTiles: MapTiles | null;
  /** The OpenADR 3 VTN the demand-response area takes part in through; null: not connected. */
  oadr: OadrConfig | null;
}

export interface PressureConfig {
  /** Mean event-loop delay (ms) over the last sample. */
  maxEventLoopDelayMs: number;
  /** Share of the last sample the event loop was busy (0–1); 0: not checked. */
  maxEventLoopUtilization: number;
  /** How often the event loop is sampled (ms). */
  sampleIntervalMs: number;
  /** Seconds a refused client is asked to wait (Retry-After). */
  retryAfterSec: number;
}

export interface OadrConfig {
  /** The VTN's API base URL (its /programs, /events, … below it). */
  vtnUrl: string;
  clientId: string;
  clientSecret: string;
  /** The VEN's name at the VTN (unique there). */
  venName: string;
  /** The portal's public URL of the webhook (`…/api/v1/oadr/callback`); null: polling only. */
  callbackUrl: string | null;
  /** Seconds between polls of the VTN (programmes, events) and upkeep of the registration. */
  pollSeconds: number;
}

export interface MapTiles {
  /** Leaflet URL template: {z}, {x}, {y}, optionally {s} (subdomain) and {r} (retina). */
  url: string;
  /** HTML the tile server's terms ask to show (may be empty). */
  attribution: string;
  maxZoom: number;
  /** The CSP source the tile images come from (`https://*.tile.example.org` for a {s} template). */
  imageSource: string;
}

export class ConfigError extends Error {}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  return n;
}

function flag(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name]?.toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'on', 'true', 'yes'].includes(raw)) return true;
  if (['0', 'off', 'false', 'no'].includes(raw)) return false;
  throw new ConfigError(`${name} must be on or off, got "${env[name]}"`);
}

/**
 * Demo accounts carry a published password: on by default so `npm start` on a fresh machine
 * has something to sign in with, off by default with NODE_ENV=production, where only an
 * explicit DEMO=on enables them.
 */
export function demoSetting(env: NodeJS.ProcessEnv): { demo: boolean; demoReason: string } {
  const production = env.NODE_ENV === 'production';
  if (env.DEMO !== undefined && env.DEMO !== '') {
    const demo = flag(env, 'DEMO', false);
    return { demo, demoReason: `DEMO=${env.DEMO}${production && demo ? ' (enabled in production)' : ''}` };
  }
  return production
    ? { demo: false, demoReason: 'NODE_ENV=production turns the demo off unless DEMO=on' }
    : { demo: true, demoReason: 'default outside NODE_ENV=production' };
}

/**
 * OADR_VTN_URL with OADR_CLIENT_ID and OADR_CLIENT_SECRET (the OAuth2 client credentials the
 * VTN's operator provisions); all three or none. OADR_CALLBACK_URL: the webhook the VTN calls.
 */
export function oadrSetting(env: NodeJS.ProcessEnv): OadrConfig | null {
  const vtnUrl = env.OADR_VTN_URL?.trim();
  const clientId = env.OADR_CLIENT_ID?.trim();
  const clientSecret = env.OADR_CLIENT_SECRET ?? '';
  if (!vtnUrl && !clientId && !clientSecret) return null;
  if (!vtnUrl || !clientId || !clientSecret)
    throw new ConfigError('OADR_VTN_URL, OADR_CLIENT_ID and OADR_CLIENT_SECRET are set together or not at all');
  const url = (name: string, raw: string) => {
    try {
      const u = new URL(raw);
      if (!/^https?:$/.test(u.protocol)) throw new Error('scheme');
    } catch {
      throw new ConfigError(`${name} must be an http:// or https:// URL, got "${raw}"`);
    }
    return raw.replace(/\/+$/, '');
  };
  const venName = env.OADR_VEN_NAME?.trim() || 'sunfleet-ven';
  if (venName.length > 128) throw new ConfigError('OADR_VEN_NAME must be at most 128 characters');
  const callback = env.OADR_CALLBACK_URL?.trim();
  return {
    vtnUrl: url('OADR_VTN_URL', vtnUrl),
    clientId,
    clientSecret,
    venName,
    callbackUrl: callback ? url('OADR_CALLBACK_URL', callback) : null,
    pollSeconds: int(env, 'OADR_POLL_SECONDS', 60, 5, 3600),
  };
}

/**
 * PRESSURE (on by default) with PRESSURE_LOOP_DELAY_MS, PRESSURE_LOOP_UTILIZATION (0–1; 0 or unset:
 * not checked), PRESSURE_SAMPLE_MS and PRESSURE_RETRY_AFTER (seconds).
 */
export function pressureSetting(env: NodeJS.ProcessEnv): PressureConfig | null {
  if (!flag(env, 'PRESSURE', true)) return null;
  const raw = env.PRESSURE_LOOP_UTILIZATION;
  const utilization = raw === undefined || raw === '' ? 0 : Number(raw);
  if (!Number.isFinite(utilization) || utilization < 0 || utilization > 1)
    throw new ConfigError(`PRESSURE_LOOP_UTILIZATION must be a number from 0 to 1, got "${raw}"`);
  return {
    maxEventLoopDelayMs: int(env, 'PRESSURE_LOOP_DELAY_MS', 250, 1, 60_000),
    maxEventLoopUtilization: utilization,
    sampleIntervalMs: int(env, 'PRESSURE_SAMPLE_MS', 500, 10, 60_000),
    retryAfterSec: int(env, 'PRESSURE_RETRY_AFTER', 2, 1, 3600),
  };
}

/** TRUST_PROXY: off (default), on (one proxy in front), or the number of proxy hops. */
function proxyHops(env: NodeJS.ProcessEnv): number {
  const raw = env.TRUST_PROXY;
  if (raw !== undefined && /^\d+$/.test(raw)) return int(env, 'TRUST_PROXY', 0, 0, 10);
  return flag(env, 'TRUST_PROXY', false) ? 1 : 0;
}

function rateLimit(raw: string | undefined): Config['mqtt']['rateLimit'] {
  if (raw === undefined || raw === '') return { perSecond: 50, burst: 2000 };
  if (raw === 'off') return false;
  const m = raw.match(/^(\d+)\/(\d+)$/);
  if (!m) throw new ConfigError(`MQTT_RATE_LIMIT must be "<per second>/<burst>" or off, got "${raw}"`);
  return { perSecond: Number(m[1]), burst: Number(m[2]) };
}

/** An app store page: an absolute http(s) URL of at most 2048 characters, or unset. */
function storeUrl(env: NodeJS.ProcessEnv, name: string): string | null {
  const raw = env[name]?.trim();
  if (!raw) return null;
  let url: URL | null = null;
  try {
    url = new URL(raw);
  } catch {
    url = null;
  }
  if (!url || !/^https?:$/.test(url.protocol) || raw.length > 2048)
    throw new ConfigError(`${name} must be an http:// or https:// URL of at most 2048 characters, got "${raw}"`);
  return raw;
}

/**
 * MAP_TILE_URL (+ MAP_TILE_ATTRIBUTION, MAP_TILE_MAX_ZOOM): an http(s) tile URL template with {z},
 * {x} and {y}. Its origin becomes the images' CSP source; a {s} in the host name stands for any
 * subdomain there (CSP allows a wildcard only as the leftmost label).
 */
export function mapTilesSetting(env: NodeJS.ProcessEnv): MapTiles | null {
  const url = env.MAP_TILE_URL?.trim();
  if (!url) return null;
  const bad = (why: string) => new ConfigError(`MAP_TILE_URL ${why}, got "${url}"`);
  for (const part of ['{z}', '{x}', '{y}']) if (!url.includes(part)) throw bad(`must contain ${part}`);
  const match = url.match(/^(https?):\/\/([^/?#]+)/i);
  if (!match) throw bad('must be an http:// or https:// URL template');
  const [, scheme, authority] = match as unknown as [string, string, string];
  const [, hostName, port = ''] = authority.match(/^(.*?)(:\d+)?$/) as unknown as [string, string, string | undefined];
  let parsed: URL;
  try {
    parsed = new URL(`${scheme}://${hostName.replace(/\{[a-z]+\}/g, 'x')}${port}`);
  } catch {
    throw bad('has no valid host');
  }
  if (authority.includes('@') || parsed.hostname === '') throw bad('must name a host without a user name or password');
  const labels = hostName.split('.');
  const templated = labels.findLastIndex((label) => label.includes('{'));
  if (templated >= 0 && templated > labels.length - 3)
    throw bad('may have a placeholder in the host name only below the domain ({s}.tile.example.org)');
  const host = templated < 0 ? hostName : ['*', ...labels.slice(templated + 1)].join('.');
  return {
    url,
    attribution: env.MAP_TILE_ATTRIBUTION ?? '',
    maxZoom: int(env, 'MAP_TILE_MAX_ZOOM', 19, 1, 22),
    imageSource: `${scheme.toLowerCase()}://${host.toLowerCase()}${port}`,
  };
}

/**
 * A secret kept in the data folder (`<dataDir>/keys/<name>`, mode 0600): read if it is there,
 * else made. It is written whole to a file of its own and linked into place; the link fails if
 * the name exists, so processes starting together all end up with the first one's key, and none
 * reads a half-written file.
 */
export function dataFolderKey(dataDir: string, name: string): string {
  const file = path.join(dataDir, 'keys', name);
  const read = () => fs.readFileSync(file, 'utf8').trim();
  if (fs.existsSync(file)) return read();
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const draft = `${file}.${process.pid}.${randomBytes(6).toString('hex')}`;
  fs.writeFileSync(draft, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
  try {
    fs.linkSync(draft, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    fs.rmSync(draft, { force: true });
  }
  return read();
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Relative paths are relative to where the user ran npm (INIT_CWD), not the workspace npm
  // switched into: `npm start` at the repository root keeps its store in ./data.
  const dataDir = path.resolve(env.INIT_CWD ?? process.cwd(), env.DATA_DIR ?? './data');
  const jwtSecret = env.JWT_SECRET ?? '';
  if (jwtSecret && jwtSecret.length < 32) throw new ConfigError('JWT_SECRET must be at least 32 characters');
  const metricsToken = env.METRICS_TOKEN || null;
  if (metricsToken && (metricsToken.length < 16 || /\s/.test(metricsToken)))
    throw new ConfigError('METRICS_TOKEN must be at least 16 characters, without spaces');
  const roles = new Set((env.ROLES ?? 'api,ingest,jobs').split(',').map((r) => r.trim()));
  for (const r of roles) if (!['api', 'ingest', 'jobs'].includes(r)) throw new ConfigError(`ROLES: unknown role "${r}"`);
  const databaseUrl = env.DATABASE_URL || null;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) throw new ConfigError('DATABASE_URL must be a postgres:// URL');
  const smtpUrl = env.SMTP_URL || null;
  const mqttUrl = env.MQTT_URL || null;
  if (mqttUrl && !/^mqtts?:\/\//.test(mqttUrl)) throw new ConfigError('MQTT_URL must be an mqtt:// or mqtts:// URL');
  // An ingest process's unacknowledged messages, and its share of the group's messages while it is
  // down, wait in its persistent session on the broker: only a process that connects again under
  // the same client id gets them (Mosquitto keeps handing a disconnected member its share). An id
  // made per process start (host and pid) would strand them, so the supervisor names each slot.
  if (mqttUrl && roles.has('ingest') && !env.MQTT_CLIENT_ID) {
    throw new ConfigError(
      'MQTT_CLIENT_ID is required with MQTT_URL and the ingest role: a stable id per ingest process (e.g. sunfleet.ingest.1), the same after a restart',
    );
  }
  if (env.MQTT_CLIENT_ID && !/^[A-Za-z0-9._-]{1,64}$/.test(env.MQTT_CLIENT_ID)) {
    throw new ConfigError('MQTT_CLIENT_ID must be 1 to 64 letters, digits, dots, dashes or underscores');
  }
  if (env.MQTT_SERVER_USERNAME && isGatewaySn(env.MQTT_SERVER_USERNAME)) {
    throw new ConfigError('MQTT_SERVER_USERNAME must not look like a gateway SN (use a dot, e.g. sunfleet.server)');
  }
  const hookSecret = env.MQTT_HOOK_SECRET || null;
  if (hookSecret && (hookSecret.length < 32 || /\s/.test(hookSecret)))
    throw new ConfigError('MQTT_HOOK_SECRET must be at least 32 characters, without spaces');
  // The hook lets the server's own MQTT clients in by this password, so every process must share it.
  if (hookSecret && !env.MQTT_SERVER_PASSWORD)
    throw new ConfigError(
      "MQTT_HOOK_SECRET needs MQTT_SERVER_PASSWORD: the password of the server user in the ingest processes' MQTT_URL",
    );
  if (smtpUrl && !/^smtps?:\/\//.test(smtpUrl)) throw new ConfigError('SMTP_URL must be an smtp:// or smtps:// URL');
  const portalUrl = env.PORTAL_URL ? env.PORTAL_URL.replace(/\/+$/, '') : null;
  if (portalUrl && !/^https?:\/\/[^/?#]+(\/[^?#]*)?$/.test(portalUrl))
    throw new ConfigError(`PORTAL_URL must be an http:// or https:// URL, got "${portalUrl}"`);
  // The first administrator's password follows the same rules as every other password.
  if (env.ADMIN_PASSWORD && !isPassword(env.ADMIN_PASSWORD)) {
    throw new ConfigError(`ADMIN_PASSWORD must be ${limits.password.min} to ${limits.password.max} characters without spaces`);
  }
  const port = int(env, 'PORT', 8080, 0, 65535);
  const firmwareBaseUrl = (env.FIRMWARE_BASE_URL || `http://127.0.0.1:${port}`).replace(/\/+$/, '');
  if (!/^https?:\/\/[^/?#]+(\/[^?#]*)?$/.test(firmwareBaseUrl))
    throw new ConfigError(`FIRMWARE_BASE_URL must be an http:// or https:// URL, got "${firmwareBaseUrl}"`);
  const linkSecret = env.UPGRADE_LINK_SECRET || null;
  let dataFolderJwtKey: string | null = null;
  if (linkSecret && linkSecret.length < 32) throw new ConfigError('UPGRADE_LINK_SECRET must be at least 32 characters');
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    dataDir,
    databaseUrl,
    // Several processes share the server's max_connections: processes × pool ≤ it, with room left.
    databasePoolSize: int(env, 'DATABASE_POOL_SIZE', 10, 1, 1000),
    // A query on a hung server fails (503) instead of holding its request and connection for ever.
    databaseStatementTimeoutMs: int(env, 'DATABASE_STATEMENT_TIMEOUT', 30, 0, 3600) * 1000,
    databaseLongStatementTimeoutMs: int(env, 'DATABASE_LONG_STATEMENT_TIMEOUT', 600, 0, 86_400) * 1000,
    // Without JWT_SECRET: the data folder's key, the same after a restart and in every process
    // sharing the folder; read on first use, so loading the configuration writes nothing.
    get jwtSecret() {
      if (jwtSecret) return jwtSecret;
      dataFolderJwtKey ??= dataFolderKey(dataDir, 'jwt.key');
      return dataFolderJwtKey;
    },
    accessTokenTtlSec: int(env, 'ACCESS_TOKEN_TTL', 900, 10, 86400),
    refreshTokenTtlSec: int(env, 'REFRESH_TOKEN_TTL', 30 * 86400, 60, 365 * 86400),
    smtpUrl,
    mailFrom: env.MAIL_FROM ?? 'Sunfleet <no-reply@sunfleet.local>',
    portalUrl,
    ...demoSetting(env),
    roles: roles as Config['roles'],
    webDist: env.WEB_DIST === '' ? null : path.resolve(env.WEB_DIST ?? path.join(import.meta.dirname, '../../web/dist')),
    adminEmail: env.ADMIN_EMAIL || null,
    adminPassword: env.ADMIN_PASSWORD || null,
    logLevel: env.LOG_LEVEL ?? 'info',
    rateLimits: flag(env, 'RATE_LIMITS', true),
    pressure: pressureSetting(env),
    trustProxy: proxyHops(env),
    metricsToken,
    passwordCost: env.PASSWORD_COST === 'test' ? 'test' : 'owasp',
    mqtt: {
      port: int(env, 'MQTT_PORT', 1883, 0, 65535),
      host: env.MQTT_HOST ?? '0.0.0.0',
      url: mqttUrl,
      serverUsername: env.MQTT_SERVER_USERNAME ?? 'sunfleet.server',
      // Without one, a random password per process: only this process's own clients use it.
      serverPassword: env.MQTT_SERVER_PASSWORD || randomBytes(18).toString('base64url'),
      shareGroup: env.MQTT_SHARE_GROUP ?? 'sunfleet-ingest',
      clientId: env.MQTT_CLIENT_ID ?? `sunfleet.${os.hostname().replace(/[^A-Za-z0-9-]/g, '-')}.${process.pid}`,
      rateLimit: rateLimit(env.MQTT_RATE_LIMIT),
      hookSecret,
      leaveOnStop: flag(env, 'MQTT_LEAVE_ON_STOP', false),
      ...mqttListeners(env, env.NODE_ENV === 'production', roles.has('ingest') && !mqttUrl),
      dynsecUrl: dynsecUrl(env),
    },
    commands: {
      timeoutMs: int(env, 'COMMAND_TIMEOUT', 30, 1, 3600) * 1000,
      expiryMs: int(env, 'COMMAND_EXPIRY', 86_400, 10, 30 * 86_400) * 1000,
      resendMs: int(env, 'COMMAND_RESEND', 10, 1, 3600) * 1000,
      retentionDays: int(env, 'COMMAND_JOB_RETENTION_DAYS', 180, 1, 36_500),
    },
    upgrades: {
      baseUrl: firmwareBaseUrl,
      linkSecret,
      linkTtlMs: int(env, 'UPGRADE_LINK_TTL', 3600, 60, 7 * 86_400) * 1000,
      timeoutMs: int(env, 'UPGRADE_TIMEOUT', 1800, 10, 86_400) * 1000,
      confirmMs: int(env, 'UPGRADE_CONFIRM', 600, 5, 86_400) * 1000,
    },
    simulator: flag(env, 'SIMULATOR', demoSetting(env).demo),
    simulatorInterval: int(env, 'SIMULATOR_INTERVAL', 60, 5, 3600),
    simulatorGateways: int(env, 'SIMULATOR_GATEWAYS', 12, 1, 10000),
    simulatorBackfillDays: int(env, 'SIMULATOR_BACKFILL_DAYS', 7, 0, 366),
    appStores: { ios: storeUrl(env, 'APP_IOS_URL'), android: storeUrl(env, 'APP_ANDROID_URL') },
    mapTiles: mapTilesSetting(env),
    oadr: oadrSetting(env),
  };
}

/**
 * The embedded broker's listeners: plain MQTT (`MQTT_PORT`; off in production unless
 * `MQTT_PLAIN=on`) and MQTT over TLS (`MQTT_TLS_PORT`: 8883, or a free port when `MQTT_PORT` is given;
 * `MQTT_TLS=off` for none) with `MQTT_TLS_CERT` and `MQTT_TLS_KEY` (both or neither; in production
 * required unless TLS is off).
 */
function mqttListeners(
  env: NodeJS.ProcessEnv,
  production: boolean,
  /** This process runs the embedded broker (the ingest role without MQTT_URL). */
  embedded: boolean,
): Pick<Config['mqtt'], 'plain' | 'tls'> {
  const plain = flag(env, 'MQTT_PLAIN', !production);
  const certFile = env.MQTT_TLS_CERT || null;
  const keyFile = env.MQTT_TLS_KEY || null;
  if ((certFile === null) !== (keyFile === null)) throw new ConfigError('MQTT_TLS_CERT and MQTT_TLS_KEY go together');
  for (const file of [certFile, keyFile])
    if (file !== null && !fs.existsSync(file)) throw new ConfigError(`MQTT TLS file not found: ${file}`);
  const on = flag(env, 'MQTT_TLS', true);
  if (embedded && on && production && certFile === null)
    throw new ConfigError('MQTT_TLS_CERT and MQTT_TLS_KEY are required in production (or MQTT_TLS=off behind a TLS proxy)');
  if (embedded && !on && !plain) throw new ConfigError('the embedded broker needs a listener: MQTT_TLS or MQTT_PLAIN on');
  // 8883 beside the default plain port; beside a plain port given (tests, benches), a free one unless given too.
  const defaultTlsPort = env.MQTT_PORT === undefined || env.MQTT_PORT === '' ? 8883 : 0;
  return {
    plain,
    tls: on
      ? {
          port: int(env, 'MQTT_TLS_PORT', defaultTlsPort, 0, 65535),
          host: env.MQTT_TLS_HOST ?? env.MQTT_HOST ?? '0.0.0.0',
          certFile,
          keyFile,
        }
      : null,
  };
}

/** `MQTT_DYNSEC_URL`: an mqtt:// or mqtts:// URL with the plugin admin's user name and password. */
function dynsecUrl(env: NodeJS.ProcessEnv): string | null {
  const raw = env.MQTT_DYNSEC_URL || null;
  if (raw === null) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('MQTT_DYNSEC_URL must be an mqtt:// or mqtts:// URL');
  }
  if (!/^mqtts?:$/.test(url.protocol) || !url.username || !url.password)
    throw new ConfigError('MQTT_DYNSEC_URL must be an mqtt:// or mqtts:// URL with the admin user and password');
  return raw;
}
