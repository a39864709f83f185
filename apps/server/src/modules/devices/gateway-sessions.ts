/**
 * A gateway's connection history: one `gateway_sessions` row per online period. The writer is
 * presence (telemetry/broker/presence.ts, the only place that sees connects and disconnects)
 * and the offline detection (jobs/offline.ts); they call `recordGatewaySessions` with the
 * transitions they write, in the same transaction:
 * - came online (a connect, or data/state after being offline): `{ sn, online: true, at }`
 *   opens a period unless one is open (the partial unique index makes it idempotent);
 * - went offline (a disconnect, the last will, or silence): `{ sn, online: false, at }` closes
 *   the open period at `at`.
 *
 * Until they do, the history is read from the offline events the offline detection records
 * (see gateways.ts).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

export interface PresenceChange {
  sn: string;
  online: boolean;
  /** Epoch ms of the transition. */
  at: number;
}

const CHUNK = 500;

export async function recordGatewaySessions(db: Kysely<Database>, changes: readonly PresenceChange[]): Promise<void> {
  if (changes.length === 0) return;
  // Applied in time order: an online→offline pair inside one presence window leaves its period.
  const sns = [...new Set(changes.map((c) => c.sn))];
  const ids = new Map<string, number>();
  for (let i = 0; i < sns.length; i += CHUNK) {
    const rows = await db
      .selectFrom('gateways')
      .select(['id', 'sn'])
      .where('sn', 'in', sns.slice(i, i + CHUNK))
      .execute();
    for (const r of rows) ids.set(r.sn, r.id);
  }
  const ordered = [...changes].sort((a, b) => a.at - b.at);
  for (const c of ordered) {
    const gatewayId = ids.get(c.sn);
    if (gatewayId === undefined) continue;
    if (c.online) {
      await db
        .insertInto('gateway_sessions')
        .values({ gateway_id: gatewayId, online_at: c.at, offline_at: null })
        .onConflict((oc) => oc.column('gateway_id').where('offline_at', 'is', null).doNothing())
        .execute();
    } else {
      await db
        .updateTable('gateway_sessions')
        .set({ offline_at: c.at })
        .where('gateway_id', '=', gatewayId)
        .where('offline_at', 'is', null)
        .where('online_at', '<=', c.at)
        .execute();
    }
  }
}
