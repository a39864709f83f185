/** Upgrade rows as callers see them (the contract's types). */
import type { DataOf, upgradesApi } from '@sunfleet/contracts';
import type { DeviceRow, UpgradeState } from './upgrades.repo.ts';

type DeviceView = NonNullable<DataOf<typeof upgradesApi.inverterUpgradeProgress>>;

const iso = (ms: number | string | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

export function deviceView(r: DeviceRow, firmware: { version: string; firmware_id: number }): DeviceView {
  return {
    sn: r.device_sn,
    kind: r.device_kind,
    gatewaySn: r.gateway_sn,
    rolloutId: r.rollout_id,
    wave: Number(r.wave),
    state: r.state as UpgradeState,
    progress: r.progress === null ? null : Number(r.progress),
    error: r.error,
    fromVersion: r.from_version,
    toVersion: firmware.version,
    firmwareId: Number(firmware.firmware_id),
    startedAt: iso(r.started_at),
    finishedAt: iso(r.finished_at),
  };
}
