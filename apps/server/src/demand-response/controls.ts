/**
 * How a storage family takes a dispatch: the setting groups an event may write on it (all read
 * before its first write, all restored after) and, per action, the values that put its battery
 * into forced discharge or forced charge at the target power, or hold it at 0 W. The values go
 * through the protocol's own check (`validateSettingValues`) like any remote setting; numbers
 * are first snapped to the field's step and limits, so a dispatch never asks for what the
 * device cannot take.
 *
 * - Deye hybrids (`dyStore`, `dyStore3p`): time of use on every day, all six program slots
 *   covering the day. Discharge = work mode "Export first" with selling on and the sell limit
 *   at least the rated power (PV is not curtailed by it), slot power = target, slot SOC = the
 *   reserve, no charging. Charge = slot power = target, slot SOC = the ceiling, charging from
 *   Grid, with grid charge on (group gridInput) at its highest current, so the slot power is
 *   the limit. Hold = slot power 0.
 * - The PCS (`gy`): SunSpec model 124's storage control in its battery settings (setBattery).
 *   Discharge = StorCtl_Mod "discharge" with OutWRte = target as a share of WChaMax (= rated
 *   power), work mode "Selling first" so it may export; charge = "charge" with InWRte, from the
 *   grid; hold = both directions controlled at 0 %. No revert time: the restore ends it (a
 *   lapse would end an interval the VTN lengthened).
 * - A family with a battery but no such settings (the battery pack: its BMS registers have no
 *   power control; its inverter takes part) cannot take part.
 */
import { type FieldDefinition, protocolPlan, protocols, settingGroupFields, stepOf } from '@sunfleet/protocols';

export type ControlAction = 'discharge' | 'charge' | 'hold';

/** Below this state of charge (%) a battery is not discharged; at or above FULL_SOC not charged. */
export const RESERVE_SOC = 20;
export const FULL_SOC = 98;

/** The values per setting group. */
export type GroupValues = Record<string, Record<string, number>>;

interface Control {
  /** Every group an event may write: all are read before the first write and restored after. */
  groups: readonly string[];
  /** `before`: the device's values read before the event's first write (flat, by field). */
  values(action: ControlAction, targetW: number, ratedW: number, before: Record<string, number>): GroupValues;
}

const SLOT_STARTS = [0, 400, 800, 1200, 1600, 2000];
/** Six time-of-use program slots covering the day, each with this power, SOC and charging source. */
const slots = (powerW: number, soc: number, charging: 0 | 1): Record<string, number> =>
  Object.fromEntries(
    SLOT_STARTS.flatMap((time, i) => [
      [`program${i + 1}Time`, time],
      [`program${i + 1}Power`, powerW],
      [`program${i + 1}Soc`, soc],
      [`program${i + 1}Charging`, charging],
    ]),
  );
const EVERY_DAY = 255;

const deyeHybrid = (protocolId: string): Control => ({
  groups: ['workMode', 'gridInput'],
  values: (action, w, rated, before): GroupValues => {
    if (action === 'discharge')
      return {
        workMode: {
          timeOfUse: EVERY_DAY,
          workMode: 0,
          solarSell: 1,
          maxSellPower: Math.max(before.maxSellPower ?? 0, rated, w),
          ...slots(w, RESERVE_SOC, 0),
        },
      };
    if (action === 'charge')
      return {
        workMode: { timeOfUse: EVERY_DAY, ...slots(w, FULL_SOC, 1) },
        gridInput: { gridCharge: 1, gridChargeCurrent: fieldOf(protocolId, 'gridChargeCurrent')?.max ?? 0 },
      };
    return { workMode: { timeOfUse: EVERY_DAY, ...slots(0, RESERVE_SOC, 0) } };
  },
});

const pcs: Control = {
  groups: ['setBattery', 'pcsWorkModel'],
  values: (action, w, rated): GroupValues => {
    const base = rated > 0 ? rated : w;
    const share = base > 0 ? (100 * w) / base : 0;
    if (action === 'discharge')
      return {
        setBattery: { storageMaxPower: base, storageControl: 2, dischargeRate: share, rateRevertTime: 0 },
        pcsWorkModel: { workMode: 0 },
      };
    if (action === 'charge')
      return {
        setBattery: { storageMaxPower: base, storageControl: 1, chargeRate: share, chargeFromGrid: 1, rateRevertTime: 0 },
      };
    return { setBattery: { storageControl: 3, chargeRate: 0, dischargeRate: 0, rateRevertTime: 0 } };
  },
};

const controls: Record<string, Control> = {
  'sunfleet-hybrid-1p': deyeHybrid('sunfleet-hybrid-1p'),
  'sunfleet-hybrid-3p': deyeHybrid('sunfleet-hybrid-3p'),
  'sunfleet-pcs-3p': pcs,
};

function fieldOf(protocolId: string, key: string): FieldDefinition | undefined {
  return protocolPlan(protocolId)?.field(key);
}

/** Whether a device of this protocol can take part (a storage device the VEN can force). */
export const isStorageCapable = (protocolId: string) => Object.hasOwn(controls, protocolId);

/** The groups an event may write on a device of this protocol, read before the first write; null when it cannot take part. */
export const controlGroups = (protocolId: string): readonly string[] | null => controls[protocolId]?.groups ?? null;

/** Whether the protocol's device holds a battery (a state of charge in its readings). */
const hasBattery = (protocolId: string) => {
  const plan = protocolPlan(protocolId);
  return !!plan && (plan.definition.kind === 'battery' || plan.field('batterySoc') !== undefined);
};

/** The protocols of devices with a battery: the ones that can take part and the ones that cannot. */
export const batteryProtocols = (): string[] => Object.keys(protocols).filter(hasBattery);

/** Why a device of this protocol cannot take part (shown at enrolment); null when it can. */
export type ExclusionReason = 'noPowerControl' | 'noBattery';
export function cannotTakePart(protocolId: string): ExclusionReason | null {
  if (isStorageCapable(protocolId)) return null;
  return hasBattery(protocolId) ? 'noPowerControl' : 'noBattery';
}

function snap(field: FieldDefinition | undefined, value: number): number {
  if (!field) return value;
  let v = value;
  if (field.max !== undefined) v = Math.min(v, field.max);
  if (field.min !== undefined) v = Math.max(v, field.min);
  const step = stepOf(field);
  if (step) {
    const base = field.min ?? 0;
    v = base + Math.floor((v - base) / step + 1e-9) * step;
    v = Number(v.toFixed(6));
  }
  return v;
}

/**
 * The setting values of an action on this device by group, snapped to its fields; null for a
 * device that cannot take part. `before`: the values read before the event's first write.
 */
export function controlValues(
  protocolId: string,
  action: ControlAction,
  targetW: number,
  ratedW: number,
  before: Record<string, number> = {},
): GroupValues | null {
  const control = controls[protocolId];
  const plan = protocolPlan(protocolId);
  if (!control || !plan) return null;
  const raw = control.values(action, Math.max(0, targetW), ratedW, before);
  return Object.fromEntries(
    Object.entries(raw).map(([group, values]) => [
      group,
      Object.fromEntries(Object.entries(values).map(([k, v]) => [k, snap(plan.field(k), v)])),
    ]),
  );
}

/** The group of each field of these groups (field keys are unique within a protocol). */
export function groupOfFields(protocolId: string, groups: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const g of groups) for (const f of settingGroupFields(protocolId, g) ?? []) out.set(f.key, g);
  return out;
}

/** What a device's nameplate says it can do, for the enrolment form; null where unknown. */
export function nameplate(protocolId: string): { manufacturer: string; model: string } | null {
  const plan = protocolPlan(protocolId);
  if (!plan || !hasBattery(protocolId)) return null;
  return { manufacturer: 'Sunfleet', model: plan.definition.name.en };
}
