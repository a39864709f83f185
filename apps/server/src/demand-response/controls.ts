/**
 * How a storage inverter family takes a dispatch: which setting group carries its charge and
 * discharge limits and the values that make it discharge up to a power, charge up to a power, or
 * hold (neither export nor grid-charge). The values go through the protocol's own check
 * (`validateSettingValues`) like any remote setting; numbers are first snapped to the field's
 * step and limits, so a dispatch never asks for what the device cannot take.
 *
 * - Hybrid inverters (`dyStore`, `dyStore3p`, group workMode): discharge = work mode "Export
 *   first" with the max sell power at the target; charge = energy pattern "Battery first" with
 *   no export; hold = no export.
 * - The PCS (`gy`, group pcsWorkModel): discharge = "Selling first" with the active power limit
 *   at the target's share of rated power; charge = max charge power at the target, charging
 *   from the grid too; hold = both limits at zero.
 */
import { type FieldDefinition, protocolPlan, stepOf } from '@sunfleet/protocols';

export type ControlAction = 'discharge' | 'charge' | 'hold';

interface Control {
  group: string;
  values(action: ControlAction, targetW: number, ratedW: number): Record<string, number>;
}

const hybrid: Control = {
  group: 'workMode',
  values: (action, w): Record<string, number> =>
    action === 'discharge'
      ? { workMode: 0, maxSellPower: w }
      : action === 'charge'
        ? { energyPattern: 0, maxSellPower: 0 }
        : { maxSellPower: 0 },
};

const pcs: Control = {
  group: 'pcsWorkModel',
  values: (action, w, rated): Record<string, number> =>
    action === 'discharge'
      ? { workMode: 0, activePowerLimit: rated > 0 ? (100 * w) / rated : 0 }
      : action === 'charge'
        ? { maxChargePower: w, chargeSource: 1 }
        : { activePowerLimit: 0, maxChargePower: 0 },
};

const controls: Record<string, Control> = {
  'sunfleet-hybrid-1p': hybrid,
  'sunfleet-hybrid-3p': hybrid,
  'sunfleet-pcs-3p': pcs,
};

/** Whether a device of this protocol can take part (a storage inverter the VEN can command). */
export const isStorageCapable = (protocolId: string) => Object.hasOwn(controls, protocolId);

export const controlGroup = (protocolId: string) => controls[protocolId]?.group ?? null;

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

/** The setting values of an action on this device, snapped to its fields; null for a device that cannot take part. */
export function controlValues(
  protocolId: string,
  action: ControlAction,
  targetW: number,
  ratedW: number,
): { group: string; values: Record<string, number> } | null {
  const control = controls[protocolId];
  const plan = protocolPlan(protocolId);
  if (!control || !plan) return null;
  const raw = control.values(action, Math.max(0, targetW), ratedW);
  const values = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, snap(plan.field(k), v)]));
  return { group: control.group, values };
}

/** What a device's nameplate says it can do, for the enrolment form; null where unknown. */
export function nameplate(protocolId: string): { manufacturer: string; model: string } | null {
  const plan = protocolPlan(protocolId);
  if (!plan || !isStorageCapable(protocolId)) return null;
  return { manufacturer: 'Sunfleet', model: plan.definition.name.en };
}
