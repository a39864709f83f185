// The Deye-family setting groups against the Deye register maps they come from (the shared
// Solarman maps, read with the yaml package): same register, scale, signedness, options,
// limits and step, and the same engineering value decoded from the same raw register.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FieldDefinition, ProtocolDefinition } from '../definition.ts';
import { readYaml, sharedDataDir } from '../fixtures/shared-data.ts';
import { compile } from '../plan.ts';
import { stepOf } from '../settings.ts';
import { hybridInverter1p, hybridInverter3p } from './hybrid-inverter.ts';
import { microInverter } from './micro-inverter.ts';

interface YamlItem {
  name: string;
  rule?: number;
  registers?: number[];
  scale?: number | number[];
  platform?: string;
  range?: { min?: number | number[]; max?: number | number[] };
  configurable?: { min?: number | number[]; max?: number | number[]; step?: number | number[] };
  lookup?: { key?: number | number[]; value: string }[];
  value?: { on?: number; off?: number };
}

function yamlItems(name: string): YamlItem[] {
  const map = readYaml(path.join(sharedDataDir(), 'solarman-maps', `${name}.yaml`)) as { parameters: { items: YamlItem[] }[] };
  return map.parameters.flatMap((g) => g.items);
}

const storeKeys: Record<string, string> = {
  modbusAddress: 'Device Modbus Address',
  selfCheckTime: 'Self-check time',
  powerSwitch: '',
  batteryType: 'Battery Control Mode',
  batteryEqualizationVoltage: 'Battery Equalization',
  batteryAbsorptionVoltage: 'Battery Absorption',
  batteryFloatVoltage: 'Battery Float',
  batteryCapacity: 'Battery Capacity',
  batteryEmptyVoltage: 'Battery Empty',
  maxChargeCurrent: 'Battery Max Charging Current',
  maxDischargeCurrent: 'Battery Max Discharging Current',
  batteryOperationMode: 'Battery Operation Mode',
  batteryShutdownSoc: 'Battery Shutdown SOC',
  batteryRestartSoc: 'Battery Restart SOC',
  batteryLowSoc: 'Battery Low SOC',
  batteryShutdownVoltage: 'Battery Shutdown Voltage',
  batteryRestartVoltage: 'Battery Restart Voltage',
  batteryLowVoltage: 'Battery Low Voltage',
  energyPattern: 'Energy Pattern',
  workMode: 'Work Mode',
  maxSellPower: 'Export Surplus Power',
  solarSell: 'Export Surplus',
  timeOfUse: 'Time of Use',
  activePowerLimit: 'PV Power',
  ...Object.fromEntries(
    [1, 2, 3, 4, 5, 6].flatMap((i) => [
      [`program${i}Time`, `Program ${i} Time`],
      [`program${i}Power`, `Program ${i} Power`],
      [`program${i}Soc`, `Program ${i} SOC`],
      [`program${i}Charging`, `Program ${i} Charging`],
    ]),
  ),
  gridChargeStartVoltage: 'Battery Grid Charging Start Voltage',
  gridChargeStartSoc: 'Battery Grid Charging Start',
  gridChargeCurrent: 'Battery Grid Charging Current',
  gridCharge: 'Battery Grid Charging',
  gridReconnectTime: 'Grid reconnection time',
  gridFrequencySetting: 'Grid frequency',
  gridVoltageHigh: 'Grid voltage protection - high',
  gridVoltageLow: 'Grid voltage protection - low',
  gridFrequencyHigh: 'Grid frequency protection - high',
  gridFrequencyLow: 'Grid frequency protection - low',
  peakShavingPower: 'Grid Peak shaving',
  ioMode: 'IO Mode',
  smartLoadOffVoltage: 'SmartLoad Off Voltage',
  smartLoadOffSoc: 'SmartLoad Off',
  smartLoadOnVoltage: 'SmartLoad On Voltage',
  smartLoadOnSoc: 'SmartLoad On',
  zeroExportPower: 'Zero Export power',
  batteryEqualizationCycle: 'Battery Equalization Cycle',
  batteryEqualizationTime: 'Battery Equalization Time',
  batteryTempCompensation: 'Battery Temperature Compensation',
  batteryResistance: 'Battery Resistance',
  batteryChargeEfficiency: 'Battery Charging efficiency',
  generatorOperatingTime: 'Generator Operating Time',
  generatorCoolingTime: 'Generator Cooling Time',
  generatorChargeStartVoltage: 'Battery Generator Charging Start Voltage',
  generatorChargeStartSoc: 'Battery Generator Charging Start',
  generatorChargeCurrent: 'Battery Generator Charging Current',
  generatorMinPvPower: 'Generator Min PV Power',
  chargingSignal: 'Charging Signal',
  batteryBmsType: 'Battery BMS Type',
};

const threePhaseKeys: Record<string, string> = {
  ...storeKeys,
  gridVoltageSetting: 'Grid Voltage',
  maxExportPower: 'Grid Max Export power',
  maxImportPower: 'Grid Max Import power',
  batteryWakeUp: 'Battery Wake Up',
  generatorInput: 'Generator',
  offGrid: 'Off Grid',
  exportAsymmetry: 'Export Asymmetry',
  mpptMultiScan: 'MPPT multi-point scanning',
};

const gridKeys: Record<string, string> = {
  selfCheckTime: 'Self-check time',
  powerSwitch: '',
  gridVoltageHigh: 'Grid Voltage Upper Limit',
  gridVoltageLow: 'Grid Voltage Lower Limit',
  gridFrequencyHigh: 'Grid Frequency Upper Limit',
  gridFrequencyLow: 'Grid Frequency Lower Limit',
  overFrequencyDeratingStart: 'Over-Frequency Load Reduction Start',
  overFrequencyDerating: 'Over-Frequency Load Reduction',
  powerFactorSetpoint: 'Power Factor Regulation',
  activePowerLimit: 'Active Power Regulation',
  islandProtection: 'Island Protection',
  softStart: 'Soft Start',
  gfdi: 'GFDI',
  overFrequencyDeratingEnabled: 'Over-Frequency Load Reduction',
  riso: 'RISO',
  eeprom: 'EEPROM',
};

/** Setting fields the Deye maps do not have (their date registers pack two values each). */
const notInMaps = new Set([
  'timeYear',
  'timeMonth',
  'timeDay',
  'timeHour',
  'timeMinute',
  'timeSecond',
  'factoryReset',
  'energyReset',
  'arcDetection',
  'arcSensitivity',
  'arcFaultClear',
]);

/**
 * Where the maps contradict themselves and the definition takes one side:
 * - the micro-inverter's power factor: unsigned 0..2000 raw yet configurable −1..1: signed thousandths;
 * - its active power: no scale, 0..1200 raw, configurable 0..120 % in steps of 0.1: tenths of a percent;
 * - zero export power: configurable from −20 W on a register that holds no negative number: from 0;
 * - temperature compensation: a step of 0.1 on a register without a scale: whole mV/°C.
 */
const deviations: Record<string, readonly ('dataType' | 'scale' | 'min' | 'step')[]> = {
  powerFactorSetpoint: ['dataType'],
  activePowerLimit: ['scale'],
  zeroExportPower: ['min'],
  batteryTempCompensation: ['step'],
};

const pick = <T>(value: T | T[] | undefined, variant: number): T | undefined =>
  Array.isArray(value) ? (value[variant] ?? value[0]) : value;

interface Case {
  definition: ProtocolDefinition;
  map: string;
  keys: Record<string, string>;
  /** Which of a per-variant list (low-voltage, high-voltage battery) the definition follows. */
  variant: number;
  /** Keys the map must cover (others may come from a sibling map). */
  only?: readonly string[];
}

const cases: Case[] = [
  { definition: hybridInverter1p, map: 'deye_hybrid', keys: storeKeys, variant: 0 },
  { definition: hybridInverter3p, map: 'deye_p3', keys: threePhaseKeys, variant: 1 },
  { definition: microInverter, map: 'deye_micro', keys: gridKeys, variant: 0 },
  { definition: microInverter, map: 'deye_string', keys: gridKeys, variant: 0, only: ['selfCheckTime', 'powerSwitch'] },
];

function deviates(field: FieldDefinition, what: 'dataType' | 'scale' | 'min' | 'step'): boolean {
  return (deviations[field.key] ?? []).includes(what) && !(field.key === 'activePowerLimit' && field.unit !== '%');
}

describe('Deye-family setting fields against the Deye register maps', () => {
  for (const c of cases) {
    const items = yamlItems(c.map);
    const settingFields = c.definition.fields.filter((f) => f.group.startsWith('setting:'));
    const checked = settingFields.filter((f) => f.key in c.keys && (!c.only || c.only.includes(f.key)));
    const itemOf = (f: FieldDefinition) =>
      items.find((i) => i.name === c.keys[f.key] && i.registers?.length === 1 && i.registers[0] === f.address);

    describe(`${c.definition.id} ↔ ${c.map}.yaml`, () => {
      it('maps every setting field to a register of the map, or lists it as not there', () => {
        if (c.only) expect(checked.map((f) => f.key).sort()).toEqual([...c.only].sort());
        else for (const f of settingFields) expect(f.key in c.keys || notInMaps.has(f.key), f.key).toBe(true);
        for (const f of checked) expect(itemOf(f), `${f.key} at 0x${f.address.toString(16)}`).toBeDefined();
      });

      it('has the map’s scale, signedness, options, limits and step', () => {
        for (const f of checked) {
          const item = itemOf(f)!;
          if (!deviates(f, 'scale')) expect(f.scale ?? 1, `${f.key} scale`).toBe(pick(item.scale, c.variant) ?? 1);
          if (!deviates(f, 'dataType')) {
            expect(f.dataType, `${f.key} type`).toBe(item.rule === 2 ? 's16' : f.enum ? 'enum' : 'u16');
          }
          if (item.lookup?.length) {
            const keys = item.lookup.flatMap((l) => (Array.isArray(l.key) ? l.key : typeof l.key === 'number' ? [l.key] : []));
            for (const k of keys) expect(f.enum?.[k], `${f.key} option ${k}`).toBeDefined();
          } else if (item.platform === 'switch') {
            const on = item.value?.on ?? 1;
            const off = item.value?.off ?? 0;
            expect(
              Object.keys(f.enum ?? {})
                .map(Number)
                .sort(),
              `${f.key} switch`,
            ).toEqual([on, off].sort());
          }
          if (item.platform === 'number') {
            const scale = pick(item.scale, c.variant) ?? 1;
            const rawMin = pick(item.range?.min, c.variant);
            const rawMax = pick(item.range?.max, c.variant);
            const min = pick(item.configurable?.min, c.variant) ?? (rawMin === undefined ? undefined : rawMin * scale);
            const max = pick(item.configurable?.max, c.variant) ?? (rawMax === undefined ? undefined : rawMax * scale);
            if (min !== undefined && !deviates(f, 'min')) expect(f.min, `${f.key} min`).toBeCloseTo(min, 9);
            if (max !== undefined) expect(f.max, `${f.key} max`).toBeCloseTo(max, 9);
            const step = pick(item.configurable?.step, c.variant);
            if (step !== undefined && !deviates(f, 'step')) expect(stepOf(f), `${f.key} step`).toBeCloseTo(step, 9);
          }
        }
      });

      it('decodes the same raw register to the value the map gives', () => {
        const plan = compile(c.definition);
        for (const f of checked) {
          const item = itemOf(f)!;
          if (deviates(f, 'scale') || deviates(f, 'dataType')) continue;
          const scale = pick(item.scale, c.variant) ?? 1;
          const raw = f.enum ? Number(Object.keys(f.enum)[0]) : item.rule === 2 ? 0xfff6 : 1234;
          const expected = f.enum ? raw : (item.rule === 2 ? raw - 0x10000 : raw) * scale;
          const { values } = plan.decode([{ functionCode: 3, address: f.address, registers: [raw] }]);
          expect(values[f.key], f.key).toBeCloseTo(expected, 9);
        }
      });
    });
  }
});
