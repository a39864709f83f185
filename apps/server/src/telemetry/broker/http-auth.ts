/**
 * The external broker's authentication and authorization hooks (EMQX 5: HTTP authenticator and
 * HTTP authorizer; deploy/emqx/emqx.conf). The same user store and rules as the embedded broker:
 *
 * - CONNECT: a gateway's client id = user name = its SN, and its current device secret (SHA-256
 *   in `gateways.secret_hash`, not deleted), read from the store on every call: a deleted gateway
 *   or a rotated secret is refused at once; the server's own clients by the configured server
 *   user name and password (`MQTT_SERVER_USERNAME`, `MQTT_SERVER_PASSWORD`) with a client id that
 *   is not an SN. Never a superuser: every publish and subscribe is authorized below.
 * - PUBLISH / SUBSCRIBE: `mayPublish` and `maySubscribe` (acl.ts); a gateway must still exist.
 *   The server subscribes through a shared subscription (`$share/{group}/…`): the rule is applied
 *   to the filter inside it.
 *
 * Anything else is `deny`, never `ignore`: nothing after this hook may let a client in.
 */
import { brokerHookApi as api, isGatewaySn } from '@sunfleet/contracts';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/index.ts';
import { route } from '../../http/route.ts';
import { secretHash, secretMatches } from '../gateways.ts';
import { type Identity, mayPublish, maySubscribe } from './acl.ts';

export interface ServerUser {
  username: string;
  password: string;
}

type Decision = 'allow' | 'deny';

/** Who a client is by its client id and user name, or null when it can be no one. */
export function identify(clientid: string, username: string, server: ServerUser): Identity | null {
  if (username === server.username) return isGatewaySn(clientid) ? null : { kind: 'server', username };
  if (isGatewaySn(clientid) && username === clientid) return { kind: 'gateway', sn: clientid };
  return null;
}

async function liveSecretHash(db: Db, sn: string): Promise<string | null> {
  const row = await db
    .selectFrom('gateways')
    .select('secret_hash')
    .where('sn', '=', sn)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row?.secret_hash ?? null;
}

export async function authenticate(
  db: Db,
  server: ServerUser,
  input: { clientid: string; username: string; password?: string | undefined },
): Promise<Decision> {
  const who = identify(input.clientid, input.username, server);
  const password = input.password ?? '';
  if (!who || password === '') return 'deny';
  if (who.kind === 'server') return secretMatches(secretHash(server.password), password) ? 'allow' : 'deny';
  const hash = await liveSecretHash(db, who.sn);
  return hash !== null && secretMatches(hash, password) ? 'allow' : 'deny';
}

const SHARED = /^\$share\/[^/#+]+\/(.+)$/;

export async function authorize(
  db: Db,
  server: ServerUser,
  input: { clientid: string; username: string; topic: string; action: string; retain?: boolean | undefined },
): Promise<Decision> {
  const who = identify(input.clientid, input.username, server);
  if (!who) return 'deny';
  if (who.kind === 'gateway' && (await liveSecretHash(db, who.sn)) === null) return 'deny';
  if (input.action === 'publish') return mayPublish(who, input.topic, input.retain === true).ok ? 'allow' : 'deny';
  if (input.action === 'subscribe') {
    const shared = who.kind === 'server' ? input.topic.match(SHARED)?.[1] : undefined;
    return maySubscribe(who, shared ?? input.topic) ? 'allow' : 'deny';
  }
  return 'deny';
}

/** The two hooks (access 'broker': the hook secret), answering EMQX's JSON. */
export function brokerHookRoutes(app: FastifyInstance) {
  const { db, config } = app.deps;
  const server = { username: config.mqtt.serverUsername, password: config.mqtt.serverPassword };
  const answer = (reply: { header(k: string, v: string): { send(body: unknown): unknown } }, body: object) =>
    reply.header('cache-control', 'no-store').send(body) as never;
  route(app, api.authenticate, async ({ body, reply }) =>
    answer(reply, { result: await authenticate(db, server, body), is_superuser: false }),
  );
  route(app, api.authorize, async ({ body, reply }) => answer(reply, { result: await authorize(db, server, body) }));
}
