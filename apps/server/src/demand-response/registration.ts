/**
 * The VEN's registration at the VTN, checked on every upkeep rather than trusted once: its ven
 * object, a resource per enrolled device, the targets the utility granted them, and the webhook
 * subscription. A VTN that lost its state (reset, restored from an old backup) is noticed here:
 * the VEN registers again, its devices' resources are made again (their enrolments pending until
 * then) and the subscription is made again. What the VTN answered last is kept in `dr_state`
 * for the enrolment page (`vtnStatus`).
 */
import type { Logger } from 'pino';
import type { OadrConfig } from '../config.ts';
import type { Db } from '../db/index.ts';
import { getState, setState } from './store.ts';
import { type Grants, targetsOf } from './targets.ts';
import type { VtnClient } from './vtn-client.ts';

export interface RegistrationContext {
  db: Db;
  client: VtnClient;
  config: OadrConfig;
  log: Pick<Logger, 'info' | 'warn' | 'error'>;
}

/** The VEN's connection to the VTN as the enrolment page shows it. */
export interface VtnStatus {
  registered: boolean;
  lastPollAt: number | null;
  lastOkAt: number | null;
  lastError: string | null;
}

export async function vtnStatus(db: Db): Promise<VtnStatus> {
  const raw = await getState(db, 'vtnStatus');
  const saved = raw ? (JSON.parse(raw) as Omit<VtnStatus, 'registered'>) : { lastPollAt: null, lastOkAt: null, lastError: null };
  return { ...saved, registered: (await getState(db, 'venId')) !== null };
}

export async function recordPoll(db: Db, at: number, error: string | null): Promise<void> {
  const before = await vtnStatus(db);
  const next = { lastPollAt: at, lastOkAt: error === null ? at : before.lastOkAt, lastError: error };
  await setState(db, 'vtnStatus', JSON.stringify(next));
}

/** Forget everything the VTN was holding for the VEN: it registers again from nothing. */
async function forgetRegistration(db: Db, now: number): Promise<void> {
  await db.deleteFrom('dr_state').where('name', 'in', ['venId', 'subscriptionId', 'grants']).execute();
  await unregister(db, null, now);
}

/**
 * Devices whose resource the VTN no longer has (`resourceIds`; null: all) lose it, and their
 * accepted enrolments are pending again until every device is registered again.
 */
async function unregister(db: Db, resourceIds: readonly string[] | null, now: number): Promise<void> {
  if (resourceIds !== null && resourceIds.length === 0) return;
  let lost = db.selectFrom('dr_enrollment_devices').select(['id', 'enrollment_id']).where('resource_id', 'is not', null);
  if (resourceIds !== null) lost = lost.where('resource_id', 'in', resourceIds);
  const rows = await lost.execute();
  if (rows.length === 0) return;
  for (let i = 0; i < rows.length; i += 500) {
    const chunk = rows.slice(i, i + 500);
    await db
      .updateTable('dr_enrollment_devices')
      .set({ resource_id: null })
      .where(
        'id',
        'in',
        chunk.map((r) => r.id),
      )
      .execute();
    await db
      .updateTable('dr_enrollments')
      .set({ state: 'pending', updated_at: now })
      .where('state', '=', 'accepted')
      .where('id', 'in', [...new Set(chunk.map((r) => r.enrollment_id))])
      .execute();
  }
}

/**
 * The VEN's id at the VTN: the stored one while the VTN still has that ven object under the VEN's
 * name; else found again by name or registered anew (and everything the VTN held for the old one
 * forgotten).
 */
export async function reconcileVen(ctx: RegistrationContext, now: number): Promise<string> {
  const { db, client, config, log } = ctx;
  const stored = await getState(db, 'venId');
  if (stored) {
    const ven = await client.ven(stored);
    if (ven && ven.venName === config.venName) return stored;
    log.warn({ venId: stored }, 'demand response: the VTN no longer has this VEN; registering again');
    await forgetRegistration(db, now);
  }
  const ven = (await client.findVen(config.venName)) ?? (await client.createVen(config.venName));
  await setState(db, 'venId', ven.id);
  return ven.id;
}

/**
 * Resources the VTN no longer has are registered again (their enrolments pending until then), and
 * the targets granted to the VEN and its resources are kept for deciding which events are its own.
 */
export async function reconcileResources(ctx: RegistrationContext, venId: string, now: number): Promise<void> {
  const { db, client, config, log } = ctx;
  const ven = await client.ven(venId);
  const theirs = await client.resources(venId);
  const known = new Set(theirs.map((r) => r.id));
  const stored = await db
    .selectFrom('dr_enrollment_devices')
    .select('resource_id')
    .where('resource_id', 'is not', null)
    .execute();
  const lost = stored.map((r) => r.resource_id!).filter((id) => !known.has(id));
  if (lost.length > 0) {
    log.warn({ resources: lost.length }, 'demand response: the VTN no longer has some resources; registering them again');
    await unregister(db, lost, now);
  }
  const grants: Grants = {
    venName: config.venName,
    venId,
    venTargets: targetsOf(ven?.targets),
    resources: theirs.map((r) => ({ id: r.id, name: r.resourceName, targets: targetsOf(r.targets) })),
  };
  await setState(db, 'grants', JSON.stringify(grants));
}

/** The targets granted to the VEN and its resources, as last read from the VTN. */
export async function storedGrants(db: Db, venName: string): Promise<Grants> {
  const raw = await getState(db, 'grants');
  if (raw) return JSON.parse(raw) as Grants;
  const resources = await db
    .selectFrom('dr_enrollment_devices')
    .select(['resource_id', 'sn'])
    .where('resource_id', 'is not', null)
    .execute();
  return {
    venName,
    venId: await getState(db, 'venId'),
    venTargets: [],
    resources: resources.map((r) => ({ id: r.resource_id!, name: r.sn, targets: [] })),
  };
}

/**
 * A webhook subscription for events and programmes, when the portal has a public callback URL:
 * the VEN's own (its callback URL and the bearer token it gave), made again when the VTN lost it
 * or holds one with another token.
 */
export async function ensureSubscription(ctx: RegistrationContext, token: string): Promise<void> {
  const { db, client, config, log } = ctx;
  const url = config.callbackUrl;
  if (!url) return;
  const existing = await client.subscriptions(config.venName);
  const mine = existing.filter((s) => s.objectOperations?.some((o) => o.callbackUrl === url));
  const good = mine.find((s) =>
    s.objectOperations.every((o) => o.callbackUrl !== url || !o.bearerToken || o.bearerToken === token),
  );
  for (const stale of mine) if (stale !== good) await client.deleteSubscription(stale.id);
  if (good) {
    await setState(db, 'subscriptionId', good.id);
    return;
  }
  try {
    const created = await client.createSubscription(config.venName, url, token);
    await setState(db, 'subscriptionId', created.id);
  } catch (err) {
    // The VTN checks the callback (echo) before storing it; polling covers a refusal.
    log.warn({ err: (err as Error).message }, 'demand response: subscription refused; polling only');
  }
}

/**
 * A resource per device of a pending or accepted enrolment (in a programme the VTN still offers),
 * those of removed devices and ended enrolments removed; a pending enrolment is accepted once all
 * its devices are resources, one whose programme the VTN no longer offers is rejected.
 */
export async function syncResources(ctx: RegistrationContext, venId: string, programIds: Set<string> | null, now: number) {
  const { db, client } = ctx;
  // Devices to register: of pending or accepted enrolments, not removed, without a resource.
  const toAdd = await db
    .selectFrom('dr_enrollment_devices as d')
    .innerJoin('dr_enrollments as e', 'e.id', 'd.enrollment_id')
    .select(['d.id', 'd.sn', 'd.charge_w', 'd.discharge_w', 'e.program_id'])
    .where('e.state', 'in', ['pending', 'accepted'])
    .where('d.removed_at', 'is', null)
    .where('d.resource_id', 'is', null)
    .execute();
  for (const d of toAdd) {
    if (programIds && !programIds.has(d.program_id)) continue;
    const r = await client.createResource(venId, d.sn, [
      { type: 'MAX_POWER_CONSUMPTION', values: [Number(d.charge_w) / 1000] },
      { type: 'MAX_POWER_EXPORT', values: [Number(d.discharge_w) / 1000] },
    ]);
    await db.updateTable('dr_enrollment_devices').set({ resource_id: r.id }).where('id', '=', d.id).execute();
  }
  // Resources of removed devices and ended enrolments go.
  const toRemove = await db
    .selectFrom('dr_enrollment_devices as d')
    .innerJoin('dr_enrollments as e', 'e.id', 'd.enrollment_id')
    .select(['d.id', 'd.resource_id'])
    .where('d.resource_id', 'is not', null)
    .where((eb) => eb.or([eb('d.removed_at', 'is not', null), eb('e.state', 'in', ['unenrolled', 'rejected'])]))
    .execute();
  for (const d of toRemove) {
    await client.deleteResource(d.resource_id!);
    await db.updateTable('dr_enrollment_devices').set({ resource_id: null }).where('id', '=', d.id).execute();
  }
  // A pending enrolment is accepted once all its devices are resources at the VTN; one whose
  // programme the VTN no longer offers is rejected.
  const pending = await db.selectFrom('dr_enrollments').select(['id', 'program_id']).where('state', '=', 'pending').execute();
  for (const e of pending) {
    if (programIds && !programIds.has(e.program_id)) {
      await db.updateTable('dr_enrollments').set({ state: 'rejected', updated_at: now }).where('id', '=', e.id).execute();
      continue;
    }
    const open = await db
      .selectFrom('dr_enrollment_devices')
      .select((eb) => [eb.fn.countAll<number>().as('all'), eb.fn.count<number>('resource_id').as('registered')])
      .where('enrollment_id', '=', e.id)
      .where('removed_at', 'is', null)
      .executeTakeFirstOrThrow();
    if (Number(open.all) > 0 && Number(open.all) === Number(open.registered))
      await db
        .updateTable('dr_enrollments')
        .set({ state: 'accepted', updated_at: now })
        .where('id', '=', e.id)
        .where('state', '=', 'pending')
        .execute();
  }
}

/**
 * Enrolments whose programme id the VTN no longer has follow a programme of the same name (a
 * utility that made its programmes again after losing its state); the others stay as they are
 * (pending ones are rejected by `syncResources`).
 */
export async function followProgrammes(db: Db, programs: readonly { id: string; programName: string }[], now: number) {
  const ids = new Set(programs.map((p) => p.id));
  const byName = new Map(programs.map((p) => [p.programName, p.id]));
  const lost = await db
    .selectFrom('dr_enrollments')
    .select(['id', 'program_id', 'program_name'])
    .where('state', 'in', ['pending', 'accepted'])
    .execute();
  for (const e of lost) {
    const next = byName.get(e.program_name);
    if (ids.has(e.program_id) || next === undefined) continue;
    await db.updateTable('dr_enrollments').set({ program_id: next, updated_at: now }).where('id', '=', e.id).execute();
  }
}
