/**
 * Upgrade requests (README.md has the rules): a single device or a batch becomes a rollout whose
 * first wave is sent at once (the runner sends the others); checks; cutting a device's upgrade;
 * its progress; the images a device may take.
 */
import { randomUUID } from 'node:crypto';
import type { DataOf, upgradesApi } from '@sunfleet/contracts';
import { upgradesApi as contract, ErrorCode } from '@sunfleet/contracts';
import type { Caller } from '../../access/caller.ts';
import { deviceFor, gatewayFor } from '../../access/resolve.ts';
import type { Deps } from '../../deps.ts';
import { latestBySn } from '../../energy/latest.ts';
import { fail } from '../../http/errors.ts';
import { cutDevice, type FirmwareRow, firmwareRow, startWave, syncDevices, upgradeCtx } from './engine.ts';
import * as fleet from './fleet.repo.ts';
import { busyDevices, type DeviceRow, insertRollout, latestOfDevice, OPEN_STATES, type UpgradeState } from './upgrades.repo.ts';
import { inverterVersion, isVersion } from './versions.ts';
import { deviceView } from './views.ts';

type UpgradeDeps = Pick<Deps, 'db' | 'dialect' | 'commands' | 'config'>;
type Kind = 'gateway' | 'inverter';
type Started = DataOf<typeof upgradesApi.inverterUpgrade>;
type RolloutOptions = { canarySize?: number; canaryPercent?: number; waveSize?: number; failureThreshold?: number };

const { upgradeLimits } = contract;

/** An enabled image of the kind, else 4. */
async function usableFirmware(deps: UpgradeDeps, id: number, kind: Kind): Promise<FirmwareRow> {
  const fw = await firmwareRow(deps.db, id);
  if (!fw || fw.type !== kind || Number(fw.enabled) !== 1)
    return fail(ErrorCode.validation, `firmId: no enabled ${kind} firmware image ${id}`);
  return fw;
}

interface Target {
  sn: string;
  gatewaySn: string;
  plantId: number | null;
  online: boolean;
  version: string | null;
}

/** The devices named, each one the caller may operate (else the whole request is refused: 600/305, 2). */
async function targets(deps: UpgradeDeps, caller: Caller, kind: Kind, names: readonly ({ sn: string } | { id: number })[]) {
  const out: Target[] = [];
  if (kind === 'gateway') {
    const found = [];
    for (const by of names) found.push(await gatewayFor(deps.db, caller, by, { need: 'operate' }));
    const rows = await fleet.gatewaysForUpgrade(
      deps.db,
      found.map((g) => g.id),
    );
    const bySn = new Map(rows.map((r) => [r.sn, r]));
    for (const g of found) {
      const r = bySn.get(g.sn)!;
      out.push({ sn: g.sn, gatewaySn: g.sn, plantId: g.plantId, online: Number(r.online) === 1, version: r.sw_version });
    }
    return out;
  }
  const found = [];
  for (const by of names) found.push(await deviceFor(deps.db, caller, by, { kind: 'inverter', need: 'operate' }));
  const gateways = await fleet.gatewaysOnline(deps.db, [...new Set(found.map((d) => d.gatewayId))]);
  const byId = new Map(gateways.map((g) => [g.id, g]));
  const latest = await latestBySn(
    deps.db,
    found.map((d) => d.sn),
  );
  for (const d of found) {
    const g = byId.get(d.gatewayId)!;
    const values = latest.get(d.sn)?.values;
    out.push({
      sn: d.sn,
      gatewaySn: g.sn,
      plantId: d.plantId,
      online: Number(g.online) === 1 && d.status !== 'offline',
      version: values ? inverterVersion(values) : null,
    });
  }
  return out;
}

const REASONS: Partial<Record<ErrorCode, string>> = {
  [ErrorCode.deviceOffline]: 'the device is offline',
  [ErrorCode.stateBlocksAction]: 'an upgrade of the device is running',
  [ErrorCode.firmwareLatest]: 'the device already runs this version',
};

/** Why a device cannot take the image now: 1005 busy, 1001 offline, 4001 already on it; 0 when it can. */
function blocker(kind: Kind, t: Target, busy: ReadonlySet<string>, version: string): ErrorCode {
  if (busy.has(t.sn)) return ErrorCode.stateBlocksAction;
  if (!t.online) return ErrorCode.deviceOffline;
  if (isVersion(kind, t.version, version)) return ErrorCode.firmwareLatest;
  return ErrorCode.ok;
}

/** How many devices each wave takes: the canary, then waves of `waveSize`. */
export function planWaves(total: number, o: RolloutOptions): { canary: number; waveSize: number; waves: number } {
  const canary = Math.min(
    total,
    Math.max(
      1,
      o.canaryPercent !== undefined ? Math.ceil((total * o.canaryPercent) / 100) : (o.canarySize ?? upgradeLimits.canarySize),
    ),
  );
  const waveSize = o.waveSize ?? upgradeLimits.waveSize;
  return { canary, waveSize, waves: 1 + Math.ceil((total - canary) / waveSize) };
}

/** Upgrade the devices named: one (`single`: a blocked device answers its code) or a batch (blocked ones are listed). */
export async function startUpgrade(
  deps: UpgradeDeps,
  caller: Caller,
  kind: Kind,
  names: readonly ({ sn: string } | { id: number })[],
  firmId: number,
  options: RolloutOptions & { single?: boolean },
): Promise<Started> {
  const firmware = await usableFirmware(deps, firmId, kind);
  const unique = [...new Map(names.map((n) => [JSON.stringify(n), n])).values()];
  const all = await targets(deps, caller, kind, unique);
  const seen = new Set<string>();
  const list = all.filter((t) => !seen.has(t.sn) && seen.add(t.sn));
  const busy = await busyDevices(
    deps.db,
    list.map((t) => t.sn),
  );
  const accepted: Target[] = [];
  const refused: Started['refused'] = [];
  for (const t of list) {
    const code = blocker(kind, t, busy, firmware.version);
    if (code === ErrorCode.ok) accepted.push(t);
    else refused.push({ sn: t.sn, code, reason: REASONS[code] ?? '' });
  }
  if (options.single && refused.length > 0) fail(refused[0]!.code as ErrorCode);
  if (accepted.length === 0) fail((refused[0]?.code ?? ErrorCode.validation) as ErrorCode);

  const ctx = upgradeCtx(deps);
  const at = ctx.now();
  const plan = options.single ? { canary: 1, waveSize: 1, waves: 1 } : planWaves(accepted.length, options);
  const id = randomUUID();
  const rollout = {
    id,
    firmware_id: firmware.id,
    device_kind: kind,
    state: 'running',
    canary_size: plan.canary,
    wave_size: plan.waveSize,
    failure_threshold: options.failureThreshold ?? upgradeLimits.failureThreshold,
    waves: plan.waves,
    current_wave: 0,
    pause_reason: null,
    paused_wave: null,
    requested_by: caller.user.id,
    created_at: at,
    updated_at: at,
    finished_at: null,
  };
  await deps.db.transaction().execute(async (trx) => {
    const logs: { id: number }[] = [];
    for (let i = 0; i < accepted.length; i += 200) {
      const part = accepted.slice(i, i + 200);
      logs.push(
        ...(await fleet.insertMaintenanceRows(
          trx,
          part.map((t) => ({
            kind: 'upgrade' as const,
            device_sn: t.sn,
            gateway_sn: t.gatewaySn,
            plant_id: t.plantId,
            user_id: caller.user.id,
            job_id: null,
            detail: JSON.stringify({
              rolloutId: id,
              firmwareId: firmware.id,
              version: firmware.version,
              fromVersion: t.version,
              deviceKind: kind,
            }),
            result: 'running' as const,
            created_at: at,
            finished_at: null,
          })),
        )),
      );
    }
    await insertRollout(
      trx,
      rollout,
      accepted.map((t, i) => ({
        rollout_id: id,
        device_sn: t.sn,
        device_kind: kind,
        gateway_sn: t.gatewaySn,
        plant_id: t.plantId,
        wave: i < plan.canary ? 0 : 1 + Math.floor((i - plan.canary) / plan.waveSize),
        state: 'pending',
        progress: null,
        from_version: t.version,
        error: null,
        job_id: null,
        abort_job_id: null,
        log_id: logs[i]!.id,
        started_at: null,
        flashed_at: null,
        finished_at: null,
        updated_at: at,
      })),
    );
  });
  // The canary (or the single device) is sent now; the runner sends the other waves.
  await startWave(ctx, { ...rollout, lease_until: 0 }, 0);
  const rows = await fleet.rolloutDevices(deps.db, id);
  const fw = { version: firmware.version, firmware_id: firmware.id };
  return { rolloutId: id, devices: rows.map((r) => deviceView(r, fw)), refused };
}

/** Whether each gateway may take the image now (nothing stored). */
export async function checkGateways(
  deps: UpgradeDeps,
  caller: Caller,
  sns: readonly string[],
  firmId: number,
): Promise<DataOf<typeof upgradesApi.gatewaysBatchCheck>> {
  const firmware = await usableFirmware(deps, firmId, 'gateway');
  const list = await targets(
    deps,
    caller,
    'gateway',
    [...new Set(sns)].map((sn) => ({ sn })),
  );
  const busy = await busyDevices(
    deps.db,
    list.map((t) => t.sn),
  );
  return list.map((t) => {
    const code = blocker('gateway', t, busy, firmware.version);
    return {
      sn: t.sn,
      version: t.version,
      ok: code === ErrorCode.ok,
      code,
      reason: code === ErrorCode.ok ? null : (REASONS[code] ?? null),
    };
  });
}

async function withFirmware(deps: UpgradeDeps, row: DeviceRow) {
  const r = await fleet.rolloutFirmware(deps.db, row.rollout_id);
  return r ?? { version: '', firmware_id: 0 };
}

/** The inverter's latest upgrade, following its job first; null when it has had none. */
export async function inverterProgress(deps: UpgradeDeps, caller: Caller, sn: string) {
  const device = await deviceFor(deps.db, caller, { sn }, { kind: 'inverter' });
  const row = await latestOfDevice(deps.db, device.sn, 'inverter');
  // An inverter never upgraded has no upgrade: a state the page shows as nothing, not an error.
  if (!row) return null;
  const [synced] = await syncDevices(upgradeCtx(deps), [row]);
  return deviceView(synced!, await withFirmware(deps, synced!));
}

/** Cut the inverter's open upgrade; 404 when none is open. */
export async function cutInverter(deps: UpgradeDeps, caller: Caller, sn: string) {
  const device = await deviceFor(deps.db, caller, { sn }, { kind: 'inverter', need: 'operate' });
  const row = await latestOfDevice(deps.db, device.sn, 'inverter');
  if (!row || !OPEN_STATES.includes(row.state as UpgradeState)) return fail(ErrorCode.notFound);
  const after = await cutDevice(upgradeCtx(deps), row, caller.user.id);
  return deviceView(after, await withFirmware(deps, after));
}

const choice = (r: {
  id: number;
  product_name: string;
  version: string;
  file_name: string;
  size: number;
  change_log: string | null;
  created_at: number;
}) => ({
  id: r.id,
  productName: r.product_name,
  version: r.version,
  fileName: r.file_name,
  size: Number(r.size),
  changeLog: r.change_log,
  createdAt: new Date(Number(r.created_at)).toISOString(),
});

/** The enabled images of a type, newest first. */
export async function firmwares(deps: UpgradeDeps, type: Kind) {
  const rows = await fleet.enabledFirmware(deps.db, type);
  return rows.map(choice);
}

/** The inverter's reported version and the images it may take. */
export async function inverterFirmware(deps: UpgradeDeps, caller: Caller, sn: string) {
  const device = await deviceFor(deps.db, caller, { sn }, { kind: 'inverter' });
  const values = (await latestBySn(deps.db, [device.sn])).get(device.sn)?.values;
  return { sn: device.sn, version: values ? inverterVersion(values) : null, firmwares: await firmwares(deps, 'inverter') };
}
