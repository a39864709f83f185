/**
 * Rollouts as their starter sees them, and what an operator does with one: pause (no new wave
 * starts; devices under way finish), resume (the next wave starts; the wave that paused it does not
 * pause it again), cancel (devices not started are cancelled, downloads told to abort, flashes
 * finish). A rollout is seen by the account that started it and by system administrators; anyone
 * else gets 404, as for a missing one.
 */
import { type DataOf, ErrorCode, type upgradesApi } from '@sunfleet/contracts';
import type { Caller } from '../../access/caller.ts';
import type { Deps } from '../../deps.ts';
import { fail } from '../../http/errors.ts';
import { cutDevice, upgradeCtx } from './engine.ts';
import * as fleet from './fleet.repo.ts';
import {
  closeLog,
  countDevices,
  devicesOf,
  FAILED_STATES,
  moveRollout,
  OPEN_STATES,
  type RolloutRow,
  type UpgradeState,
  waveCounts,
} from './upgrades.repo.ts';
import { deviceView } from './views.ts';

type UpgradeDeps = Pick<Deps, 'db' | 'dialect' | 'commands' | 'config'>;
type View = DataOf<typeof upgradesApi.rollout>;
type Summary = DataOf<typeof upgradesApi.rollouts>['list'][number];
export type RolloutWithFirmware = RolloutRow & { product_name: string; version: string };

const FAILING_SHOWN = 200;
const iso = (ms: number | string | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

/** A rollout the caller started (any, for a system administrator); 404 otherwise. */
async function rolloutFor(deps: UpgradeDeps, caller: Caller, id: string): Promise<RolloutWithFirmware> {
  const r = await fleet.rolloutWithFirmware(deps.db, id, caller.user.kind !== 'sysadmin' ? caller.user.id : undefined);
  return r ?? fail(ErrorCode.notFound);
}

async function summary(
  deps: UpgradeDeps,
  r: RolloutWithFirmware,
): Promise<Summary & { _waves: Awaited<ReturnType<typeof waveCounts>> }> {
  const perWave = await waveCounts(deps.db, r.id);
  const counts: Record<string, number> = {};
  for (const c of perWave) counts[c.state] = (counts[c.state] ?? 0) + c.n;
  return {
    id: r.id,
    firmwareId: Number(r.firmware_id),
    productName: r.product_name,
    version: r.version,
    deviceKind: r.device_kind,
    state: r.state as Summary['state'],
    canarySize: Number(r.canary_size),
    waveSize: Number(r.wave_size),
    failureThreshold: Number(r.failure_threshold),
    waves: Number(r.waves),
    currentWave: Number(r.current_wave),
    pauseReason: r.pause_reason,
    createdAt: iso(r.created_at)!,
    finishedAt: iso(r.finished_at),
    total: perWave.reduce((n, c) => n + c.n, 0),
    counts,
    _waves: perWave,
  };
}

export async function viewOf(deps: UpgradeDeps, r: RolloutWithFirmware): Promise<View> {
  const { _waves, ...s } = await summary(deps, r);
  const waves = new Map<number, { wave: number; size: number; counts: Record<string, number> }>();
  for (const c of _waves) {
    const w = waves.get(c.wave) ?? { wave: c.wave, size: 0, counts: {} };
    w.size += c.n;
    w.counts[c.state] = (w.counts[c.state] ?? 0) + c.n;
    waves.set(c.wave, w);
  }
  const failing = await devicesOf(deps.db, r.id, { states: FAILED_STATES, limit: FAILING_SHOWN });
  const fw = { version: r.version, firmware_id: Number(r.firmware_id) };
  return {
    ...s,
    waveList: [...waves.values()].sort((a, b) => a.wave - b.wave),
    failing: failing.map((d) => deviceView(d, fw)),
  };
}

export async function rolloutView(deps: UpgradeDeps, caller: Caller, id: string): Promise<View> {
  return viewOf(deps, await rolloutFor(deps, caller, id));
}

export async function rolloutDevices(
  deps: UpgradeDeps,
  caller: Caller,
  id: string,
  q: { state?: UpgradeState; page?: number; size?: number },
): Promise<DataOf<typeof upgradesApi.rolloutDevices>> {
  const r = await rolloutFor(deps, caller, id);
  const size = q.size ?? 20;
  const page = q.page ?? 1;
  const rows = await devicesOf(deps.db, r.id, {
    ...(q.state ? { states: [q.state] } : {}),
    limit: size,
    offset: (page - 1) * size,
  });
  const fw = { version: r.version, firmware_id: Number(r.firmware_id) };
  return { total: await countDevices(deps.db, r.id, q.state), list: rows.map((d) => deviceView(d, fw)) };
}

export async function listRollouts(
  deps: UpgradeDeps,
  caller: Caller,
  q: { firmwareId?: number; page?: number; size?: number },
): Promise<DataOf<typeof upgradesApi.rollouts>> {
  const size = q.size ?? 10;
  const page = q.page ?? 1;
  const { total, rows } = await fleet.rolloutPage(
    deps.db,
    { requestedBy: caller.user.kind !== 'sysadmin' ? caller.user.id : undefined, firmwareId: q.firmwareId },
    page,
    size,
  );
  const list = [];
  for (const r of rows) {
    const { _waves, ...s } = await summary(deps, r);
    list.push(s);
  }
  return { total, list };
}

export async function pauseRollout(deps: UpgradeDeps, caller: Caller, id: string): Promise<View> {
  const r = await rolloutFor(deps, caller, id);
  const at = Date.now();
  const moved = await moveRollout(deps.db, r.id, ['running'], {
    state: 'paused',
    pause_reason: 'paused by an operator',
    updated_at: at,
  });
  if (!moved) fail(ErrorCode.stateBlocksAction, 'the rollout is not running');
  return rolloutView(deps, caller, id);
}

export async function resumeRollout(deps: UpgradeDeps, caller: Caller, id: string): Promise<View> {
  const r = await rolloutFor(deps, caller, id);
  // The wave that paused it has been looked at: its failures do not pause it again.
  const moved = await moveRollout(deps.db, r.id, ['paused'], {
    state: 'running',
    pause_reason: null,
    paused_wave: Number(r.current_wave),
    updated_at: Date.now(),
  });
  if (!moved) fail(ErrorCode.stateBlocksAction, 'the rollout is not paused');
  return rolloutView(deps, caller, id);
}

export async function cancelRollout(deps: UpgradeDeps, caller: Caller, id: string): Promise<View> {
  const r = await rolloutFor(deps, caller, id);
  const at = Date.now();
  const moved = await moveRollout(deps.db, r.id, ['running', 'paused'], {
    state: 'cancelled',
    finished_at: at,
    updated_at: at,
  });
  if (!moved) fail(ErrorCode.stateBlocksAction, 'the rollout has ended');
  const ctx = upgradeCtx(deps);
  // Pending devices together; then each one under way.
  const pending = await fleet.cancelPending(deps.db, r.id, at);
  for (const d of pending) await closeLog(deps.db, d, 'cancelled', at, { state: 'cancelled' });
  for (const d of await devicesOf(deps.db, r.id, { states: OPEN_STATES })) await cutDevice(ctx, d, caller.user.id);
  return rolloutView(deps, caller, id);
}
