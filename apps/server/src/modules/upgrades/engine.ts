/**
 * What happens to the devices of an upgrade: a wave is started (each device sent `upgrade` with a
 * fresh signed link), each device follows its command job (machine.ts), a flashed device is
 * confirmed by the version it reports, and a device is cut (cancelled before it starts, told to
 * abort a download, left to finish a flash). Every change is a conditional update of the store, the
 * device's status follows it (device-status.ts), and the device's maintenance log row is closed
 * with its result when it ends.
 */
import type { CommandBody, CommandChannel } from '../../commands/channel.ts';
import type { Config } from '../../config.ts';
import type { Db, Dialect } from '../../db/index.ts';
import type { FirmwareTable } from '../../db/schema.ts';
import { latestBySn } from '../../energy/latest.ts';
import { followUpgrade } from './device-status.ts';
import { firmwareForUpgrade, gatewayVersions } from './fleet.repo.ts';
import { type LinkSigner, linkKey, linkSigner } from './links.ts';
import { confirmation, isForward, outcomeOfJob } from './machine.ts';
import {
  closeLog,
  type DeviceRow,
  devicesOf,
  moveDevice,
  OPEN_STATES,
  type RolloutRow,
  RUNNING_STATES,
  type UpgradeState,
} from './upgrades.repo.ts';
import { inverterVersion, isVersion } from './versions.ts';

export interface UpgradeCtx {
  db: Db;
  dialect: Dialect;
  commands: CommandChannel;
  config: Pick<Config, 'dataDir' | 'upgrades' | 'commands'>;
  links: LinkSigner;
  now: () => number;
}

const signers = new Map<string, LinkSigner>();

/** The upgrade context of a process (its link signer made once per data folder and key). */
export function upgradeCtx(deps: {
  db: Db;
  dialect: Dialect;
  commands: CommandChannel;
  config: UpgradeCtx['config'];
  now?: () => number;
}): UpgradeCtx {
  const { dataDir, upgrades } = deps.config;
  const key = `${dataDir}|${upgrades.baseUrl}|${upgrades.linkSecret ?? ''}`;
  let links = signers.get(key);
  if (!links) {
    links = linkSigner(upgrades.baseUrl, linkKey(dataDir, upgrades.linkSecret));
    signers.set(key, links);
  }
  return { ...deps, links, now: deps.now ?? Date.now };
}

export type FirmwareRow = Pick<FirmwareTable, 'type' | 'product_name' | 'version' | 'size' | 'sha256' | 'signature'> & {
  id: number;
  enabled: number;
};

export async function firmwareRow(db: Db, id: number): Promise<FirmwareRow | undefined> {
  return firmwareForUpgrade(db, id);
}

const FINAL_RESULT = { success: 'succeeded', failed: 'failed', download_failed: 'failed', cancelled: 'cancelled' } as const;

/** Move a device and, when that ends its upgrade, close its log row. */
async function move(ctx: UpgradeCtx, row: DeviceRow, from: readonly UpgradeState[], set: Partial<DeviceRow>) {
  const at = ctx.now();
  const to = (set.state ?? row.state) as UpgradeState;
  const final = to in FINAL_RESULT;
  const changed = await moveDevice(ctx.db, row.id, from, { ...set, updated_at: at, ...(final ? { finished_at: at } : {}) });
  if (changed) await followUpgrade(ctx.db, changed);
  if (changed && final && !(row.state in FINAL_RESULT))
    await closeLog(ctx.db, changed, FINAL_RESULT[to as keyof typeof FINAL_RESULT], at, {
      state: to,
      ...(changed.error ? { error: changed.error } : {}),
    });
  return changed;
}

/** Send `upgrade` to the pending devices of a wave; returns how many were sent. */
export async function startWave(ctx: UpgradeCtx, rollout: RolloutRow, wave: number): Promise<number> {
  const firmware = await firmwareRow(ctx.db, rollout.firmware_id);
  const rows = await devicesOf(ctx.db, rollout.id, { wave, states: ['pending'] });
  if (rows.length === 0) return 0;
  if (!firmware) {
    for (const r of rows) await move(ctx, r, ['pending'], { state: 'failed', error: 'the firmware image is gone' });
    return 0;
  }
  const { upgrades, commands } = ctx.config;
  const at = ctx.now();
  const url = ctx.links.url(firmware.id, at + upgrades.linkTtlMs);
  const image = { url, size: firmware.size, sha256: firmware.sha256, signature: firmware.signature, version: firmware.version };
  const jobs = await Promise.all(
    rows.map((r) => {
      const body: CommandBody =
        r.device_kind === 'inverter'
          ? { type: 'upgrade', device: r.device_sn, firmware: image }
          : { type: 'upgrade', firmware: image };
      return ctx.commands.submit({
        gatewaySn: r.gateway_sn,
        ...(r.device_kind === 'inverter' ? { deviceSn: r.device_sn } : {}),
        body,
        requestedBy: rollout.requested_by,
        batchId: rollout.id,
        timeoutMs: upgrades.timeoutMs,
        // A link must still work when the device fetches it: a job waits for an offline gateway at most half its life.
        expiresInMs: Math.min(commands.expiryMs, Math.floor(upgrades.linkTtlMs / 2)),
      });
    }),
  );
  let sent = 0;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    const job = jobs[i]!;
    const moved = await move(ctx, r, ['pending'], { state: 'sending', job_id: job.id, started_at: at, progress: null });
    if (moved) sent++;
    // Cut while it was being sent: the job goes too.
    else await ctx.commands.cancel(job.id, rollout.requested_by);
  }
  return sent;
}

/** Follow the devices' command jobs; returns the rows as they are after. */
export async function syncDevices(ctx: UpgradeCtx, rows: readonly DeviceRow[]): Promise<DeviceRow[]> {
  const out: DeviceRow[] = [];
  for (const row of rows) {
    if (!RUNNING_STATES.includes(row.state as UpgradeState) || row.job_id === null || row.flashed_at !== null) {
      out.push(row);
      continue;
    }
    const job = await ctx.commands.get(row.job_id);
    if (!job) {
      out.push(row);
      continue;
    }
    const o = outcomeOfJob(job);
    const current = row.state as UpgradeState;
    const forward = isForward(current, o.state);
    const progressed = o.state === current && o.progress !== row.progress;
    if (!forward && !progressed && o.flashedAt === null) {
      out.push(row);
      continue;
    }
    const changed = await move(ctx, row, [current], {
      state: forward ? o.state : current,
      progress: o.progress,
      ...(o.error ? { error: o.error.slice(0, 200) } : {}),
      ...(o.flashedAt !== null ? { flashed_at: o.flashedAt } : {}),
    });
    out.push(changed ?? row);
  }
  return out;
}

/** The versions the devices report now, and since when (a gateway: since it last came online). */
async function reportedVersions(
  db: Db,
  rows: readonly DeviceRow[],
): Promise<Map<string, { version: string | null; at: number | null }>> {
  const out = new Map<string, { version: string | null; at: number | null }>();
  const gateways = rows.filter((r) => r.device_kind === 'gateway').map((r) => r.device_sn);
  const inverters = rows.filter((r) => r.device_kind === 'inverter').map((r) => r.device_sn);
  for (let i = 0; i < gateways.length; i += 500) {
    const found = await gatewayVersions(db, gateways.slice(i, i + 500));
    for (const g of found)
      out.set(g.sn, {
        version: g.sw_version,
        at: Number(g.online) === 1 && g.last_online_at !== null ? Number(g.last_online_at) : null,
      });
  }
  if (inverters.length > 0)
    for (const [sn, latest] of await latestBySn(db, inverters))
      out.set(sn, { version: inverterVersion(latest.values), at: latest.ts });
  return out;
}

/** Confirm flashed devices by the version they report; returns how many ended. */
export async function confirmDevices(ctx: UpgradeCtx, rows: readonly DeviceRow[], target: string): Promise<number> {
  const flashed = rows.filter((r) => r.state === 'upgrading' && r.flashed_at !== null);
  if (flashed.length === 0) return 0;
  const reported = await reportedVersions(ctx.db, flashed);
  const now = ctx.now();
  let ended = 0;
  for (const r of flashed) {
    const flashedAt = Number(r.flashed_at);
    const result = confirmation(
      reported.get(r.device_sn) ?? { version: null, at: null },
      flashedAt,
      flashedAt + ctx.config.upgrades.confirmMs,
      now,
      (v) => isVersion(r.device_kind, v, target),
    );
    if (!result) continue;
    const changed = await move(ctx, r, ['upgrading'], {
      state: result.state,
      progress: result.state === 'success' ? 100 : r.progress,
      ...(result.state === 'failed' ? { error: result.error } : {}),
    });
    if (changed) ended++;
  }
  return ended;
}

/**
 * Stop a device's upgrade: not started → cancelled; its command still queued → cancelled with it;
 * downloading (or checking the download) → told to abort (it ends cancelled when the device says
 * so); flashing → left to finish and report. Returns the row as it is after.
 */
export async function cutDevice(ctx: UpgradeCtx, row: DeviceRow, by: number): Promise<DeviceRow> {
  const state = row.state as UpgradeState;
  if (state === 'pending') return (await move(ctx, row, ['pending'], { state: 'cancelled', error: 'cancelled' })) ?? row;
  if ((state !== 'sending' && state !== 'downloaded') || row.job_id === null) return row;
  const job = await ctx.commands.cancel(row.job_id, by);
  if (job.state === 'cancelled') return (await move(ctx, row, [state], { state: 'cancelled', error: 'cancelled' })) ?? row;
  if ((job.state === 'sent' || job.state === 'acknowledged') && row.abort_job_id === null) {
    const abort = await ctx.commands.submit({
      gatewaySn: row.gateway_sn,
      ...(row.device_kind === 'inverter' ? { deviceSn: row.device_sn } : {}),
      body: { type: 'abort', target: row.job_id, ...(row.device_kind === 'inverter' ? { device: row.device_sn } : {}) },
      requestedBy: by,
      batchId: row.rollout_id,
    });
    return (await moveDevice(ctx.db, row.id, OPEN_STATES, { abort_job_id: abort.id, updated_at: ctx.now() })) ?? row;
  }
  return (await syncDevices(ctx, [row]))[0] ?? row;
}
