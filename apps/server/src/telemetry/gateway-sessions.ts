/**
 * A gateway's connection history: one `gateway_sessions` row per online period. The writers are
 * presence (broker/presence.ts: connects, disconnects, last wills), the offline detection
 * (jobs/offline.ts: silence) and ingest (data after a silence); they call
 * `recordGatewaySessions` with the transitions they write:
 * - came online (a connect, or data/state after being offline): `{ sn, online: true, at }`
 *   opens a period unless one is open (the partial unique index makes it idempotent);
 * - went offline (a disconnect, the last will, or silence): `{ sn, online: false, at }` closes
 *   the open period at `at`.
 *
 * For times before this table existed, the history is read from the offline events the offline
 * detection records (see modules/devices/gateways.ts).
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.ts';

export interface PresenceChange {
  sn: string;
  online: boolean;
  /** Epoch ms of the transition. */
  at: number;
}

const CHUNK = 500;

/**
 * Write the transitions in a few statements (a reconnect storm of thousands of gateways is one
 * presence flush): per gateway, in time order, they become "close the period open before" and
 * the periods opened here (closed here or still open).
 */
export async function recordGatewaySessions(db: Kysely<Database>, changes: readonly PresenceChange[]): Promise<void> {
  if (changes.length === 0) return;
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
  /** gateway id → when the period open before this call ended. */
  const closes = new Map<number, number>();
  const periods: { gateway_id: number; online_at: number; offline_at: number | null }[] = [];
  const opened = new Map<number, (typeof periods)[number]>();
  for (const c of [...changes].sort((a, b) => a.at - b.at)) {
    const id = ids.get(c.sn);
    if (id === undefined) continue;
    const mine = opened.get(id);
    if (c.online) {
      if (mine && mine.offline_at === null) continue; // already open
      const period = { gateway_id: id, online_at: c.at, offline_at: null };
      periods.push(period);
      opened.set(id, period);
    } else if (mine) {
      if (mine.offline_at === null && c.at >= mine.online_at) mine.offline_at = c.at;
    } else if (!closes.has(id)) closes.set(id, c.at);
  }
  const closing = [...closes];
  for (let i = 0; i < closing.length; i += CHUNK) {
    const part = closing.slice(i, i + CHUNK);
    const when = sql.join(
      part.map(([id, at]) => sql`when gateway_id = ${id} and online_at <= ${at} then ${at}`),
      sql` `,
    );
    await db
      .updateTable('gateway_sessions')
      .set({ offline_at: sql<number | null>`case ${when} else offline_at end` })
      .where('offline_at', 'is', null)
      .where(
        'gateway_id',
        'in',
        part.map(([id]) => id),
      )
      .execute();
  }
  for (let i = 0; i < periods.length; i += CHUNK) {
    await db
      .insertInto('gateway_sessions')
      .values(periods.slice(i, i + CHUNK))
      .onConflict((oc) => oc.column('gateway_id').where('offline_at', 'is', null).doNothing())
      .execute();
  }
}
