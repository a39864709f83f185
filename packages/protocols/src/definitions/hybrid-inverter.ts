// Sunfleet hybrid storage inverter family, single- and three-phase: one register layout, the
// single-phase model leaves the L2/L3 registers unused. Register map written by this project.
//   input registers (4):   0.. info, 100.. realtime, 150.. energy counters
//   holding registers (3): the remote settings on Deye's registers (deye-settings.ts): the
//                          single-phase model is a dyStore device, the three-phase one dyStore3p
import type { ProtocolDefinition } from '../definition.ts';
import {
  bits,
  energyCounters,
  gridPhases,
  inverterDeviceTypes,
  options,
  pvGridProtectionFaults,
  pvInputs,
  RegisterMap,
  runningStates,
} from './build.ts';
import { deyeStoreSettings } from './deye-settings.ts';

const hybridFaults = bits('fault', [
  ...pvGridProtectionFaults,
  [8, 'acOvercurrent', 'AC overcurrent', 'Sobrecorriente de CA'],
  [9, 'dcOvercurrent', 'DC overcurrent', 'Sobrecorriente de CC'],
  [10, 'busOvervoltage', 'DC bus overvoltage', 'Sobretensión del bus de CC'],
  [11, 'overTemperature', 'Inverter over temperature', 'Sobretemperatura del inversor'],
  [12, 'relayFailure', 'Grid relay failure', 'Fallo del relé de red'],
  [13, 'batteryOvervoltage', 'Battery overvoltage', 'Sobretensión de batería'],
  [14, 'batteryUndervoltage', 'Battery undervoltage', 'Subtensión de batería'],
  [15, 'batteryOvercurrent', 'Battery overcurrent', 'Sobrecorriente de batería'],
  [16, 'bmsCommunicationLost', 'BMS communication lost', 'Comunicación con el BMS perdida'],
  [17, 'batteryReversed', 'Battery polarity reversed', 'Polaridad de batería invertida'],
  [18, 'epsOverload', 'Backup output overload', 'Sobrecarga de la salida de respaldo'],
  [19, 'arcFault', 'DC arc fault', 'Fallo de arco en CC'],
  [32, 'internalCommunication', 'Internal communication failure', 'Fallo de comunicación interna'],
  [33, 'eepromFailure', 'EEPROM failure', 'Fallo de EEPROM'],
]);

const hybridWarnings = bits('warning', [
  [0, 'fanWarning', 'Fan failure', 'Fallo del ventilador'],
  [1, 'meterCommunicationLost', 'Meter communication lost', 'Comunicación con el medidor perdida'],
  [2, 'batteryLowSoc', 'Battery state of charge low', 'Estado de carga de batería bajo'],
  [3, 'bmsWarning', 'BMS warning', 'Advertencia del BMS'],
  [4, 'gridLost', 'Grid lost, running on backup', 'Red perdida, funcionando en respaldo', 'info'],
  [5, 'derating', 'Output derated by temperature', 'Salida reducida por temperatura'],
  [6, 'parallelCommunication', 'Parallel communication warning', 'Advertencia de comunicación en paralelo'],
]);

export const workModes = options(
  ['Selling first', 'Prioridad de venta'],
  ['Zero export to load', 'Exportación cero a la carga'],
  ['Zero export to CT', 'Exportación cero al transformador de corriente'],
  ['Self-consumption', 'Autoconsumo'],
  ['Time of use', 'Franjas horarias'],
);

/**
 * Nameplate (input registers 0..) and realtime (100..) of a storage inverter. `pv`: whether it
 * has PV inputs (a hybrid); a battery-only inverter (PCS) leaves their registers unmapped, so
 * it shows no PV input rather than four that never have a value.
 */
export function storageInverterMeasurements(phases: 1 | 3, pv = true): RegisterMap {
  const map = new RegisterMap();
  map
    .at(4, 0, 'info')
    .add('deviceType', ['Device type', 'Tipo de equipo'], 'enum', { enum: inverterDeviceTypes, required: true })
    .add('protocolVersion', ['Protocol version', 'Versión del protocolo'], 'u16')
    .add('serialNumber', ['Serial number', 'Número de serie'], 'string', { count: 10, required: true })
    .add('ratedPower', ['Rated power', 'Potencia nominal'], 'u32', { unit: 'W' })
    .add('mpptCount', ['MPPT count', 'Número de MPPT'], 'u16')
    .add('phaseCount', ['Phase count', 'Número de fases'], 'u16')
    .add('controlFirmware', ['Control board firmware', 'Firmware de la placa de control'], 'hex', { count: 2 })
    .add('commFirmware', ['Communication board firmware', 'Firmware de la placa de comunicaciones'], 'hex', { count: 2 });

  map.at(4, 100, 'realtime').add('runningState', ['Running state', 'Estado de funcionamiento'], 'enum', {
    enum: runningStates,
    required: true,
  });
  if (pv)
    pvInputs(map, 4); // 101..112
  else map.skip(4 * 3);
  gridPhases(map, phases); // 113..115 voltages, 116..118 currents
  map
    .add('gridFrequency', ['Grid frequency', 'Frecuencia de red'], 'u16', { unit: 'Hz', scale: 0.01 })
    .add('gridActivePower', ['Grid active power (+ export)', 'Potencia activa de red (+ exportación)'], 's32', { unit: 'W' })
    .add('gridReactivePower', ['Grid reactive power', 'Potencia reactiva de red'], 's32', { unit: 'var' })
    .add('powerFactor', ['Power factor', 'Factor de potencia'], 's16', { scale: 0.001 })
    .add('activePower', ['Inverter active power', 'Potencia activa del inversor'], 's32', { unit: 'W', required: true })
    .add('loadPower', ['Load power', 'Potencia de consumo'], 'u32', { unit: 'W' })
    .add('batteryVoltage', ['Battery voltage', 'Tensión de batería'], 'u16', { unit: 'V', scale: 0.01 })
    .add('batteryCurrent', ['Battery current (+ discharge)', 'Corriente de batería (+ descarga)'], 's16', {
      unit: 'A',
      scale: 0.1,
    })
    .add('batteryPower', ['Battery power (+ discharge)', 'Potencia de batería (+ descarga)'], 's32', { unit: 'W' })
    .add('batterySoc', ['Battery state of charge', 'Estado de carga de batería'], 'u16', { unit: '%' })
    .add('batteryTemperature', ['Battery temperature', 'Temperatura de batería'], 's16', { unit: '°C', scale: 0.1 })
    .add('inverterTemperature', ['Inverter temperature', 'Temperatura del inversor'], 's16', { unit: '°C', scale: 0.1 })
    .add('heatsinkTemperature', ['Heat sink temperature', 'Temperatura del disipador'], 's16', { unit: '°C', scale: 0.1 })
    .add('faultBits', ['Faults', 'Fallos'], 'bitfield', { count: 4, bits: hybridFaults })
    .add('warningBits', ['Warnings', 'Advertencias'], 'bitfield', { count: 2, bits: hybridWarnings });

  map.at(4, 150, 'realtime');
  energyCounters(map, [
    ['pvEnergy', 'PV generation', 'Generación FV'],
    ['gridImportEnergy', 'Grid import', 'Importación de red'],
    ['gridExportEnergy', 'Grid export', 'Exportación a red'],
    ['batteryChargeEnergy', 'Battery charge', 'Carga de batería'],
    ['batteryDischargeEnergy', 'Battery discharge', 'Descarga de batería'],
    ['loadEnergy', 'Load consumption', 'Consumo de la carga'],
  ]);
  return map;
}

function hybridInverter(phases: 1 | 3): ProtocolDefinition {
  const map = storageInverterMeasurements(phases);

  deyeStoreSettings(map, phases);

  return {
    id: phases === 1 ? 'sunfleet-hybrid-1p' : 'sunfleet-hybrid-3p',
    name:
      phases === 1
        ? { en: 'Sunfleet single-phase hybrid inverter', es: 'Inversor híbrido monofásico Sunfleet' }
        : { en: 'Sunfleet three-phase hybrid inverter', es: 'Inversor híbrido trifásico Sunfleet' },
    version: '1.0',
    kind: 'inverter',
    settingFamily: phases === 1 ? 'dyStore' : 'dyStore3p',
    fields: map.fields,
  };
}

export const hybridInverter1p = hybridInverter(1);
export const hybridInverter3p = hybridInverter(3);
