/**
 * The grid, meter, battery, eps and load groups of an inverter (`inverter/{kind}/{sn}/…`),
 * recognised by field keys so any protocol that names its fields the same way has them:
 * - grid: the exchange with the grid (`gridActivePower` or `gridPower`), its phases and counters;
 * - meter: what an external meter tells the inverter (`meter*` fields, the grid import and
 *   export counters);
 * - battery: `battery*` fields; load: `load*` fields; eps: the backup output (`eps*`, `backup*`).
 * Signs are normalised: grid and meter + import, battery + discharge.
 */
import type { devicesApi } from '@sunfleet/contracts';
import type { FieldDefinition, ProtocolPlan } from '@sunfleet/protocols';
import type { Static } from 'typebox';
import type { EnergyColumn } from '../../energy/day-rollups.ts';
import { firstNum, kwhToWh, num, type Values } from './fields.ts';
import { inConvention, signedPower } from './signed-power.ts';

type EnergyKey = Static<typeof devicesApi.GroupEnergy>['key'];

export interface GroupSpec {
  /** The group's realtime fields. */
  fields: (f: FieldDefinition) => boolean;
  /** Whether the protocol has the group. */
  present: (plan: ProtocolPlan) => boolean;
  /** Power now, normalised sign. */
  power: (values: Values) => number | null;
  /** Phase field prefixes, if the group has phases. */
  phasePrefixes: readonly string[];
  /** Energy today (device_day column) and lifetime (counter field keys, kWh). */
  energy: readonly { key: EnergyKey; column: EnergyColumn; counters: readonly string[] }[];
  /** Day chart parameters (chartable keys, those the protocol has). */
  dayParams: readonly string[];
}

/** Grid power fields in order of preference, with their sign against the API's + import (signed-power.ts). */
const GRID_POWER = ['gridActivePower', 'gridPower', 'meterActivePower', 'meterPower'].map((key) => ({
  key,
  sign: signedPower.inverter[key]!.sign,
}));
function gridPower(values: Values): number | null {
  for (const { key, sign } of GRID_POWER) {
    const v = num(values[key]);
    if (v !== null) return inConvention(v, sign);
  }
  return null;
}

const realtime = (f: FieldDefinition) => f.group === 'realtime';
const startsWith =
  (...prefixes: string[]) =>
  (f: FieldDefinition) =>
    realtime(f) && prefixes.some((p) => f.key.startsWith(p));
const hasKey = (plan: ProtocolPlan, keys: readonly string[]) => keys.some((k) => plan.field(k)?.group === 'realtime');
const hasPrefix = (plan: ProtocolPlan, prefixes: readonly string[]) =>
  plan.definition.fields.some((f) => realtime(f) && prefixes.some((p) => f.key.startsWith(p)));

const gridEnergy = [
  { key: 'import', column: 'grid_import_wh', counters: ['gridImportEnergyTotal', 'meterImportEnergy'] },
  { key: 'export', column: 'grid_export_wh', counters: ['gridExportEnergyTotal', 'meterExportEnergy'] },
] as const;

export const groups: Record<devicesApi.InverterGroupName, GroupSpec> = {
  grid: {
    fields: startsWith('grid'),
    present: (plan) => hasKey(plan, ['gridActivePower', 'gridPower']),
    power: gridPower,
    phasePrefixes: ['grid'],
    energy: gridEnergy,
    dayParams: ['gridActivePower', 'gridPower', 'gridVoltageL1', 'gridVoltageL2', 'gridVoltageL3', 'gridFrequency'],
  },
  meter: {
    fields: (f) => startsWith('meter')(f) || /^grid(Import|Export)Energy/.test(f.key),
    present: (plan) => hasPrefix(plan, ['meter']) || hasKey(plan, ['gridImportEnergyTotal', 'gridExportEnergyTotal']),
    power: gridPower,
    phasePrefixes: ['meter'],
    energy: gridEnergy,
    dayParams: ['meterActivePower', 'meterPower', 'gridActivePower', 'gridImportEnergyTotal', 'gridExportEnergyTotal'],
  },
  battery: {
    fields: startsWith('battery'),
    present: (plan) => hasKey(plan, ['batteryPower', 'batterySoc']),
    power: (v) => num(v.batteryPower),
    phasePrefixes: [],
    energy: [
      { key: 'charge', column: 'charge_wh', counters: ['batteryChargeEnergyTotal'] },
      { key: 'discharge', column: 'discharge_wh', counters: ['batteryDischargeEnergyTotal'] },
    ],
    dayParams: ['batteryPower', 'batterySoc', 'batteryVoltage', 'batteryCurrent', 'batteryTemperature'],
  },
  eps: {
    fields: startsWith('eps', 'backup'),
    present: (plan) => hasPrefix(plan, ['eps', 'backup']),
    power: (v) => firstNum(v, ['epsPower', 'epsActivePower', 'backupPower', 'backupActivePower']),
    phasePrefixes: ['eps', 'backup'],
    energy: [{ key: 'consumption', column: 'load_wh', counters: ['epsEnergyTotal', 'backupEnergyTotal'] }],
    dayParams: ['epsPower', 'epsActivePower', 'backupPower', 'epsVoltageL1', 'epsVoltageL2', 'epsVoltageL3'],
  },
  load: {
    fields: startsWith('load'),
    present: (plan) => hasKey(plan, ['loadPower']),
    power: (v) => num(v.loadPower),
    phasePrefixes: ['load'],
    energy: [{ key: 'consumption', column: 'load_wh', counters: ['loadEnergyTotal'] }],
    dayParams: ['loadPower', 'loadPowerL1', 'loadPowerL2', 'loadPowerL3'],
  },
};

export function groupsPresent(plan: ProtocolPlan | undefined): Record<devicesApi.InverterGroupName, boolean> {
  return {
    grid: !!plan && groups.grid.present(plan),
    meter: !!plan && groups.meter.present(plan),
    battery: !!plan && groups.battery.present(plan),
    eps: !!plan && groups.eps.present(plan),
    load: !!plan && groups.load.present(plan),
  };
}

/** A lifetime counter of the group, Wh. */
export const counterWh = (values: Values, keys: readonly string[]) => kwhToWh(firstNum(values, keys));
