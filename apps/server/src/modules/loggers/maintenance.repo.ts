/**
 * The SQL of the maintenance log (`maintenance_log`): one row per maintenance action on a device
 * or gateway. Writers (operations' debug and restart, the upgrades, the remote settings' writes
 * and reverts) call `recordMaintenance` when the action's job is stored and `finishMaintenance`
 * when it ends; readers list through `maintenanceRows`, which takes the result of an entry whose
 * job ended without anyone finishing it (a restart nobody followed, a job the sweeper timed out,
 * a setting job of a batch or one housekeeping failed as interrupted) from the job itself.
 */
import type { MaintenanceKind, MaintenanceResult } from '@sunfleet/contracts';
import { type ExpressionBuilder, type SelectQueryBuilder, sql, type Transaction } from 'kysely';
import type { Caller } from '../../access/caller.ts';
import { plantsVisible } from '../../access/scopes.ts';
import type { JobState } from '../../commands/channel.ts';
import type { Db } from '../../db/index.ts';
import { parseJson } from '../../db/index.ts';
import type { Database } from '../../db/schema.ts';

type Tx = Db | Transaction<Database>;

export interface MaintenanceRecord {
  kind: MaintenanceKind;
  /** The device acted on; the gateway's own SN for a gateway action. */
  deviceSn: string;
  gatewaySn?: string | null;
  plantId?: number | null;
  userId: number;
  /** The command job (or upgrade) behind the entry. */
  jobId?: string | null;
  /** What was asked (firmware id and version, debug code, …). */
  detail?: Record<string, unknown>;
  /** 'running' until `finishMaintenance`. */
  result?: MaintenanceResult;
  at?: number;
}

/** Write one entry; returns its id. Call it in the transaction (or right after) that stores the action's job. */
export async function recordMaintenance(db: Tx, entry: MaintenanceRecord): Promise<number> {
  const at = entry.at ?? Date.now();
  const result = entry.result ?? 'running';
  const row = await db
    .insertInto('maintenance_log')
    .values({
      kind: entry.kind,
      device_sn: entry.deviceSn,
      gateway_sn: entry.gatewaySn ?? null,
      plant_id: entry.plantId ?? null,
      user_id: entry.userId,
      job_id: entry.jobId ?? null,
      detail: JSON.stringify(entry.detail ?? {}),
      result,
      created_at: at,
      finished_at: result === 'running' ? null : at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Settle the running entries of job `jobId` with `result`; `detail` is merged into what the entry
 * holds (what came back). An entry already settled keeps its result. Returns how many changed.
 */
export async function finishMaintenance(
  db: Tx,
  jobId: string,
  result: Exclude<MaintenanceResult, 'running'>,
  detail: Record<string, unknown> = {},
  at = Date.now(),
): Promise<number> {
  const rows = await db
    .selectFrom('maintenance_log')
    .select(['id', 'detail'])
    .where('job_id', '=', jobId)
    .where('result', '=', 'running')
    .execute();
  let changed = 0;
  for (const r of rows) {
    const merged = { ...parseJson<Record<string, unknown>>(r.detail, {}), ...detail };
    const done = await db
      .updateTable('maintenance_log')
      .set({ result, finished_at: at, detail: JSON.stringify(merged) })
      .where('id', '=', r.id)
      .where('result', '=', 'running')
      .executeTakeFirst();
    changed += Number(done.numUpdatedRows);
  }
  return changed;
}

/** The entry's result for a command job's final state; undefined while the job is open. */
export function resultOfJob(state: JobState | string): Exclude<MaintenanceResult, 'running'> | undefined {
  switch (state) {
    case 'succeeded':
      return 'succeeded';
    case 'failed':
    case 'timed_out':
    case 'expired':
      return 'failed';
    case 'cancelled':
      return 'cancelled';
    default:
      return undefined;
  }
}

/** The entry's result for a setting job's state; undefined while the job runs. */
export function resultOfSettingJob(state: string): Exclude<MaintenanceResult, 'running'> | undefined {
  return state === 'succeeded' || state === 'failed' || state === 'cancelled' ? state : undefined;
}

export interface MaintenanceFilter {
  plantId?: number;
  sn?: string;
  kind?: MaintenanceKind;
  /** Inclusive, epoch ms. */
  from?: number;
  /** Exclusive, epoch ms. */
  to?: number;
  id?: number;
}

type LogEb = ExpressionBuilder<Database, 'maintenance_log'>;

/**
 * Entries the caller sees: those of plants the caller sees (the plant the device was on when the
 * action was taken, so a device's earlier owner's entries stay theirs); entries without a plant
 * (a gateway in stock) only system administrators.
 */
export function maintenanceVisible(eb: LogEb, caller: Caller) {
  if (caller.user.kind === 'sysadmin') return sql<boolean>`1 = 1`;
  return eb(
    'maintenance_log.plant_id',
    'in',
    eb
      .selectFrom('plants')
      .select('plants.id')
      .where((p) => plantsVisible(p as unknown as ExpressionBuilder<Database, 'plants'>, caller)),
  );
}

function filtered(db: Tx, caller: Caller, f: MaintenanceFilter) {
  let q = db.selectFrom('maintenance_log').where((eb) => maintenanceVisible(eb, caller));
  if (f.id !== undefined) q = q.where('maintenance_log.id', '=', f.id);
  if (f.plantId !== undefined) q = q.where('maintenance_log.plant_id', '=', f.plantId);
  if (f.sn !== undefined) q = q.where('maintenance_log.device_sn', '=', f.sn);
  if (f.kind !== undefined) q = q.where('maintenance_log.kind', '=', f.kind);
  if (f.from !== undefined) q = q.where('maintenance_log.created_at', '>=', f.from);
  if (f.to !== undefined) q = q.where('maintenance_log.created_at', '<', f.to);
  return q;
}

const withColumns = (q: SelectQueryBuilder<Database, 'maintenance_log', object>) =>
  q
    .leftJoin('plants', 'plants.id', 'maintenance_log.plant_id')
    .leftJoin('users', 'users.id', 'maintenance_log.user_id')
    .leftJoin('command_jobs', 'command_jobs.id', 'maintenance_log.job_id')
    .leftJoin('setting_changes', 'setting_changes.id', 'maintenance_log.job_id')
    .select([
      'maintenance_log.id',
      'maintenance_log.kind',
      'maintenance_log.device_sn',
      'maintenance_log.gateway_sn',
      'maintenance_log.plant_id',
      'maintenance_log.job_id',
      'maintenance_log.detail',
      'maintenance_log.result',
      'maintenance_log.created_at',
      'maintenance_log.finished_at',
      'plants.name as plant_name',
      'users.nickname',
      'users.account',
      'command_jobs.state as job_state',
      'command_jobs.finished_at as job_finished_at',
      'command_jobs.body as job_body',
      'command_jobs.reply as job_reply',
      'command_jobs.error as job_error',
      'setting_changes.state as setting_state',
      'setting_changes.finished_at as setting_finished_at',
      'setting_changes.error as setting_error',
    ]);

export type MaintenanceRow = Awaited<ReturnType<ReturnType<typeof withColumns>['execute']>>[number];

/** One page of the entries the caller sees that `f` keeps, newest first, with the total. */
export async function maintenanceRows(db: Tx, caller: Caller, f: MaintenanceFilter, page: number, size: number) {
  const base = filtered(db, caller, f);
  const [count, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
    withColumns(base)
      .orderBy('maintenance_log.created_at', 'desc')
      .orderBy('maintenance_log.id', 'desc')
      .limit(size)
      .offset((page - 1) * size)
      .execute(),
  ]);
  return { total: Number(count.n), rows };
}

export async function maintenanceRow(db: Tx, caller: Caller, id: number): Promise<MaintenanceRow | undefined> {
  return withColumns(filtered(db, caller, { id })).executeTakeFirst();
}
