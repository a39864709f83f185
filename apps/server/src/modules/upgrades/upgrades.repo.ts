/**
 * The SQL of upgrades: rollouts, their devices, and each device's maintenance log row. Device
 * state changes are conditional updates (`where state in (…)`), so two processes racing for one
 * device change it once; the runner claims rollouts with a lease, picked with
 * `FOR UPDATE SKIP LOCKED` on PostgreSQL (SQLite has one writer at a time).
 */
import type { upgradesApi } from '@sunfleet/contracts';
import type { Insertable, Selectable, Transaction, Updateable } from 'kysely';
import type { Db, Dialect } from '../../db/index.ts';
import type { Database, UpgradeDevicesTable, UpgradeRolloutsTable } from '../../db/schema.ts';

type Tx = Db | Transaction<Database>;
export type RolloutRow = Selectable<UpgradeRolloutsTable>;
export type DeviceRow = Selectable<UpgradeDevicesTable>;
export type UpgradeState = upgradesApi.UpgradeState;

/** States of a device whose upgrade is not over. */
export const OPEN_STATES: readonly UpgradeState[] = ['pending', 'sending', 'downloaded', 'upgrading'];
/** Open states of a device whose command is out (the device may be downloading or flashing). */
export const RUNNING_STATES: readonly UpgradeState[] = ['sending', 'downloaded', 'upgrading'];
export const FAILED_STATES: readonly UpgradeState[] = ['failed', 'download_failed'];

export async function insertRollout(
  trx: Tx,
  rollout: Insertable<UpgradeRolloutsTable>,
  devices: readonly Insertable<UpgradeDevicesTable>[],
): Promise<void> {
  await trx.insertInto('upgrade_rollouts').values(rollout).execute();
  for (let i = 0; i < devices.length; i += 200)
    await trx
      .insertInto('upgrade_devices')
      .values(devices.slice(i, i + 200))
      .execute();
}

export async function rolloutById(db: Tx, id: string): Promise<RolloutRow | undefined> {
  return db.selectFrom('upgrade_rollouts').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Of these SNs, those with an upgrade not over (in any rollout). */
export async function busyDevices(db: Tx, sns: readonly string[]): Promise<Set<string>> {
  const out = new Set<string>();
  for (let i = 0; i < sns.length; i += 500) {
    const rows = await db
      .selectFrom('upgrade_devices')
      .select('device_sn')
      .where('device_sn', 'in', sns.slice(i, i + 500))
      .where('state', 'in', OPEN_STATES as UpgradeState[])
      .execute();
    for (const r of rows) out.add(r.device_sn);
  }
  return out;
}

/** A device's newest upgrade. */
export async function latestOfDevice(db: Tx, sn: string, kind: 'gateway' | 'inverter'): Promise<DeviceRow | undefined> {
  return db
    .selectFrom('upgrade_devices')
    .selectAll()
    .where('device_sn', '=', sn)
    .where('device_kind', '=', kind)
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

export async function devicesOf(
  db: Tx,
  rolloutId: string,
  filter: { states?: readonly UpgradeState[]; wave?: number; limit?: number; offset?: number } = {},
): Promise<DeviceRow[]> {
  let q = db.selectFrom('upgrade_devices').selectAll().where('rollout_id', '=', rolloutId);
  if (filter.states) q = q.where('state', 'in', filter.states as UpgradeState[]);
  if (filter.wave !== undefined) q = q.where('wave', '=', filter.wave);
  q = q.orderBy('wave').orderBy('id');
  if (filter.limit !== undefined) q = q.limit(filter.limit).offset(filter.offset ?? 0);
  return q.execute();
}

export async function countDevices(db: Tx, rolloutId: string, state?: UpgradeState): Promise<number> {
  let q = db
    .selectFrom('upgrade_devices')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('rollout_id', '=', rolloutId);
  if (state) q = q.where('state', '=', state);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

/** Devices per (wave, state) of a rollout. */
export async function waveCounts(db: Tx, rolloutId: string): Promise<{ wave: number; state: UpgradeState; n: number }[]> {
  const rows = await db
    .selectFrom('upgrade_devices')
    .select((eb) => ['wave', 'state', eb.fn.countAll<number>().as('n')])
    .where('rollout_id', '=', rolloutId)
    .groupBy(['wave', 'state'])
    .execute();
  return rows.map((r) => ({ wave: Number(r.wave), state: r.state as UpgradeState, n: Number(r.n) }));
}

/**
 * One device from one of `from` to the change in `set`; the row after it, or undefined when it was
 * no longer in one of them (someone else moved it).
 */
export async function moveDevice(
  db: Tx,
  id: number,
  from: readonly UpgradeState[],
  set: Updateable<UpgradeDevicesTable>,
): Promise<DeviceRow | undefined> {
  return db
    .updateTable('upgrade_devices')
    .set(set)
    .where('id', '=', id)
    .where('state', 'in', from as UpgradeState[])
    .returningAll()
    .executeTakeFirst();
}

/** Close a device's maintenance log row with its result. */
export async function closeLog(
  db: Tx,
  row: DeviceRow,
  result: 'succeeded' | 'failed' | 'cancelled',
  at: number,
  extra: Record<string, unknown>,
): Promise<void> {
  if (row.log_id === null) return;
  const log = await db.selectFrom('maintenance_log').select('detail').where('id', '=', row.log_id).executeTakeFirst();
  let detail: Record<string, unknown> = {};
  try {
    detail = JSON.parse(log?.detail ?? '{}') as Record<string, unknown>;
  } catch {
    detail = {};
  }
  await db
    .updateTable('maintenance_log')
    .set({ result, finished_at: at, detail: JSON.stringify({ ...detail, ...extra }), job_id: row.job_id })
    .where('id', '=', row.log_id)
    .execute();
}

/**
 * Claim up to `limit` rollouts with work (running, or paused or cancelled with devices still under
 * way) whose lease has run out: each is this runner's until `at + leaseMs`.
 */
export async function claimRollouts(db: Db, dialect: Dialect, at: number, leaseMs: number, limit = 20): Promise<RolloutRow[]> {
  return db.transaction().execute(async (trx) => {
    let q = trx
      .selectFrom('upgrade_rollouts')
      .select('id')
      .where('lease_until', '<=', at)
      .where((eb) =>
        eb.or([
          eb('state', '=', 'running'),
          eb.and([
            eb('state', 'in', ['paused', 'cancelled']),
            eb.exists(
              eb
                .selectFrom('upgrade_devices')
                .select('upgrade_devices.id')
                .whereRef('upgrade_devices.rollout_id', '=', 'upgrade_rollouts.id')
                .where('upgrade_devices.state', 'in', RUNNING_STATES as UpgradeState[]),
            ),
          ]),
        ]),
      )
      .orderBy('created_at')
      .limit(limit);
    if (dialect === 'postgres') q = q.forUpdate().skipLocked();
    const ids = (await q.execute()).map((r) => r.id);
    if (ids.length === 0) return [];
    return trx
      .updateTable('upgrade_rollouts')
      .set({ lease_until: at + leaseMs })
      .where('id', 'in', ids)
      .where('lease_until', '<=', at)
      .returningAll()
      .execute();
  });
}

export async function releaseRollout(db: Tx, id: string): Promise<void> {
  await db.updateTable('upgrade_rollouts').set({ lease_until: 0 }).where('id', '=', id).execute();
}

/** Change a rollout from one of `from`; the row after it, or undefined when it was not in one of them. */
export async function moveRollout(
  db: Tx,
  id: string,
  from: readonly string[],
  set: Updateable<UpgradeRolloutsTable>,
): Promise<RolloutRow | undefined> {
  return db
    .updateTable('upgrade_rollouts')
    .set(set)
    .where('id', '=', id)
    .where('state', 'in', from as string[])
    .returningAll()
    .executeTakeFirst();
}

/** Whether a rollout not ended (running or paused) uses the image: it must not be deleted. */
export async function firmwareInUseByRollout(db: Tx, firmwareId: number): Promise<boolean> {
  const row = await db
    .selectFrom('upgrade_rollouts')
    .select('id')
    .where('firmware_id', '=', firmwareId)
    .where((eb) =>
      eb.or([
        eb('state', 'in', ['running', 'paused']),
        eb.exists(
          eb
            .selectFrom('upgrade_devices')
            .select('upgrade_devices.id')
            .whereRef('upgrade_devices.rollout_id', '=', 'upgrade_rollouts.id')
            .where('upgrade_devices.state', 'in', RUNNING_STATES as UpgradeState[]),
        ),
      ]),
    )
    .executeTakeFirst();
  return row !== undefined;
}
