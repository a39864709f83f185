/**
 * Who may publish and subscribe where, for the embedded broker. A gateway lives in its own
 * tree: it publishes only `sf/gw/{sn}/up/{data|event|reply|state}` and subscribes only to
 * `sf/gw/{sn}/down/cmd`. The server's own client may go elsewhere, but never retains a
 * command (a retained command would run again on every reconnect).
 */
import { parseTopic, TOPIC_ROOT, type UpChannel } from '@sunfleet/contracts';

export type Identity = { kind: 'gateway'; sn: string } | { kind: 'server'; username: string };

export type PublishDecision = { ok: true; channel: UpChannel | null } | { ok: false; reason: string };

const isCommandTopic = (topic: string) => topic.startsWith(`${TOPIC_ROOT}/`) && topic.endsWith('/down/cmd');

export function mayPublish(who: Identity, topic: string, retain: boolean): PublishDecision {
  if (topic.startsWith('$')) return { ok: false, reason: 'reserved topic' };
  if (retain && isCommandTopic(topic)) return { ok: false, reason: 'retained command' };
  if (who.kind === 'server') return { ok: true, channel: null };
  const parsed = parseTopic(topic);
  if (parsed?.direction !== 'up') return { ok: false, reason: 'not an up/ topic' };
  if (parsed.sn !== who.sn) return { ok: false, reason: "another gateway's topic" };
  if (retain && parsed.channel !== 'state') return { ok: false, reason: 'retained message' };
  return { ok: true, channel: parsed.channel };
}

export function maySubscribe(who: Identity, filter: string): boolean {
  if (who.kind === 'server') return !filter.startsWith('$share/');
  // Exact match: no wildcards, no $SYS, no other gateway.
  return filter === `${TOPIC_ROOT}/${who.sn}/down/cmd`;
}
