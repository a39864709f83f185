/**
 * The production layout (compose.yaml, deploy/), checked without Docker: the file parses; its
 * services are the documented ones; every variable a server process is given is one config.ts
 * reads, and each process's environment (with `.env` values filled in) passes loadConfig; the
 * ingest processes reach EMQX as the server user the API's hook lets in, each with its own client
 * id; EMQX calls the hooks the contracts declare, through the proxy's internal site, with the
 * same secret; the proxy spreads over exactly the API services.
 */
import fs from 'node:fs';
import path from 'node:path';
import { brokerHookApi } from '@sunfleet/contracts';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig } from '../config.ts';

const root = path.resolve(import.meta.dirname, '../../../..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

/** What `.env` would hold: long enough for every rule config.ts has. */
const dotEnv: Record<string, string> = {
  POSTGRES_PASSWORD: 'pg-password',
  JWT_SECRET: 'j'.repeat(40),
  MQTT_SERVER_PASSWORD: 'server-password',
  MQTT_HOOK_SECRET: 'h'.repeat(40),
  UPGRADE_LINK_SECRET: 'u'.repeat(40),
  EMQX_NODE_COOKIE: 'cookie',
  PUBLIC_URL: 'https://portal.example.com',
  ADMIN_EMAIL: 'admin@example.com',
};

/** Compose's interpolation: `${X}`, `${X:-default}`, `${X:?error}` (a missing required one fails). */
function interpolate(value: string): string {
  return value.replace(/\$\{([A-Z0-9_]+)(?::([-?])([^}]*))?\}/g, (_, name: string, op?: string, arg?: string) => {
    const v = dotEnv[name];
    if (v !== undefined && v !== '') return v;
    if (op === '?') throw new Error(`compose needs ${name}: ${arg}`);
    return op === '-' ? (arg ?? '') : '';
  });
}

interface Service {
  build?: { target?: string };
  image?: string;
  environment?: Record<string, string>;
  volumes?: string[];
}
const compose = parse(read('compose.yaml'), { merge: true }) as { services: Record<string, Service> };
const services = compose.services;
const envOf = (name: string) =>
  Object.fromEntries(Object.entries(services[name]?.environment ?? {}).map(([k, v]) => [k, interpolate(String(v))]));
const serverServices = Object.entries(services)
  .filter(([, s]) => s.build?.target === 'server')
  .map(([name]) => name);
const withRole = (role: string) => serverServices.filter((n) => envOf(n).ROLES === role);

/** Every variable config.ts reads: `env.NAME` and `(env, 'NAME'`. */
const configVariables = (() => {
  const text = fs.readFileSync(path.join(import.meta.dirname, '../config.ts'), 'utf8');
  const names = new Set<string>();
  for (const m of text.matchAll(/\benv\.([A-Z][A-Z0-9_]*)/g)) names.add(m[1]!);
  for (const m of text.matchAll(/\(env, '([A-Z][A-Z0-9_]*)'/g)) names.add(m[1]!);
  return names;
})();

describe('compose.yaml', () => {
  it('runs PostgreSQL, EMQX, 2 API, 2 ingest and 1 jobs process, and the proxy', () => {
    expect(services.postgres?.image).toMatch(/^postgres:/);
    expect(services.emqx?.image).toMatch(/^emqx\/emqx:5/);
    expect(withRole('api')).toEqual(['api-1', 'api-2']);
    expect(withRole('ingest')).toEqual(['ingest-1', 'ingest-2']);
    expect(withRole('jobs')).toEqual(['jobs']);
    expect(serverServices).toHaveLength(5);
    expect(services.proxy?.build?.target).toBe('proxy');
  });

  it('gives the server processes only variables config.ts reads, and each environment passes it', () => {
    expect(configVariables.size).toBeGreaterThan(30);
    for (const name of serverServices) {
      const env = envOf(name);
      for (const key of Object.keys(env)) expect(configVariables, `${name}: ${key}`).toContain(key);
      const config = loadConfig(env);
      expect(config.databaseUrl, name).toMatch(/@postgres:5432\//);
      expect(config.demo, name).toBe(false);
      expect(config.dataDir, name).toBe('/data');
      expect(services[name]!.volumes, name).toContain('sunfleet-data:/data');
    }
  });

  it('agrees across processes on what must be the same: token key, link key, server user, store', () => {
    const shared = [
      'DATABASE_URL',
      'JWT_SECRET',
      'UPGRADE_LINK_SECRET',
      'MQTT_SERVER_USERNAME',
      'MQTT_SERVER_PASSWORD',
      'DATA_DIR',
    ];
    const first = envOf(serverServices[0]!);
    for (const name of serverServices) for (const key of shared) expect(envOf(name)[key], `${name}: ${key}`).toBe(first[key]);
  });

  it('connects each ingest process to EMQX as the server user the hook lets in, with a client id of its own', () => {
    const api = loadConfig(envOf('api-1'));
    const ids = new Set<string>();
    for (const name of withRole('ingest')) {
      const config = loadConfig(envOf(name));
      const url = new URL(config.mqtt.url!);
      expect(url.hostname, name).toBe('emqx');
      expect(decodeURIComponent(url.username), name).toBe(api.mqtt.serverUsername);
      expect(decodeURIComponent(url.password), name).toBe(api.mqtt.serverPassword);
      expect(config.mqtt.shareGroup, name).toBe('sunfleet-ingest');
      ids.add(config.mqtt.clientId);
    }
    expect(ids.size).toBe(2);
    expect(api.mqtt.hookSecret).toBe(dotEnv.MQTT_HOOK_SECRET);
    expect(envOf('emqx').MQTT_HOOK_SECRET).toBe(api.mqtt.hookSecret);
  });
});

describe('deploy/', () => {
  const emqx = read('deploy/emqx/emqx.conf');
  const caddy = read('deploy/caddy/Caddyfile');

  it("EMQX calls the contracts' hooks through the proxy's internal site, with the secret, and nothing else decides", () => {
    const urls = [...emqx.matchAll(/url = "([^"]+)"/g)].map((m) => m[1]);
    expect(urls).toEqual([
      `http://proxy:8081${brokerHookApi.authenticate.path}`,
      `http://proxy:8081${brokerHookApi.authorize.path}`,
    ]);
    expect(emqx.match(/"authorization" = "Bearer "\$\{MQTT_HOOK_SECRET\}/g)).toHaveLength(2);
    expect(emqx).toMatch(/no_match = deny/);
    expect(emqx).toMatch(/shared_subscription_strategy = hash_clientid/);
    // Each field the hooks' bodies declare is sent.
    for (const ep of [brokerHookApi.authenticate, brokerHookApi.authorize]) {
      for (const field of Object.keys(ep.body.properties))
        expect(emqx, field).toMatch(new RegExp(`${field} = "\\$\\{${field}\\}"`));
    }
  });

  it('the proxy serves the hooks only on its internal site, and spreads both sites over exactly the API services', () => {
    const sites = caddy.split(/^:(\d+) \{$/m);
    const site = (port: string) => sites[sites.indexOf(port) + 1] ?? '';
    const upstreams = (text: string) => [...text.matchAll(/reverse_proxy ([^{]+)\{/g)].map((m) => m[1]!.trim().split(/\s+/));
    const apis = withRole('api').map((n) => `${n}:8080`);
    expect(upstreams(site('80'))).toEqual([apis]);
    expect(upstreams(site('8081'))).toEqual([apis]);
    expect(site('80')).toMatch(/@internal path \/internal\/\* \/metrics\s+respond @internal 404/);
    expect(site('8081')).toMatch(/handle \/internal\/mqtt\/\*/);
    expect(services.proxy && JSON.stringify(services.proxy)).not.toMatch(/8081/);
  });
});

describe('deploy/mosquitto/compose.yaml (Mosquitto instead of EMQX)', () => {
  const override = parse(read('deploy/mosquitto/compose.yaml'), {
    merge: true,
    // Compose's `!override`: the mapping replaces the base file's instead of merging into it.
    customTags: [{ tag: '!override', collection: 'map', resolve: (value) => value }],
  }) as { services: Record<string, Service & { profiles?: string[]; ports?: string[]; depends_on?: Record<string, unknown> }> };
  const merged = (name: string) => ({ ...envOf(name), ...override.services[name]?.environment });
  const envWith = (name: string) =>
    Object.fromEntries(Object.entries(merged(name)).map(([k, v]) => [k, interpolate(String(v).replaceAll('$${', '${'))]));

  it('keeps EMQX off (a profile), runs Mosquitto with the shipped configuration, gateways on TLS only', () => {
    const o = override.services;
    expect(o.emqx?.profiles).toEqual(['emqx']);
    expect(o.mosquitto?.volumes).toContain('./deploy/mosquitto/mosquitto.conf:/mosquitto/config/mosquitto.conf:ro');
    expect(o.mosquitto?.ports).toEqual(['8883:8883']);
    for (const name of withRole('ingest')) expect(Object.keys(o[name]?.depends_on ?? {}), name).not.toContain('emqx');
    const conf = read('deploy/mosquitto/mosquitto.conf');
    expect(conf).toMatch(/^plugin .*mosquitto_dynamic_security\.so$/m);
    expect(conf).toMatch(/^allow_anonymous false$/m);
    expect(conf).toMatch(/^listener 8883\ncertfile /m);
  });

  it('the ingest processes reach Mosquitto as the server user; the API processes keep the accounts as its admin', () => {
    dotEnv.MQTT_DYNSEC_PASSWORD = 'dynsec-admin-password';
    try {
      for (const name of withRole('ingest')) {
        const config = loadConfig(envWith(name));
        expect(new URL(config.mqtt.url!).hostname, name).toBe('mosquitto');
        for (const key of Object.keys(merged(name))) expect(configVariables, `${name}: ${key}`).toContain(key);
      }
      for (const name of withRole('api')) {
        const config = loadConfig(envWith(name));
        expect(new URL(config.mqtt.dynsecUrl!).hostname, name).toBe('mosquitto');
        expect(config.mqtt.dynsecUrl, name).toMatch(/^mqtt:\/\/admin:dynsec-admin-password@/);
      }
    } finally {
      delete dotEnv.MQTT_DYNSEC_PASSWORD;
    }
  });
});
