/** Environment → configuration: defaults, and a bad value stops the start with a ConfigError naming it. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, dataFolderKey, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('has working defaults on a bare machine', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      dataDir: path.resolve('./data'),
      databaseUrl: null,
      databasePoolSize: 10,
      databaseStatementTimeoutMs: 30_000,
      databaseLongStatementTimeoutMs: 600_000,
      smtpUrl: null,
      accessTokenTtlSec: 900,
      refreshTokenTtlSec: 30 * 86400,
      demo: true,
      rateLimits: true,
      trustProxy: 0,
      metricsToken: null,
      passwordCost: 'owasp',
    });
    expect([...c.roles].sort()).toEqual(['api', 'ingest', 'jobs']);
  });

  it('PostgreSQL statement limits in seconds: 30 for API queries, 600 for reports and imports; 0 turns one off', () => {
    expect(loadConfig({ DATABASE_STATEMENT_TIMEOUT: '5', DATABASE_LONG_STATEMENT_TIMEOUT: '0' })).toMatchObject({
      databaseStatementTimeoutMs: 5000,
      databaseLongStatementTimeoutMs: 0,
    });
    expect(() => loadConfig({ DATABASE_STATEMENT_TIMEOUT: '-1' })).toThrow(ConfigError);
    expect(() => loadConfig({ DATABASE_LONG_STATEMENT_TIMEOUT: '1.5' })).toThrow(ConfigError);
  });

  it('without JWT_SECRET the signing key is made once in the data folder: a restart keeps sessions', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sunfleet-jwt-'));
    try {
      const first = loadConfig({ DATA_DIR: dataDir });
      const file = path.join(dataDir, 'keys', 'jwt.key');
      expect(fs.existsSync(file)).toBe(false); // loading the configuration writes nothing
      expect(first.jwtSecret.length).toBeGreaterThanOrEqual(32);
      expect(first.jwtSecret).toBe(first.jwtSecret);
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      // The next start (and every process sharing the folder) signs with the same key.
      expect(loadConfig({ DATA_DIR: dataDir }).jwtSecret).toBe(first.jwtSecret);
      expect(dataFolderKey(dataDir, 'jwt.key')).toBe(first.jwtSecret);
      expect(fs.readdirSync(path.dirname(file))).toEqual(['jwt.key']); // no drafts left
      // Another data folder, another key; JWT_SECRET wins over the folder's key.
      expect(loadConfig({ DATA_DIR: `${dataDir}/other` }).jwtSecret).not.toBe(first.jwtSecret);
      expect(loadConfig({ DATA_DIR: dataDir, JWT_SECRET: 'y'.repeat(32) }).jwtSecret).toBe('y'.repeat(32));
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('commands: timeout, expiry and resend in seconds, defaults 30 s, a day and 10 s; job retention in days, default 180; out of range refused', () => {
    expect(loadConfig({}).commands).toEqual({ timeoutMs: 30_000, expiryMs: 86_400_000, resendMs: 10_000, retentionDays: 180 });
    expect(
      loadConfig({ COMMAND_TIMEOUT: '5', COMMAND_EXPIRY: '600', COMMAND_RESEND: '2', COMMAND_JOB_RETENTION_DAYS: '30' }).commands,
    ).toEqual({
      timeoutMs: 5000,
      expiryMs: 600_000,
      resendMs: 2000,
      retentionDays: 30,
    });
    expect(() => loadConfig({ COMMAND_TIMEOUT: '0' })).toThrow(ConfigError);
    expect(() => loadConfig({ COMMAND_JOB_RETENTION_DAYS: '0' })).toThrow(/COMMAND_JOB_RETENTION_DAYS/);
    expect(() => loadConfig({ COMMAND_EXPIRY: 'soon' })).toThrow(/COMMAND_EXPIRY/);
  });

  it('overload: on by default (250 ms mean loop delay, 500 ms samples, Retry-After 2 s, utilisation not checked); off, set, or refused', () => {
    expect(loadConfig({}).pressure).toEqual({
      maxEventLoopDelayMs: 250,
      maxEventLoopUtilization: 0,
      sampleIntervalMs: 500,
      retryAfterSec: 2,
    });
    expect(loadConfig({ PRESSURE: 'off' }).pressure).toBeNull();
    expect(
      loadConfig({
        PRESSURE_LOOP_DELAY_MS: '100',
        PRESSURE_LOOP_UTILIZATION: '0.95',
        PRESSURE_SAMPLE_MS: '200',
        PRESSURE_RETRY_AFTER: '5',
      }).pressure,
    ).toEqual({ maxEventLoopDelayMs: 100, maxEventLoopUtilization: 0.95, sampleIntervalMs: 200, retryAfterSec: 5 });
    expect(() => loadConfig({ PRESSURE_LOOP_UTILIZATION: '1.5' })).toThrow(/PRESSURE_LOOP_UTILIZATION/);
    expect(() => loadConfig({ PRESSURE_LOOP_DELAY_MS: '0' })).toThrow(/PRESSURE_LOOP_DELAY_MS/);
    expect(() => loadConfig({ PRESSURE: 'maybe' })).toThrow(/PRESSURE/);
  });

  it('the app store pages: none by default, http(s) URLs when given, anything else refused', () => {
    expect(loadConfig({}).appStores).toEqual({ ios: null, android: null });
    const ios = 'https://apps.apple.com/app/sunfleet/id123456789';
    const android = 'https://play.google.com/store/apps/details?id=com.sunfleet.app';
    expect(loadConfig({ APP_IOS_URL: ios, APP_ANDROID_URL: ` ${android} ` }).appStores).toEqual({ ios, android });
    expect(loadConfig({ APP_IOS_URL: '' }).appStores.ios).toBeNull();
    for (const bad of [
      'apps.apple.com/app',
      'javascript:alert(1)',
      'ftp://x.example/app',
      `https://x.example/${'a'.repeat(2048)}`,
    ])
      expect(() => loadConfig({ APP_ANDROID_URL: bad }), bad).toThrow(/APP_ANDROID_URL/);
  });

  it('demo accounts: on by default, off with NODE_ENV=production unless DEMO=on, with the reason', () => {
    expect(loadConfig({})).toMatchObject({ demo: true, simulator: true, demoReason: 'default outside NODE_ENV=production' });
    expect(loadConfig({ NODE_ENV: 'development' }).demo).toBe(true);
    // (Production needs the broker's TLS files, or TLS off behind a proxy: `tls.test.ts`.)
    const behindProxy = { MQTT_TLS: 'off', MQTT_PLAIN: 'on' };
    const production = loadConfig({ NODE_ENV: 'production', ...behindProxy });
    expect(production).toMatchObject({ demo: false, simulator: false });
    expect(production.demoReason).toMatch(/NODE_ENV=production.*DEMO=on/);
    const enabled = loadConfig({ NODE_ENV: 'production', DEMO: 'on', ...behindProxy });
    expect(enabled).toMatchObject({ demo: true, simulator: true, demoReason: 'DEMO=on (enabled in production)' });
    expect(loadConfig({ DEMO: 'off' })).toMatchObject({ demo: false, simulator: false, demoReason: 'DEMO=off' });
    expect(() => loadConfig({ NODE_ENV: 'production', DEMO: 'maybe', ...behindProxy })).toThrow(ConfigError);
  });

  it('resolves a relative DATA_DIR against where npm was run, not the workspace folder', () => {
    expect(loadConfig({ INIT_CWD: '/srv/sunfleet' }).dataDir).toBe('/srv/sunfleet/data');
    expect(loadConfig({ INIT_CWD: '/srv/sunfleet', DATA_DIR: 'store' }).dataDir).toBe('/srv/sunfleet/store');
    expect(loadConfig({ INIT_CWD: '/srv/sunfleet', DATA_DIR: '/var/lib/sunfleet' }).dataDir).toBe('/var/lib/sunfleet');
  });

  it('an external broker with the ingest role takes the stable client id it is given; without ingest none is needed', () => {
    const c = loadConfig({ MQTT_URL: 'mqtt://broker:1883', ROLES: 'ingest', MQTT_CLIENT_ID: 'sunfleet.ingest.2' });
    expect(c.mqtt).toMatchObject({ url: 'mqtt://broker:1883', clientId: 'sunfleet.ingest.2', leaveOnStop: false });
    expect(loadConfig({ MQTT_URL: 'mqtt://b:1883', MQTT_CLIENT_ID: 'x.1', MQTT_LEAVE_ON_STOP: 'on' }).mqtt.leaveOnStop).toBe(
      true,
    );
    expect(loadConfig({ MQTT_URL: 'mqtt://broker:1883', ROLES: 'api,jobs' }).mqtt.url).toBe('mqtt://broker:1883');
  });

  it('reads the values it is given', () => {
    const c = loadConfig({
      PORT: '9000',
      DATABASE_URL: 'postgres://u:p@db:5432/sunfleet',
      DATABASE_POOL_SIZE: '25',
      JWT_SECRET: 'x'.repeat(32),
      SMTP_URL: 'smtps://user:pw@mail.example.com:465',
      ROLES: 'api, jobs',
      RATE_LIMITS: 'off',
      DEMO: 'no',
      TRUST_PROXY: 'on',
      ACCESS_TOKEN_TTL: '600',
      METRICS_TOKEN: 'scrape-token-0123456789',
    });
    expect(c).toMatchObject({
      port: 9000,
      databaseUrl: 'postgres://u:p@db:5432/sunfleet',
      databasePoolSize: 25,
      jwtSecret: 'x'.repeat(32),
      smtpUrl: 'smtps://user:pw@mail.example.com:465',
      rateLimits: false,
      demo: false,
      trustProxy: 1,
      accessTokenTtlSec: 600,
      metricsToken: 'scrape-token-0123456789',
    });
    expect([...c.roles].sort()).toEqual(['api', 'jobs']);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: 'off' }).trustProxy).toBe(0);
  });

  it("the plant map: no tile server by default; a template gives its images' CSP source", () => {
    expect(loadConfig({}).mapTiles).toBeNull();
    expect(loadConfig({ MAP_TILE_URL: ' ' }).mapTiles).toBeNull();
    expect(loadConfig({ MAP_TILE_URL: 'https://{s}.tile.example.org/{z}/{x}/{y}.png' }).mapTiles).toEqual({
      url: 'https://{s}.tile.example.org/{z}/{x}/{y}.png',
      attribution: '',
      maxZoom: 19,
      imageSource: 'https://*.tile.example.org',
    });
    const local = loadConfig({
      MAP_TILE_URL: 'http://127.0.0.1:8081/styles/basic/{z}/{x}/{y}.png?key=abc',
      MAP_TILE_ATTRIBUTION: 'Our tiles',
      MAP_TILE_MAX_ZOOM: '14',
    }).mapTiles;
    expect(local).toMatchObject({ attribution: 'Our tiles', maxZoom: 14, imageSource: 'http://127.0.0.1:8081' });
    // A placeholder inside a label: that label and those left of it become the wildcard.
    expect(loadConfig({ MAP_TILE_URL: 'https://a.tile-{s}.maps.example.org/{z}/{x}/{y}.png' }).mapTiles?.imageSource).toBe(
      'https://*.maps.example.org',
    );
  });

  it.each([
    [{ PORT: 'abc' }, /PORT must be an integer from 0 to 65535, got "abc"/],
    [{ PORT: '70000' }, /PORT must be an integer/],
    [{ PORT: '80.5' }, /PORT must be an integer/],
    [{ DATABASE_URL: 'mysql://root@db/sunfleet' }, /DATABASE_URL must be a postgres:\/\/ URL/],
    [{ DATABASE_URL: 'sunfleet.db' }, /DATABASE_URL/],
    [{ DATABASE_POOL_SIZE: '0' }, /DATABASE_POOL_SIZE/],
    [{ JWT_SECRET: 'too-short' }, /JWT_SECRET must be at least 32 characters/],
    [{ SMTP_URL: 'http://mail.example.com' }, /SMTP_URL must be an smtp:\/\/ or smtps:\/\/ URL/],
    [{ ROLES: 'api,web' }, /ROLES: unknown role "web"/],
    [{ RATE_LIMITS: 'maybe' }, /RATE_LIMITS must be on or off/],
    [{ MQTT_URL: 'mqtt://broker:1883' }, /MQTT_CLIENT_ID is required with MQTT_URL and the ingest role/],
    [{ MQTT_URL: 'mqtt://broker:1883', ROLES: 'ingest' }, /MQTT_CLIENT_ID is required/],
    [{ MQTT_URL: 'mqtt://broker:1883', MQTT_CLIENT_ID: 'sunfleet/ingest#1' }, /MQTT_CLIENT_ID must be 1 to 64/],
    [{ TRUST_PROXY: 'everyone' }, /TRUST_PROXY must be on or off/],
    [{ TRUST_PROXY: '11' }, /TRUST_PROXY must be an integer from 0 to 10/],
    [{ METRICS_TOKEN: 'short' }, /METRICS_TOKEN must be at least 16 characters/],
    [{ MQTT_HOOK_SECRET: 'short', MQTT_SERVER_PASSWORD: 'p' }, /MQTT_HOOK_SECRET must be at least 32 characters/],
    [{ MQTT_HOOK_SECRET: 'h'.repeat(32) }, /MQTT_HOOK_SECRET needs MQTT_SERVER_PASSWORD/],
    [{ ACCESS_TOKEN_TTL: '5' }, /ACCESS_TOKEN_TTL must be an integer from 10/],
    [{ ADMIN_PASSWORD: 'short' }, /ADMIN_PASSWORD must be 6 to 16 characters without spaces/],
    [{ ADMIN_PASSWORD: 'seventeen-chars-x' }, /ADMIN_PASSWORD must be 6 to 16 characters/],
    [{ ADMIN_PASSWORD: 'with space' }, /ADMIN_PASSWORD must be 6 to 16 characters without spaces/],
    [{ MAP_TILE_URL: 'https://tiles.example.org/{z}/{x}.png' }, /MAP_TILE_URL must contain \{y\}/],
    [{ MAP_TILE_URL: 'ftp://tiles.example.org/{z}/{x}/{y}.png' }, /MAP_TILE_URL must be an http:\/\/ or https:\/\//],
    [{ MAP_TILE_URL: '//tiles.example.org/{z}/{x}/{y}.png' }, /MAP_TILE_URL must be an http/],
    [{ MAP_TILE_URL: 'https://{s}.org/{z}/{x}/{y}.png' }, /placeholder in the host name only below the domain/],
    [{ MAP_TILE_URL: 'https://u:p@tiles.example.org/{z}/{x}/{y}.png' }, /without a user name or password/],
    [{ MAP_TILE_URL: 'https://tiles.example.org/{z}/{x}/{y}.png', MAP_TILE_MAX_ZOOM: '30' }, /MAP_TILE_MAX_ZOOM must be/],
  ])('refuses %o with a ConfigError naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
