// A small writer for register maps: fields are added in register order and the address moves
// on by each field's size, so a definition reads like the vendor's register table.
//
// The project's own maps follow SunSpec's "not available" convention: a number whose raw value
// is the type's sentinel (0xFFFF u16, 0x8000 s16, 0xFFFFFFFF u32, 0x80000000 s32, all-ones
// enums and bitfields, NaN floats) decodes as null, never as a number. A field may override it
// with its own `notImplemented`.
import type {
  BitDefinition,
  BitLevel,
  DataType,
  FieldDefinition,
  FieldGroup,
  FunctionCode,
  LocalizedText,
} from '../definition.ts';

export type FieldOptions = Partial<Omit<FieldDefinition, 'key' | 'name' | 'functionCode' | 'address' | 'dataType' | 'group'>>;

const sizes: Partial<Record<DataType, number>> = {
  u16: 1,
  s16: 1,
  enum: 1,
  bitfield: 1,
  u32: 2,
  s32: 2,
  float32: 2,
  u64: 4,
  s64: 4,
  float64: 4,
};

export class RegisterMap {
  readonly fields: FieldDefinition[] = [];
  private functionCode: FunctionCode = 4;
  private address = 0;
  private group: FieldGroup = 'realtime';

  /** Continue at `address` of the input (4) or holding (3) registers, in `group`. */
  at(functionCode: FunctionCode, address: number, group: FieldGroup): this {
    this.functionCode = functionCode;
    this.address = address;
    this.group = group;
    return this;
  }

  add(key: string, name: readonly [en: string, es: string], dataType: DataType, options: FieldOptions = {}): this {
    const count = options.count ?? sizes[dataType] ?? 1;
    this.fields.push({
      key,
      name: { en: name[0], es: name[1] },
      functionCode: this.functionCode,
      address: this.address,
      dataType,
      group: this.group,
      ...(dataType === 'string' || dataType === 'hex' ? {} : { notImplemented: 'sunspec' as const }),
      ...options,
      count,
    });
    this.address += count;
    return this;
  }

  /** A writable holding register with its limits. */
  setting(key: string, name: readonly [en: string, es: string], dataType: DataType, options: FieldOptions = {}): this {
    return this.add(key, name, dataType, { access: 'rw', ...options });
  }

  skip(registers: number): this {
    this.address += registers;
    return this;
  }
}

export const text = (en: string, es: string): LocalizedText => ({ en, es });

/** Options of an enum, in register value order starting at 0. */
export function options(...labels: readonly (readonly [en: string, es: string])[]): Record<number, LocalizedText> {
  return Object.fromEntries(labels.map(([en, es], value) => [value, { en, es }]));
}

/** Bit meanings: [bit, code, en, es, level (default: the given level)]. */
export function bits(
  level: BitLevel,
  entries: readonly (readonly [bit: number, code: string, en: string, es: string, level?: BitLevel])[],
): Record<number, BitDefinition> {
  return Object.fromEntries(entries.map(([bit, code, en, es, own]) => [bit, { code, level: own ?? level, en, es }]));
}

/** The PV and grid protection faults of the string and hybrid inverters, bits 0–7 of their fault register. */
export const pvGridProtectionFaults = [
  [0, 'pvOvervoltage', 'PV input overvoltage', 'Sobretensión de entrada FV'],
  [1, 'pvInsulation', 'PV insulation resistance low', 'Resistencia de aislamiento FV baja'],
  [2, 'leakageCurrent', 'Leakage current too high', 'Corriente de fuga excesiva'],
  [3, 'gridOvervoltage', 'Grid overvoltage', 'Sobretensión de red'],
  [4, 'gridUndervoltage', 'Grid undervoltage', 'Subtensión de red'],
  [5, 'gridOverfrequency', 'Grid overfrequency', 'Sobrefrecuencia de red'],
  [6, 'gridUnderfrequency', 'Grid underfrequency', 'Subfrecuencia de red'],
  [7, 'islanding', 'Islanding detected', 'Funcionamiento en isla detectado'],
] as const;

export const offOn = options(['Off', 'Apagado'], ['On', 'Encendido']);
export const disabledEnabled = options(['Disabled', 'Desactivado'], ['Enabled', 'Activado']);

/** Inverter device type register value → name. Any other non-zero value is a three-phase inverter. */
export const inverterDeviceTypes: Record<number, LocalizedText> = {
  1: text('Selling first', 'Prioridad de venta'),
  10: text('Selling first', 'Prioridad de venta'),
  11: text('Selling first', 'Prioridad de venta'),
  2: text('Single-phase', 'Monofásico'),
  3: text('Micro-inverter', 'Microinversor'),
  94: text('Three-phase high-voltage', 'Trifásico de alta tensión'),
  21: text('Single-phase high-voltage', 'Monofásico de alta tensión'),
  93: text('Three-phase low-voltage', 'Trifásico de baja tensión'),
  22: text('Single-phase (other)', 'Monofásico (otro)'),
};

export const runningStates = options(
  ['Standby', 'En espera'],
  ['Self-check', 'Autocomprobación'],
  ['Normal', 'Normal'],
  ['Alarm', 'Alarma'],
  ['Fault', 'Fallo'],
  ['Off', 'Apagado'],
);

/** Year, month, day, hour, minute, second as six writable registers. */
export function systemTime(map: RegisterMap): RegisterMap {
  return map
    .setting('timeYear', ['Year', 'Año'], 'u16', { min: 2000, max: 2099 })
    .setting('timeMonth', ['Month', 'Mes'], 'u16', { min: 1, max: 12 })
    .setting('timeDay', ['Day', 'Día'], 'u16', { min: 1, max: 31 })
    .setting('timeHour', ['Hour', 'Hora'], 'u16', { min: 0, max: 23 })
    .setting('timeMinute', ['Minute', 'Minuto'], 'u16', { min: 0, max: 59 })
    .setting('timeSecond', ['Second', 'Segundo'], 'u16', { min: 0, max: 59 });
}

/** PV inputs 1..n: voltage (0.1 V), current (0.1 A), power (W). */
export function pvInputs(map: RegisterMap, inputs: number): RegisterMap {
  for (let i = 1; i <= inputs; i++) {
    map
      .add(`pv${i}Voltage`, [`PV${i} voltage`, `Tensión FV${i}`], 'u16', { unit: 'V', scale: 0.1 })
      .add(`pv${i}Current`, [`PV${i} current`, `Corriente FV${i}`], 'u16', { unit: 'A', scale: 0.1 })
      .add(`pv${i}Power`, [`PV${i} power`, `Potencia FV${i}`], 'u16', { unit: 'W' });
  }
  return map;
}

/** Grid phases L1..Ln: three voltage registers (0.1 V), then three current registers (0.01 A, signed); unused phases left empty. */
export function gridPhases(map: RegisterMap, phases: 1 | 3): RegisterMap {
  for (let i = 1; i <= phases; i++) {
    map.add(`gridVoltageL${i}`, [`Grid voltage L${i}`, `Tensión de red L${i}`], 'u16', { unit: 'V', scale: 0.1 });
  }
  map.skip(3 - phases);
  for (let i = 1; i <= phases; i++) {
    map.add(`gridCurrentL${i}`, [`Grid current L${i}`, `Corriente de red L${i}`], 's16', { unit: 'A', scale: 0.01 });
  }
  return map.skip(3 - phases);
}

/** "<name>Today" and "<name>Total" energy counters, u32 in 0.1 kWh. */
export function energyCounters(
  map: RegisterMap,
  counters: readonly (readonly [key: string, en: string, es: string])[],
): RegisterMap {
  for (const [key, en, es] of counters) {
    map
      .add(`${key}Today`, [`${en} today`, `${es} hoy`], 'u32', { unit: 'kWh', scale: 0.1 })
      .add(`${key}Total`, [`${en} total`, `${es} total`], 'u32', { unit: 'kWh', scale: 0.1 });
  }
  return map;
}
