/**
 * Offline detection: a device or gateway silent for `factor` × its gateway's upload interval
 * (default 3) is marked offline, with an 'offline' event (source 'rule'); its plant's status is
 * recomputed. Ingest closes the event and restores the status when data arrives again.
 * A device's last arrival is device_latest.updated_at; a gateway's is gateways.last_seen_at.
 */
import { sql } from 'kysely';
import type { Db } from '../db/index.ts';
import { refreshPlantStatus } from '../energy/plant-status.ts';
import { type Logger, silentLogger } from '../log.ts';
import { recordGatewaySessions } from '../telemetry/gateway-sessions.ts';
import { applyEventChanges, type EventChange, ruleEvents } from '../telemetry/ingest/index.ts';
import { type PeriodicJob, type PeriodicOptions, startPeriodic } from './periodic.ts';

export interface OfflineSweep {
  devices: number;
  gateways: number;
}

export interface OfflineOptions {
  db: Db;
  now?: () => number;
  /** Offline after this many upload intervals of silence. */
  factor?: number;
  log?: Logger;
}

/** Mark what has gone silent as offline (once: what is offline already is left alone). */
export async function sweepOffline(opts: OfflineOptions): Promise<OfflineSweep> {
  const { db } = opts;
  const now = (opts.now ?? Date.now)();
  const silenceMs = (opts.factor ?? 3) * 1000;
  return db.transaction().execute(async (trx) => {
    const devices = await trx
      .selectFrom('devices as d')
      .innerJoin('gateways as g', 'g.id', 'd.gateway_id')
      .leftJoin('device_latest as l', 'l.device_id', 'd.id')
      .select(['d.id', 'd.sn', 'd.plant_id', 'd.gateway_id', sql<number>`coalesce(l.updated_at, d.created_at)`.as('seen')])
      .where('d.deleted_at', 'is', null)
      .where('d.status', 'not in', ['offline', 'upgrading'])
      .where(sql<boolean>`coalesce(l.updated_at, d.created_at) + ${silenceMs} * g.upload_interval_s < cast(${now} as bigint)`)
      .execute();
    const gateways = await trx
      .selectFrom('gateways as g')
      .select(['g.id', 'g.sn', 'g.plant_id', sql<number>`coalesce(g.last_seen_at, g.last_online_at, g.created_at)`.as('seen')])
      .where('g.deleted_at', 'is', null)
      .where('g.online', '=', 1)
      .where(
        sql<boolean>`coalesce(g.last_seen_at, g.last_online_at, g.created_at) + ${silenceMs} * g.upload_interval_s < cast(${now} as bigint)`,
      )
      .execute();

    const changes: EventChange[] = [];
    const plants = new Set<number>();
    for (let i = 0; i < devices.length; i += 500) {
      const ids = devices.slice(i, i + 500).map((d) => d.id);
      await trx.updateTable('devices').set({ status: 'offline' }).where('id', 'in', ids).execute();
    }
    for (const d of devices) {
      if (d.plant_id !== null) plants.add(d.plant_id);
      const rule = ruleEvents.offline;
      changes.push({
        open: true,
        plantId: d.plant_id,
        gatewayId: d.gateway_id,
        deviceId: d.id,
        sn: d.sn,
        source: 'rule',
        code: 'offline',
        level: rule.level,
        en: rule.en,
        es: rule.es,
        at: Number(d.seen),
      });
    }
    for (let i = 0; i < gateways.length; i += 500) {
      const ids = gateways.slice(i, i + 500).map((g) => g.id);
      await trx.updateTable('gateways').set({ online: 0 }).where('id', 'in', ids).execute();
    }
    for (const g of gateways) {
      const rule = ruleEvents.gatewayOffline;
      changes.push({
        open: true,
        plantId: g.plant_id,
        gatewayId: g.id,
        deviceId: null,
        sn: g.sn,
        source: 'rule',
        code: 'offline',
        level: rule.level,
        en: rule.en,
        es: rule.es,
        at: Number(g.seen),
      });
    }
    await applyEventChanges(trx, changes, now);
    await recordGatewaySessions(
      trx,
      gateways.map((g) => ({ sn: g.sn, online: false, at: Number(g.seen) })),
    );
    if (plants.size > 0) await refreshPlantStatus(trx, plants);
    return { devices: devices.length, gateways: gateways.length };
  });
}

export type OfflineJob = PeriodicJob<OfflineSweep>;

/** Sweep every `intervalMs` (default 30 s); a sweep never overlaps the previous one; `when`: only in the leader. */
export function startOfflineJob(opts: OfflineOptions & PeriodicOptions & { intervalMs?: number }): OfflineJob {
  const log = opts.log ?? silentLogger;
  return startPeriodic(
    () => sweepOffline(opts),
    opts.intervalMs ?? 30_000,
    (s) => {
      if (s.devices + s.gateways > 0) log.info(s, 'marked silent devices and gateways offline');
    },
    (error) => log.error({ err: error }, 'offline sweep failed'),
    { when: opts.when },
  );
}
