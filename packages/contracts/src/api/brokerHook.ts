/**
 * The external MQTT broker's hooks (EMQX 5's HTTP authenticator and HTTP authorizer): internal
 * calls the broker makes with the shared hook secret (`Authorization: Bearer <MQTT_HOOK_SECRET>`),
 * never a browser; left out of the API description. They check gateways against the same store
 * and the same topic rules as the embedded broker. The answers are EMQX's JSON, not the envelope.
 */
import Type from 'typebox';
import { endpoint } from '../endpoint.ts';

const Text = (maxLength: number) => Type.String({ maxLength });

/** EMQX: `allow`, `deny`, or `ignore` (the next authenticator or authorizer in its chain decides). */
export const BrokerResult = Type.Union([Type.Literal('allow'), Type.Literal('deny'), Type.Literal('ignore')]);

/** CONNECT: the client id, user name and password the client presented. */
export const authenticate = endpoint({
  method: 'POST',
  path: '/internal/mqtt/authn',
  access: 'broker',
  encoding: 'json',
  summary: "The broker's authentication hook: a gateway (client id = user name = SN, its device secret) or the server",
  body: Type.Object({
    clientid: Text(256),
    username: Text(256),
    password: Type.Optional(Text(1024)),
  }),
  data: Type.Object({ result: BrokerResult, is_superuser: Type.Boolean() }),
  file: true,
});

/** PUBLISH or SUBSCRIBE of a connected client: the topic (a filter for a subscription). */
export const authorize = endpoint({
  method: 'POST',
  path: '/internal/mqtt/authz',
  access: 'broker',
  encoding: 'json',
  summary: "The broker's authorization hook: the embedded broker's topic rules for the client's publish or subscribe",
  body: Type.Object({
    clientid: Text(256),
    username: Text(256),
    topic: Text(65_535),
    /** `publish` or `subscribe`; anything else is denied. */
    action: Text(32),
    retain: Type.Optional(Type.Boolean()),
  }),
  data: Type.Object({ result: BrokerResult }),
  file: true,
});
