// The remote-setting groups of the Deye-compatible families, on the holding registers Deye's
// inverters use (the Solarman maps of the Deye hybrid, three-phase hybrid, string and micro
// inverters): register, scale, unit, limits and options as those maps give them.
//   dyStore (single-phase hybrid) and dyStore3p (three-phase hybrid): batt, workMode,
//     gridInput, smartLoad, advanced, basic, reset, systime, arc, arcClear (+ gridInput2,
//     advanced2 on three-phase);
//   dyGrid (string and micro inverters): protectPara, eeprom, runPara.
// Deye packs the date two bytes per register; these maps hold one value per register from the
// same first register. The reset and arc registers are not in the Deye maps: they sit in the
// project's own block at 0x0400.
import type { LocalizedText } from '../definition.ts';
import { disabledEnabled, offOn, options, type RegisterMap, systemTime, text } from './build.ts';
import { noAction, percentOfRated } from './family-settings.ts';

/** The single-phase Deye power switch register: 1 on, 2 off (the three-phase one: 1 on, 0 off). */
export const deyePowerSwitch: Record<number, LocalizedText> = { 1: text('On', 'Encendido'), 2: text('Off', 'Apagado') };

const batteryTypes = options(['Lead-acid (four-stage charging)', 'Plomo-ácido (carga en cuatro etapas)'], ['Lithium', 'Litio']);
const batteryOperationModes = options(['Voltage', 'Tensión'], ['Capacity', 'Capacidad'], ['No battery', 'Sin batería']);
const energyPatterns = options(['Battery first', 'Prioridad batería'], ['Load first', 'Prioridad consumo']);
/** Deye's work mode register. */
export const deyeWorkModes = options(
  ['Export first', 'Prioridad exportación'],
  ['Zero export to load', 'Exportación cero a la carga'],
  ['Zero export to CT', 'Exportación cero al transformador de corriente'],
);
const chargeSources = options(['Disabled', 'Desactivado'], ['Grid', 'Red'], ['Generator', 'Generador'], ['Both', 'Ambos']);
const ioModes = options(['Generator', 'Generador'], ['Smart load', 'Carga inteligente'], ['Micro-inverter', 'Microinversor']);
const gridFrequencies = options(['50 Hz', '50 Hz'], ['60 Hz', '60 Hz']);
/** Time of use: 0 off, else bit 0 on and bits 1..7 Monday..Sunday, in Deye's named combinations. */
const timeOfUseDays: Record<number, LocalizedText> = {
  0: text('Disabled', 'Desactivado'),
  3: text('Monday', 'Lunes'),
  5: text('Tuesday', 'Martes'),
  9: text('Wednesday', 'Miércoles'),
  17: text('Thursday', 'Jueves'),
  33: text('Friday', 'Viernes'),
  65: text('Saturday', 'Sábado'),
  129: text('Sunday', 'Domingo'),
  63: text('Weekdays', 'Días laborables'),
  193: text('Weekend', 'Fin de semana'),
  253: text('Every day but Monday', 'Todos los días menos el lunes'),
  251: text('Every day but Tuesday', 'Todos los días menos el martes'),
  247: text('Every day but Wednesday', 'Todos los días menos el miércoles'),
  239: text('Every day but Thursday', 'Todos los días menos el jueves'),
  223: text('Every day but Friday', 'Todos los días menos el viernes'),
  191: text('Every day but Saturday', 'Todos los días menos el sábado'),
  127: text('Every day but Sunday', 'Todos los días menos el domingo'),
  255: text('Every day', 'Todos los días'),
};
const bmsTypes = options(
  ['PYLON', 'PYLON'],
  ['Tianbangda', 'Tianbangda'],
  ['KOK', 'KOK'],
  ['Keith', 'Keith'],
  ['Toppai', 'Toppai'],
  ['Peneng 485', 'Peneng 485'],
  ['Jeris 485', 'Jeris 485'],
  ['Sunwoda 485', 'Sunwoda 485'],
  ['Xinrui 485', 'Xinrui 485'],
  ['Tianbangda 485', 'Tianbangda 485'],
  ['Shenggao Electric CAN', 'Shenggao Electric CAN'],
);
const gridVoltages = options(
  ['L-N 220 V, L-L 380 V', 'F-N 220 V, F-F 380 V'],
  ['L-N 230 V, L-L 398 V', 'F-N 230 V, F-F 398 V'],
  ['L-N 240 V, L-L 415 V', 'F-N 240 V, F-F 415 V'],
  ['L-N 120 V, L-L 208 V', 'F-N 120 V, F-F 208 V'],
  ['L-N 133 V, L-L 220 V', 'F-N 133 V, F-F 220 V'],
  ['L-N 100 V, L-L 173 V', 'F-N 100 V, F-F 173 V'],
);

/** Where the single- and three-phase Deye hybrids keep each setting, and the limits that differ. */
interface StoreLayout {
  selfCheckTime: number;
  powerSwitch: number;
  powerOptions: Record<number, LocalizedText>;
  date: number;
  battery: number; // battery type; equalization … empty voltage follow
  zeroExportPower: number;
  maxChargeCurrent: number;
  operationMode: number;
  resistance: number;
  socs: number; // shutdown, restart, low SOC, then shutdown, restart, low voltage
  generatorTimes: number; // operating and cooling time
  generatorCharging: number; // start voltage, start SOC, current
  gridCharging: number; // start voltage, start SOC, current
  gridChargeSwitch: number;
  ioMode: number; // then off voltage, off SOC, on voltage, on SOC
  generatorMinPv: number; // then charging signal
  energyPattern: number; // then work mode, export surplus power
  exportSurplus: number; // then time of use
  programTime: number; // six times, six powers, six voltages, six SOCs, six charge sources
  pvPower: number;
  reconnectTime: number;
  gridFrequency: number;
  protection: number; // voltage high, low, frequency high, low
  gridPeakShaving: number;
  bmsType: number;
  /** Battery voltages: register scale and upper limit (V). */
  voltScale: number;
  voltMax: number;
  currentMax: number;
  /** Export, program and PV power: register scale and upper limit (W). */
  powerScale: number;
  sellMax: number;
  pvMax: number;
  programMax: number;
  peakShavingMax: number;
}

const singlePhase: StoreLayout = {
  selfCheckTime: 0x15,
  powerSwitch: 0x2b,
  powerOptions: deyePowerSwitch,
  date: 0x16,
  battery: 0xc8,
  zeroExportPower: 0xce,
  maxChargeCurrent: 0xd2,
  operationMode: 0xd5,
  resistance: 0xd7,
  socs: 0xd9,
  generatorTimes: 0xdf,
  generatorCharging: 0xe1,
  gridCharging: 0xe4,
  gridChargeSwitch: 0xe8,
  ioMode: 0xeb,
  generatorMinPv: 0xf1,
  energyPattern: 0xf3,
  exportSurplus: 0xf7,
  programTime: 0xfa,
  pvPower: 0x35,
  reconnectTime: 0x11a,
  gridFrequency: 0x11d,
  protection: 0x11f,
  gridPeakShaving: 0x125,
  bmsType: 0x145,
  voltScale: 0.01,
  voltMax: 61,
  currentMax: 240,
  powerScale: 1,
  sellMax: 12000,
  pvMax: 13000,
  programMax: 12000,
  peakShavingMax: 22000,
};

/** The three-phase hybrid with a high-voltage battery (the second of Deye's scale variants). */
const threePhase: StoreLayout = {
  selfCheckTime: 0x3d,
  powerSwitch: 0x50,
  powerOptions: offOn,
  date: 0x3e,
  battery: 0x62,
  zeroExportPower: 0x68,
  maxChargeCurrent: 0x6c,
  operationMode: 0x6f,
  resistance: 0x71,
  socs: 0x73,
  generatorTimes: 0x79,
  generatorCharging: 0x7b,
  gridCharging: 0x7e,
  gridChargeSwitch: 0x82,
  ioMode: 0x85,
  generatorMinPv: 0x8b,
  energyPattern: 0x8d,
  exportSurplus: 0x91,
  programTime: 0x94,
  pvPower: 0x154,
  reconnectTime: 0xb4,
  gridFrequency: 0xb7,
  protection: 0xb9,
  gridPeakShaving: 0xbf,
  bmsType: 0xdf,
  voltScale: 0.1,
  voltMax: 800,
  currentMax: 350,
  powerScale: 10,
  sellMax: 80000,
  pvMax: 128000,
  programMax: 128000,
  peakShavingMax: 80000,
};

const RESERVED = 0x400;

/** The dyStore (single-phase) or dyStore3p (three-phase) groups. */
export function deyeStoreSettings(map: RegisterMap, phases: 1 | 3): RegisterMap {
  const l = phases === 1 ? singlePhase : threePhase;
  const volts = { unit: 'V', scale: l.voltScale, min: 38, max: l.voltMax, step: 0.1 } as const;
  const amps = { unit: 'A', min: 0, max: l.currentMax } as const;
  const percent = { unit: '%', min: 0, max: 100 } as const;
  const watts = (max: number) => ({ unit: 'W', scale: l.powerScale, min: 0, max, step: l.powerScale }) as const;

  map
    .at(3, 0x01, 'setting:basic')
    .add('modbusAddress', ['Modbus address', 'Dirección Modbus'], 'u16', { access: 'r' })
    .at(3, l.selfCheckTime, 'setting:basic')
    .setting('selfCheckTime', ['Self-check time', 'Tiempo de autocomprobación'], 'u16', { unit: 's', min: 0, max: 1000 })
    .at(3, l.powerSwitch, 'setting:basic')
    .setting('powerSwitch', ['Power on/off', 'Encendido/apagado'], 'enum', { enum: l.powerOptions });
  systemTime(map.at(3, l.date, 'setting:systime'));

  map
    .at(3, l.battery, 'setting:batt')
    .setting('batteryType', ['Battery type', 'Tipo de batería'], 'enum', { enum: batteryTypes })
    .setting('batteryEqualizationVoltage', ['Equalization voltage', 'Tensión de ecualización'], 'u16', volts)
    .setting('batteryAbsorptionVoltage', ['Absorption voltage', 'Tensión de absorción'], 'u16', volts)
    .setting('batteryFloatVoltage', ['Float voltage', 'Tensión de flotación'], 'u16', volts)
    .setting('batteryCapacity', ['Battery capacity', 'Capacidad de batería'], 'u16', { unit: 'Ah', min: 0, max: 2000 })
    .setting('batteryEmptyVoltage', ['Empty voltage', 'Tensión de batería vacía'], 'u16', volts)
    .at(3, l.maxChargeCurrent, 'setting:batt')
    .setting('maxChargeCurrent', ['Max charge current', 'Corriente máxima de carga'], 'u16', amps)
    .setting('maxDischargeCurrent', ['Max discharge current', 'Corriente máxima de descarga'], 'u16', amps)
    .at(3, l.operationMode, 'setting:batt')
    .setting('batteryOperationMode', ['Battery operation mode', 'Modo de operación de batería'], 'enum', {
      enum: batteryOperationModes,
    })
    .at(3, l.socs, 'setting:batt')
    .setting('batteryShutdownSoc', ['Shutdown state of charge', 'Estado de carga de apagado'], 'u16', percent)
    .setting('batteryRestartSoc', ['Restart state of charge', 'Estado de carga de rearranque'], 'u16', percent)
    .setting('batteryLowSoc', ['Low state of charge', 'Estado de carga bajo'], 'u16', percent)
    .setting('batteryShutdownVoltage', ['Shutdown voltage', 'Tensión de apagado'], 'u16', volts)
    .setting('batteryRestartVoltage', ['Restart voltage', 'Tensión de rearranque'], 'u16', volts)
    .setting('batteryLowVoltage', ['Low voltage', 'Tensión baja'], 'u16', volts);

  map
    .at(3, l.energyPattern, 'setting:workMode')
    .setting('energyPattern', ['Energy pattern', 'Patrón de energía'], 'enum', { enum: energyPatterns })
    .setting('workMode', ['Work mode', 'Modo de trabajo'], 'enum', { enum: deyeWorkModes })
    .setting('maxSellPower', ['Max sell power', 'Potencia máxima de venta'], 'u16', watts(l.sellMax))
    .at(3, l.exportSurplus, 'setting:workMode')
    .setting('solarSell', ['Sell solar surplus', 'Vender excedente solar'], 'enum', { enum: disabledEnabled })
    .setting('timeOfUse', ['Time of use', 'Franjas horarias'], 'enum', { enum: timeOfUseDays })
    .at(3, l.pvPower, 'setting:workMode')
    .setting('activePowerLimit', ['Active power limit (PV)', 'Límite de potencia activa (FV)'], 'u16', watts(l.pvMax));
  const programs = [1, 2, 3, 4, 5, 6] as const;
  map.at(3, l.programTime, 'setting:workMode');
  for (const i of programs)
    map.setting(`program${i}Time`, [`Period ${i} start (hhmm)`, `Inicio de la franja ${i} (hhmm)`], 'u16', { min: 0, max: 2359 });
  for (const i of programs)
    map.setting(`program${i}Power`, [`Period ${i} power`, `Potencia de la franja ${i}`], 'u16', watts(l.programMax));
  map.skip(6);
  for (const i of programs)
    map.setting(`program${i}Soc`, [`Period ${i} state of charge`, `Estado de carga de la franja ${i}`], 'u16', percent);
  for (const i of programs)
    map.setting(`program${i}Charging`, [`Period ${i} charging`, `Carga en la franja ${i}`], 'enum', { enum: chargeSources });

  map
    .at(3, l.gridCharging, 'setting:gridInput')
    .setting('gridChargeStartVoltage', ['Grid charge start voltage', 'Tensión de inicio de carga desde red'], 'u16', {
      ...volts,
      min: 0,
      max: l.voltMax === 61 ? 63 : l.voltMax,
    })
    .setting('gridChargeStartSoc', ['Grid charge start SOC', 'Estado de carga de inicio de carga desde red'], 'u16', percent)
    .setting('gridChargeCurrent', ['Grid charge current', 'Corriente de carga desde red'], 'u16', amps)
    .at(3, l.gridChargeSwitch, 'setting:gridInput')
    .setting('gridCharge', ['Charge from grid', 'Carga desde la red'], 'enum', { enum: disabledEnabled });
  // Grid protection: with the grid input on single-phase, its own group on three-phase.
  const protection = phases === 1 ? 'setting:gridInput' : 'setting:gridInput2';
  map
    .at(3, l.reconnectTime, protection)
    .setting('gridReconnectTime', ['Grid reconnection time', 'Tiempo de reconexión a red'], 'u16', {
      unit: 's',
      min: 1,
      max: 300,
    })
    .at(3, l.gridFrequency, protection)
    .setting('gridFrequencySetting', ['Grid frequency', 'Frecuencia de red'], 'enum', { enum: gridFrequencies })
    .at(3, l.protection, protection)
    .setting('gridVoltageHigh', ['Grid voltage protection, high', 'Protección de tensión de red, alta'], 'u16', {
      unit: 'V',
      scale: 0.1,
      min: 100,
      max: 290,
    })
    .setting('gridVoltageLow', ['Grid voltage protection, low', 'Protección de tensión de red, baja'], 'u16', {
      unit: 'V',
      scale: 0.1,
      min: 100,
      max: 290,
    })
    .setting('gridFrequencyHigh', ['Grid frequency protection, high', 'Protección de frecuencia de red, alta'], 'u16', {
      unit: 'Hz',
      scale: 0.01,
      min: 45,
      max: 65,
    })
    .setting('gridFrequencyLow', ['Grid frequency protection, low', 'Protección de frecuencia de red, baja'], 'u16', {
      unit: 'Hz',
      scale: 0.01,
      min: 45,
      max: 65,
    })
    .at(3, l.gridPeakShaving, protection)
    .setting('peakShavingPower', ['Grid peak shaving power', 'Potencia de recorte de picos de red'], 'u16', {
      ...watts(l.peakShavingMax),
    });
  if (phases === 3) {
    map
      .at(3, 0x8a, 'setting:gridInput')
      .setting('gridVoltageSetting', ['Grid voltage', 'Tensión de red'], 'enum', { enum: gridVoltages })
      .at(3, 0xe7, 'setting:gridInput2')
      .setting('maxExportPower', ['Grid max export power', 'Potencia máxima de exportación'], 'u16', {
        unit: 'W',
        scale: 10,
        min: 0,
        max: 80000,
        step: 10,
      })
      .skip(1)
      .setting('maxImportPower', ['Grid max import power', 'Potencia máxima de importación'], 'u16', {
        unit: 'W',
        scale: 10,
        min: 0,
        max: 80000,
        step: 10,
      });
  }

  map
    .at(3, l.ioMode, 'setting:smartLoad')
    .setting('ioMode', ['Generator port use', 'Uso del puerto de generador'], 'enum', { enum: ioModes })
    .setting('smartLoadOffVoltage', ['Smart load off voltage', 'Tensión de desconexión de carga inteligente'], 'u16', {
      ...volts,
      max: l.voltMax === 61 ? 63 : l.voltMax,
    })
    .setting('smartLoadOffSoc', ['Smart load off at', 'Carga inteligente inactiva desde'], 'u16', percent)
    .setting('smartLoadOnVoltage', ['Smart load on voltage', 'Tensión de conexión de carga inteligente'], 'u16', {
      ...volts,
      max: l.voltMax === 61 ? 63 : l.voltMax,
    })
    .setting('smartLoadOnSoc', ['Smart load on at', 'Carga inteligente activa desde'], 'u16', percent);

  map
    .at(3, l.zeroExportPower, 'setting:advanced')
    .setting('zeroExportPower', ['Zero export power', 'Potencia de exportación cero'], 'u16', {
      unit: 'W',
      scale: l.powerScale,
      min: 0,
      max: 500,
      step: l.powerScale,
    })
    .setting('batteryEqualizationCycle', ['Equalization cycle', 'Ciclo de ecualización'], 'u16', { unit: 'd', min: 0, max: 90 })
    .setting('batteryEqualizationTime', ['Equalization time', 'Tiempo de ecualización'], 'u16', {
      unit: 'h',
      scale: 0.5,
      min: 0,
      max: 10,
      step: 0.5,
    })
    .setting('batteryTempCompensation', ['Temperature compensation', 'Compensación de temperatura'], 's16', {
      unit: 'mV/°C',
      min: 0,
      max: 50,
    })
    .at(3, l.resistance, 'setting:advanced')
    .setting('batteryResistance', ['Battery resistance', 'Resistencia de batería'], 'u16', { unit: 'mΩ', min: 0, max: 6000 })
    .setting('batteryChargeEfficiency', ['Charging efficiency', 'Eficiencia de carga'], 'u16', {
      unit: '%',
      scale: 0.1,
      min: 0,
      max: 100,
      step: 0.1,
    })
    .at(3, l.generatorTimes, 'setting:advanced')
    .setting('generatorOperatingTime', ['Generator operating time', 'Tiempo de funcionamiento del generador'], 'u16', {
      unit: 'h',
      scale: 0.1,
      min: 0,
      max: 24,
      step: 0.1,
    })
    .setting('generatorCoolingTime', ['Generator cooling time', 'Tiempo de enfriamiento del generador'], 'u16', {
      unit: 'h',
      scale: 0.1,
      min: 0,
      max: 24,
      step: 0.1,
    })
    .setting(
      'generatorChargeStartVoltage',
      ['Generator charge start voltage', 'Tensión de inicio de carga por generador'],
      'u16',
      {
        ...volts,
        min: 0,
        max: l.voltMax === 61 ? 63 : l.voltMax,
      },
    )
    .setting('generatorChargeStartSoc', ['Generator charge start SOC', 'Estado de carga de inicio por generador'], 'u16', percent)
    .setting('generatorChargeCurrent', ['Generator charge current', 'Corriente de carga por generador'], 'u16', {
      unit: 'A',
      min: 0,
      max: 240,
    })
    .at(3, l.generatorMinPv, 'setting:advanced')
    .setting('generatorMinPvPower', ['Generator minimum PV power', 'Potencia FV mínima con generador'], 'u16', {
      unit: 'W',
      min: 0,
      max: 8000,
    })
    .setting('chargingSignal', ['Charging signal', 'Señal de carga'], 'enum', {
      enum: options(['Normal', 'Normal'], ['Grid', 'Red'], ['Generator', 'Generador'], ['Both', 'Ambos']),
    })
    .at(3, l.bmsType, 'setting:advanced')
    .setting('batteryBmsType', ['Battery BMS type', 'Tipo de BMS de batería'], 'enum', { enum: bmsTypes });
  if (phases === 3) {
    map
      .at(3, 0x81, 'setting:advanced2')
      // Deye writes 0x0101 to wake the battery, 0 to leave it.
      .setting('batteryWakeUp', ['Battery wake-up', 'Despertar batería'], 'enum', {
        enum: { 0: text('Disabled', 'Desactivado'), 257: text('Enabled', 'Activado') },
      })
      .at(3, 0x84, 'setting:advanced2')
      .setting('generatorInput', ['Generator input', 'Entrada de generador'], 'enum', { enum: disabledEnabled })
      .at(3, 0xb3, 'setting:advanced2')
      .setting('offGrid', ['Off-grid mode', 'Modo aislado'], 'enum', { enum: disabledEnabled })
      .at(3, 0xed, 'setting:advanced2')
      .setting('exportAsymmetry', ['Asymmetric export', 'Exportación asimétrica'], 'enum', { enum: disabledEnabled })
      .at(3, 0x155, 'setting:advanced2')
      .setting('mpptMultiScan', ['MPPT multi-point scanning', 'Barrido MPPT multipunto'], 'enum', { enum: disabledEnabled });
  }

  map
    .at(3, RESERVED, 'setting:reset')
    .setting('factoryReset', ['Restore factory settings', 'Restablecer valores de fábrica'], 'enum', {
      enum: noAction('Restore', 'Restablecer'),
    })
    .setting('energyReset', ['Clear energy counters', 'Borrar contadores de energía'], 'enum', {
      enum: noAction('Clear', 'Borrar'),
    })
    .at(3, RESERVED + 0x10, 'setting:arc')
    .setting('arcDetection', ['DC arc detection', 'Detección de arco en CC'], 'enum', { enum: disabledEnabled })
    .setting('arcSensitivity', ['Arc detection sensitivity', 'Sensibilidad de detección de arco'], 'u16', { min: 1, max: 10 })
    .at(3, RESERVED + 0x20, 'setting:arcClear')
    .setting('arcFaultClear', ['Clear arc fault', 'Borrar fallo de arco'], 'enum', { enum: noAction('Clear', 'Borrar') });
  return map;
}

/** The dyGrid groups of the Deye string and micro inverters. */
export function deyeGridSettings(map: RegisterMap): RegisterMap {
  const volts = { unit: 'V', scale: 0.1, min: 160, max: 550, step: 0.1 } as const;
  const hertz = { unit: 'Hz', scale: 0.01, min: 45, max: 65, step: 0.01 } as const;
  return (
    map
      .at(3, 0x15, 'setting:runPara')
      .setting('selfCheckTime', ['Self-check time', 'Tiempo de autocomprobación'], 'u16', { unit: 's', min: 0, max: 1000 })
      .at(3, 0x1b, 'setting:protectPara')
      .setting('gridVoltageHigh', ['Grid voltage upper limit', 'Límite superior de tensión de red'], 'u16', volts)
      .setting('gridVoltageLow', ['Grid voltage lower limit', 'Límite inferior de tensión de red'], 'u16', volts)
      .setting('gridFrequencyHigh', ['Grid frequency upper limit', 'Límite superior de frecuencia de red'], 'u16', hertz)
      .setting('gridFrequencyLow', ['Grid frequency lower limit', 'Límite inferior de frecuencia de red'], 'u16', hertz)
      .at(3, 0x22, 'setting:protectPara')
      .setting(
        'overFrequencyDeratingStart',
        ['Over-frequency derating start', 'Inicio de reducción por sobrefrecuencia'],
        'u16',
        hertz,
      )
      .setting('overFrequencyDerating', ['Over-frequency derating', 'Reducción por sobrefrecuencia'], 'u16', {
        unit: '%',
        min: 0,
        max: 100,
      })
      // Deye lists the power factor as 0..2000 thousandths with a configurable −1..1: signed here.
      .at(3, 0x27, 'setting:runPara')
      .setting('powerFactorSetpoint', ['Power factor', 'Factor de potencia'], 's16', {
        scale: 0.001,
        min: -1,
        max: 1,
        step: 0.001,
      })
      // Deye lists 0..1200 raw for a configurable 0..120 % in steps of 0.1: tenths of a percent.
      .setting('activePowerLimit', ['Active power limit', 'Límite de potencia activa'], 'u16', percentOfRated(120))
      .at(3, 0x2b, 'setting:runPara')
      .setting('powerSwitch', ['Power on/off', 'Encendido/apagado'], 'enum', { enum: deyePowerSwitch })
      .at(3, 0x2e, 'setting:protectPara')
      .setting('islandProtection', ['Island protection', 'Protección anti-isla'], 'enum', { enum: disabledEnabled })
      .at(3, 0x2f, 'setting:runPara')
      .setting('softStart', ['Soft start', 'Arranque suave'], 'enum', { enum: disabledEnabled })
      .at(3, 0x30, 'setting:protectPara')
      .setting('gfdi', ['Ground fault detection (GFDI)', 'Detección de fallo a tierra (GFDI)'], 'enum', { enum: disabledEnabled })
      .setting('overFrequencyDeratingEnabled', ['Over-frequency derating', 'Reducción por sobrefrecuencia'], 'enum', {
        enum: disabledEnabled,
      })
      .setting('riso', ['Insulation resistance check (RISO)', 'Comprobación de aislamiento (RISO)'], 'enum', {
        enum: disabledEnabled,
      })
      .at(3, 0x36, 'setting:eeprom')
      .setting('eeprom', ['EEPROM', 'EEPROM'], 'enum', {
        enum: options(
          ['Normal', 'Normal'],
          ['Initialize the control board EEPROM', 'Inicializar la EEPROM de la placa de control'],
          ['Initialize the communication board EEPROM', 'Inicializar la EEPROM de la placa de comunicaciones'],
        ),
      })
  );
}
