/**
 * Power now between PV, battery, grid and load, from latest values (latest.ts). Signs as in the
 * contract: grid + import / − export, battery + discharge / − charge; each register's value is
 * turned into it by the one sign table (`devices/signed-power.ts`).
 *
 * Which device measures what:
 * - PV: the inverters (sum of their MPPT inputs, else their AC output).
 * - Grid: the plant's meters when it has any (only the master meter when one is set), else the
 *   inverters' own grid power.
 * - Battery and SOC: the battery systems (BMS) when the plant has any, else the hybrid
 *   inverters' battery port; never both (they measure the same battery).
 * - Load: the inverters' load power; without it, and with the grid measured, load = inverter
 *   AC output + grid.
 * A device whose latest values are stale counts as no data; a value nobody measures is null.
 */
import type { DataOf, plantEnergyApi } from '@sunfleet/contracts';
import type { Db } from '../../db/index.ts';
import { deviceLatest, type LatestDevice, num, plantLatest } from '../../energy/latest.ts';
import { iso } from '../../time/index.ts';
import { inConvention, signedPower } from '../devices/signed-power.ts';
import type { OverviewPlant } from './plant.ts';

export type EnergyFlow = DataOf<typeof plantEnergyApi.plantEnergyFlow>;

const PV_KEYS = ['pv1Power', 'pv2Power', 'pv3Power', 'pv4Power'];

/** An inverter's PV power: its MPPT inputs, else its AC output. */
export function inverterPv(values: Record<string, unknown>): number | null {
  let sum: number | null = null;
  for (const k of PV_KEYS) {
    const v = num(values[k]);
    if (v !== null) sum = (sum ?? 0) + v;
  }
  return sum ?? num(values.activePower);
}

/** Whether a hybrid inverter's battery port is in use (a battery-less hybrid reads 0 there). */
const inverterHasBattery = (values: Record<string, unknown>) =>
  (num(values.batterySoc) ?? 0) > 0 || (num(values.batteryPower) ?? 0) !== 0;

const round = (w: number | null) => (w === null ? null : Math.round(w * 10) / 10);

function sum(devices: readonly LatestDevice[], read: (v: Record<string, unknown>) => number | null): number | null {
  let total: number | null = null;
  for (const d of devices) {
    const v = read(d.values);
    if (v !== null) total = (total ?? 0) + v;
  }
  return total;
}

function average(devices: readonly LatestDevice[], read: (v: Record<string, unknown>) => number | null): number | null {
  let total = 0;
  let n = 0;
  for (const d of devices) {
    const v = read(d.values);
    if (v !== null) {
      total += v;
      n++;
    }
  }
  return n === 0 ? null : total / n;
}

/** The meters whose power is the plant's grid: the master when it is one of them, else all. */
export function gridMeters<T extends { id: number }>(meters: readonly T[], masterMeterId: number | null): T[] {
  const master = masterMeterId === null ? undefined : meters.find((m) => m.id === masterMeterId);
  return master ? [master] : [...meters];
}

/** The registers' signs against the convention, from the one table. */
const sign = {
  meterGrid: signedPower.meter.activePower!.sign,
  inverterGrid: signedPower.inverter.gridActivePower!.sign,
  battery: signedPower.battery.power!.sign,
  inverterBattery: signedPower.inverter.batteryPower!.sign,
};
const signed = (value: number | null, s: 1 | -1) => (value === null ? null : inConvention(value, s));

export function flowOf(
  devices: readonly LatestDevice[],
  opts: { masterMeterId: number | null; storagePlant: boolean },
): EnergyFlow {
  const inverters = devices.filter((d) => d.kind === 'inverter');
  const meters = gridMeters(
    devices.filter((d) => d.kind === 'meter'),
    opts.masterMeterId,
  );
  const batteries = devices.filter((d) => d.kind === 'battery');
  const live = (list: readonly LatestDevice[]) => list.filter((d) => d.fresh);

  const hasPv = inverters.length > 0;
  const inverterGrid = inverters.some((d) => num(d.values.gridActivePower) !== null);
  const hasGrid = meters.length > 0 || inverterGrid;
  const inverterBattery = inverters.some((d) => inverterHasBattery(d.values));
  const hasBattery = batteries.length > 0 || inverterBattery || opts.storagePlant;
  const inverterLoad = inverters.some((d) => num(d.values.loadPower) !== null);
  const hasLoad = inverterLoad || (hasGrid && hasPv);

  const pv = hasPv ? sum(live(inverters), inverterPv) : null;
  let grid: number | null = null;
  if (meters.length > 0) grid = sum(live(meters), (v) => signed(num(v.activePower), sign.meterGrid));
  else if (inverterGrid) grid = sum(live(inverters), (v) => signed(num(v.gridActivePower), sign.inverterGrid));
  let battery: number | null = null;
  let soc: number | null = null;
  if (batteries.length > 0) {
    battery = sum(live(batteries), (v) => signed(num(v.power), sign.battery));
    soc = average(live(batteries), (v) => num(v.soc));
  } else if (hasBattery) {
    const ports = live(inverters).filter((d) => num(d.values.batteryPower) !== null || num(d.values.batterySoc) !== null);
    battery = sum(ports, (v) => signed(num(v.batteryPower), sign.inverterBattery));
    soc = average(ports, (v) => num(v.batterySoc));
  }
  let load: number | null = null;
  if (inverterLoad) load = sum(live(inverters), (v) => num(v.loadPower));
  if (load === null && grid !== null && meters.length > 0) {
    const output = sum(live(inverters), (v) => num(v.activePower));
    if (output !== null) load = Math.max(0, output + grid);
  }
  let at: number | null = null;
  for (const d of devices) if (d.ts !== null && (at === null || d.ts > at)) at = d.ts;
  return {
    pv: round(pv),
    load: round(load),
    grid: round(grid),
    battery: round(battery),
    soc: round(soc),
    hasPv,
    hasBattery,
    hasGrid,
    hasLoad,
    at: iso(at),
  };
}

export async function plantFlow(db: Db, plant: OverviewPlant, now = Date.now()): Promise<EnergyFlow> {
  const devices = await plantLatest(db, plant.id, ['inverter', 'meter', 'battery'], now);
  return flowOf(devices, { masterMeterId: plant.master_meter_id, storagePlant: plant.type !== 0 });
}

/** One inverter's own view: its PV, grid (own CT), battery port and load. */
export async function inverterFlow(db: Db, deviceId: number, now = Date.now()): Promise<EnergyFlow> {
  const device = await deviceLatest(db, deviceId, now);
  return flowOf(device ? [device] : [], { masterMeterId: null, storagePlant: false });
}

/** Power now: the sum of the fresh inverters' AC output; null when none has fresh data. */
export function powerNow(devices: readonly LatestDevice[]): number | null {
  return round(
    sum(
      devices.filter((d) => d.kind === 'inverter' && d.fresh),
      (v) => num(v.activePower),
    ),
  );
}
