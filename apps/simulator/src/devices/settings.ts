// A virtual device's settings as it leaves the factory: every writable setting of its protocol
// gets a value its field accepts — the device's own where it gives one, the grid's usual trip
// limits, else the middle of the field's range — so a remote read shows a complete group and
// a remote write of any one field is checked against a plausible rest.
import {
  type FieldDefinition,
  type FieldValue,
  type InputValue,
  type ProtocolPlan,
  powerSwitchValues,
  stepOf,
} from '@sunfleet/protocols';
import type { GridSupply } from './device.ts';

/** Trip and reconnection limits around the grid's nominal voltage and frequency, by the keys the protocols use. */
export function gridLimits(grid: GridSupply): Record<string, number> {
  const v = grid.voltage;
  const hz = grid.hz;
  return {
    gridVoltageHigh: v * 1.15,
    gridVoltageLow: v * 0.85,
    gridFrequencyHigh: hz + 1.5,
    gridFrequencyLow: hz - 2.5,
    overVoltageTrip: v * 1.1,
    underVoltageTrip: v * 0.85,
    overFrequencyTrip: hz + 1.5,
    underFrequencyTrip: hz - 2.5,
    overVoltage1: v * 1.1,
    overVoltage2: v * 1.15,
    underVoltage1: v * 0.85,
    underVoltage2: v * 0.5,
    overVoltage10min: v * 1.1,
    overFrequency: hz + 1.5,
    underFrequency: hz - 2.5,
    reconnectVoltageHigh: v * 1.1,
    reconnectVoltageLow: v * 0.85,
    reconnectFrequencyHigh: hz + 0.1,
    reconnectFrequencyLow: hz - 0.5,
    overFrequencyDeratingStart: hz + 0.2,
    freqWattStart: hz + 0.2,
    freqWattStop: hz + 1.5,
    gridFrequencySetting: hz === 50 ? 0 : 1,
  };
}

/** Values the device starts with: `given` first, then the grid limits, then the middle of each range. */
export function initialSettings(
  plan: ProtocolPlan,
  grid: GridSupply,
  given: Readonly<Record<string, InputValue>> = {},
): Record<string, InputValue> {
  const limits = gridLimits(grid);
  const power = powerSwitchValues(plan.definition.id);
  const out: Record<string, InputValue> = {};
  for (const field of plan.definition.fields) {
    if (!field.group.startsWith('setting:') || field.access !== 'rw') continue;
    const value = given[field.key] ?? (field.key === 'powerSwitch' && power ? power.on : limits[field.key]);
    out[field.key] = typeof value === 'number' ? accepted(field, value) : (value ?? middle(field));
  }
  return out;
}

/** The nearest value the field accepts: an option, or within its limits on its step. */
export function accepted(field: FieldDefinition, value: number): number {
  if (field.enum) {
    const options = Object.keys(field.enum).map(Number);
    return options.includes(value) ? value : options[0]!;
  }
  const min = field.min ?? Number.NEGATIVE_INFINITY;
  const max = field.max ?? Number.POSITIVE_INFINITY;
  const step = stepOf(field);
  const clamped = Math.min(max, Math.max(min, value));
  if (!step) return clamped;
  const base = Number.isFinite(min) ? min : 0;
  const snapped = base + Math.round((clamped - base) / step) * step;
  // Snap back inside when rounding crossed an edge, and drop binary noise (0.1 steps).
  const inside = snapped > max ? snapped - step : snapped < min ? snapped + step : snapped;
  return Number(inside.toFixed(6));
}

function middle(field: FieldDefinition): number {
  if (field.enum) return Number(Object.keys(field.enum)[0]);
  return accepted(field, ((field.min ?? 0) + (field.max ?? 0)) / 2);
}

/** Whether the power switch setting leaves the device on (any value but the protocol's "off"). */
export function switchedOn(plan: ProtocolPlan, values: Readonly<Record<string, FieldValue>>): boolean {
  const power = powerSwitchValues(plan.definition.id);
  return !power || values.powerSwitch !== power.off;
}

/**
 * The share of rated power the active power limit allows (1: no limit): a limit in % of rated
 * power or in W, ignored while its enable setting (where the protocol has one) is off.
 */
export function powerLimitFraction(plan: ProtocolPlan, values: Readonly<Record<string, FieldValue>>, ratedW: number): number {
  const limit = values.activePowerLimit;
  const field = plan.field('activePowerLimit');
  if (typeof limit !== 'number' || !field || values.activePowerLimitEnabled === 0) return 1;
  return Math.max(0, field.unit === '%' ? limit / 100 : limit / ratedW);
}
