/**
 * Gateways' accounts on Mosquitto, driven by the server through Mosquitto's dynamic-security
 * plugin (`MQTT_DYNSEC_URL`: an admin account of the plugin). The store keeps only a hash of a
 * gateway's secret, so the broker gets the secret when the server has it: a gateway made in the
 * gateway stock is given its account before the store commits it (no account, nothing written), a
 * deleted one loses it. Each gateway's account has a role of its own, `sunfleet-gateway-{sn}`:
 * its own `up/` channels and its own `down/cmd`, its client id forced to its SN (Mosquitto 2.0's
 * plugin has no `%u` in its ACLs). The role `sunfleet-server` (every gateway's `up/`, also as a
 * shared subscription, and every `down/cmd`) has one account, the server's own
 * (`MQTT_SERVER_USERNAME`, `MQTT_SERVER_PASSWORD`). At start that role and account are made (or
 * set again) and accounts of gateways the store no longer has are removed.
 */
import { randomUUID } from 'node:crypto';
import { TOPIC_ROOT } from '@sunfleet/contracts';
import mqtt, { type MqttClient } from 'mqtt';
import type { Logger } from 'pino';

const CONTROL = '$CONTROL/dynamic-security/v1';
const RESPONSE = `${CONTROL}/response`;
/** A gateway's own role (gateway SNs hold no MQTT wildcards: letters, digits, `_`, `-`). */
export const gatewayRole = (sn: string) => `sunfleet-gateway-${sn}`;
export const SERVER_ROLE = 'sunfleet-server';
const TIMEOUT_MS = 5000;

interface Acl {
  acltype: 'publishClientSend' | 'publishClientReceive' | 'subscribePattern' | 'subscribeLiteral' | 'unsubscribePattern';
  topic: string;
  allow: boolean;
  priority?: number;
}

const gatewayAcls = (sn: string): Acl[] => [
  { acltype: 'publishClientSend', topic: `${TOPIC_ROOT}/${sn}/up/+`, allow: true },
  { acltype: 'subscribeLiteral', topic: `${TOPIC_ROOT}/${sn}/down/cmd`, allow: true },
  { acltype: 'publishClientReceive', topic: `${TOPIC_ROOT}/${sn}/down/cmd`, allow: true },
];
const serverAcls: Acl[] = [
  { acltype: 'subscribePattern', topic: `${TOPIC_ROOT}/+/up/#`, allow: true },
  // Mosquitto 2.0 checks a shared subscription's filter with its `$share/{group}/` prefix.
  { acltype: 'subscribePattern', topic: `$share/+/${TOPIC_ROOT}/+/up/#`, allow: true },
  { acltype: 'publishClientReceive', topic: `${TOPIC_ROOT}/+/up/#`, allow: true },
  { acltype: 'publishClientSend', topic: `${TOPIC_ROOT}/+/down/cmd`, allow: true },
];

export class DynsecError extends Error {}

/** What the gateway stock asks of the broker's accounts (also a test's stand-in). */
export interface BrokerAccounts {
  /** Make (or re-key) these gateways' accounts; throws when the broker did not take every one. */
  provision(gateways: readonly { sn: string; secret: string }[]): Promise<void>;
  /** Remove these gateways' accounts (missing ones are fine). */
  remove(sns: readonly string[]): Promise<void>;
  close(): Promise<void>;
}

type Command = Record<string, unknown> & { command: string };
type Response = { command: string; error?: string; data?: Record<string, unknown>; correlationData?: string };

export class MosquittoDynsec implements BrokerAccounts {
  private client: MqttClient | null = null;
  private connecting: Promise<MqttClient> | null = null;
  private readonly waiting = new Map<string, (r: Response) => void>();

  constructor(
    private readonly url: string,
    private readonly log: Pick<Logger, 'info' | 'warn' | 'error'>,
  ) {}

  private connect(): Promise<MqttClient> {
    if (this.client?.connected) return Promise.resolve(this.client);
    this.connecting ??= (async () => {
      const client = await mqtt.connectAsync(this.url, {
        clientId: `sunfleet-dynsec-${randomUUID().slice(0, 8)}`,
        reconnectPeriod: 2000,
        connectTimeout: TIMEOUT_MS,
      });
      client.on('error', (err) => this.log.warn({ err: err.message }, 'dynamic security: MQTT error'));
      client.on('message', (topic, payload) => {
        if (topic !== RESPONSE) return;
        let body: { responses?: Response[] };
        try {
          body = JSON.parse(payload.toString()) as { responses?: Response[] };
        } catch {
          return;
        }
        for (const r of body.responses ?? []) {
          const done = r.correlationData ? this.waiting.get(r.correlationData) : undefined;
          if (done) done(r);
        }
      });
      await client.subscribeAsync(RESPONSE, { qos: 1 });
      this.client = client;
      return client;
    })().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  /** Send commands in one message; their responses in order. */
  private async run(commands: readonly Command[]): Promise<Response[]> {
    const client = await this.connect();
    const tagged = commands.map((c) => ({ ...c, correlationData: randomUUID() }));
    const answers = tagged.map(
      (c) =>
        new Promise<Response>((resolve, reject) => {
          const timer = setTimeout(() => {
            this.waiting.delete(c.correlationData);
            reject(new DynsecError(`dynamic security: no answer to ${c.command} within ${TIMEOUT_MS} ms`));
          }, TIMEOUT_MS);
          this.waiting.set(c.correlationData, (r) => {
            clearTimeout(timer);
            this.waiting.delete(c.correlationData);
            resolve(r);
          });
        }),
    );
    // The answers' time limit holds even while the publish itself waits (a broker that stopped reading).
    const [, ...responses] = await Promise.all([
      client.publishAsync(CONTROL, JSON.stringify({ commands: tagged }), { qos: 1 }),
      ...answers,
    ]);
    return responses as Response[];
  }

  private static fail(r: Response, what: string): never {
    throw new DynsecError(`dynamic security: ${what}: ${r.error}`);
  }

  /** A role with exactly these ACLs (made, or its ACLs added again: adding an existing one is harmless). */
  private async ensureRole(rolename: string, acls: readonly Acl[]): Promise<void> {
    const [made] = await this.run([{ command: 'createRole', rolename, acls }]);
    if (made!.error && !/exist/i.test(made!.error)) MosquittoDynsec.fail(made!, `role ${rolename}`);
    if (made!.error) {
      const answers = await this.run(acls.map((acl) => ({ command: 'addRoleACL', rolename, ...acl })));
      for (const r of answers) if (r.error && !/exist/i.test(r.error)) MosquittoDynsec.fail(r, `role ${rolename}`);
    }
  }

  /** A client with this password and role (made, or its password and role set again). */
  private async ensureClient(username: string, password: string, rolename: string, clientid?: string): Promise<void> {
    const [made] = await this.run([
      { command: 'createClient', username, password, ...(clientid ? { clientid } : {}), roles: [{ rolename }] },
    ]);
    if (!made!.error) return;
    if (!/exist/i.test(made!.error)) MosquittoDynsec.fail(made!, `client ${username}`);
    const [found] = await this.run([{ command: 'getClient', username }]);
    if (found!.error) MosquittoDynsec.fail(found!, `client ${username}`);
    const client = (found!.data?.client ?? {}) as { clientid?: string; roles?: { rolename: string }[] };
    const answers = await this.run([
      { command: 'setClientPassword', username, password },
      ...(clientid && client.clientid !== clientid ? [{ command: 'setClientId', username, clientid }] : []),
      ...(client.roles?.some((r) => r.rolename === rolename) ? [] : [{ command: 'addClientRole', username, rolename }]),
    ]);
    for (const r of answers) if (r.error) MosquittoDynsec.fail(r, `client ${username}`);
  }

  /** The roles and the server's own account; accounts of gateways not in `liveSns` removed. */
  async prepare(server: { username: string; password: string }, liveSns: ReadonlySet<string>): Promise<void> {
    await this.ensureRole(SERVER_ROLE, serverAcls);
    await this.ensureClient(server.username, server.password, SERVER_ROLE);
    const [listed] = await this.run([{ command: 'listClients', verbose: true }]);
    if (listed!.error) MosquittoDynsec.fail(listed!, 'listing clients');
    const clients = (listed!.data?.clients ?? []) as { username: string; roles?: { rolename: string }[] }[];
    const stale = clients
      .filter((c) => c.roles?.some((r) => r.rolename === gatewayRole(c.username)) && !liveSns.has(c.username))
      .map((c) => c.username);
    if (stale.length > 0) {
      this.log.info({ accounts: stale.length }, 'dynamic security: removing accounts of gateways the store no longer has');
      await this.remove(stale);
    }
  }

  async provision(gateways: readonly { sn: string; secret: string }[]): Promise<void> {
    for (const g of gateways) {
      await this.ensureRole(gatewayRole(g.sn), gatewayAcls(g.sn));
      await this.ensureClient(g.sn, g.secret, gatewayRole(g.sn), g.sn);
    }
  }

  async remove(sns: readonly string[]): Promise<void> {
    if (sns.length === 0) return;
    const answers = await this.run(
      sns.flatMap((sn) => [
        { command: 'deleteClient', username: sn },
        { command: 'deleteRole', rolename: gatewayRole(sn) },
      ]),
    );
    for (const r of answers) if (r.error && !/not found|does not exist/i.test(r.error)) MosquittoDynsec.fail(r, r.command);
  }

  async close(): Promise<void> {
    await this.client?.endAsync().catch(() => undefined);
    this.client = null;
  }
}
