// Sunfleet three-phase string (on-grid) inverter. Register map written by this project.
//   input registers (4):   0.. info, 100.. realtime
//   holding registers (3): the asw remote settings: 0.. basic (with the clock at 10..),
//                          20.. active power control, 30.. reactive power control, 40.. grid protection
import type { ProtocolDefinition } from '../definition.ts';
import {
  bits,
  disabledEnabled,
  gridPhases,
  inverterDeviceTypes,
  offOn,
  options,
  pvGridProtectionFaults,
  pvInputs,
  RegisterMap,
  runningStates,
  systemTime,
} from './build.ts';
import { percentOfRated } from './family-settings.ts';

const stringFaults = bits('fault', [
  ...pvGridProtectionFaults,
  [8, 'overTemperature', 'Inverter over temperature', 'Sobretemperatura del inversor'],
  [9, 'relayFailure', 'Grid relay failure', 'Fallo del relé de red'],
  [10, 'arcFault', 'DC arc fault', 'Fallo de arco en CC'],
  [16, 'fanWarning', 'Fan failure', 'Fallo del ventilador', 'warning'],
  [17, 'stringReversed', 'PV string reversed', 'String FV invertido', 'warning'],
  [18, 'derating', 'Output derated by temperature', 'Salida reducida por temperatura', 'warning'],
]);

/** Nameplate (input registers 0..) and realtime (100..) of a grid-tied string inverter. */
export function stringInverterMeasurements(phases: 1 | 3): RegisterMap {
  const map = new RegisterMap()
    .at(4, 0, 'info')
    .add('deviceType', ['Device type', 'Tipo de equipo'], 'enum', { enum: inverterDeviceTypes, required: true })
    .add('serialNumber', ['Serial number', 'Número de serie'], 'string', { count: 10, required: true })
    .add('ratedPower', ['Rated power', 'Potencia nominal'], 'u32', { unit: 'W' })
    .add('mpptCount', ['MPPT count', 'Número de MPPT'], 'u16')
    .add('firmware', ['Firmware version', 'Versión de firmware'], 'hex', { count: 2 })
    .at(4, 100, 'realtime')
    .add('runningState', ['Running state', 'Estado de funcionamiento'], 'enum', { enum: runningStates, required: true });
  pvInputs(map, 4); // 101..112
  return gridPhases(map, phases) // 113..118
    .add('gridFrequency', ['Grid frequency', 'Frecuencia de red'], 'u16', { unit: 'Hz', scale: 0.01 })
    .add('activePower', ['Active power', 'Potencia activa'], 's32', { unit: 'W', required: true })
    .add('reactivePower', ['Reactive power', 'Potencia reactiva'], 's32', { unit: 'var' })
    .add('powerFactor', ['Power factor', 'Factor de potencia'], 's16', { scale: 0.001 })
    .add('inverterTemperature', ['Inverter temperature', 'Temperatura del inversor'], 's16', { unit: '°C', scale: 0.1 })
    .add('energyToday', ['Generation today', 'Generación hoy'], 'u32', { unit: 'kWh', scale: 0.1 })
    .add('energyTotal', ['Generation total', 'Generación total'], 'u32', { unit: 'kWh', scale: 0.1 })
    .add('faultBits', ['Faults', 'Fallos'], 'bitfield', { count: 2, bits: stringFaults });
}

const seconds = (max: number) => ({ unit: 's', min: 0, max }) as const;

// The asw groups follow SunSpec's controls: immediate controls (model 123: connect, WMaxLimPct,
// OutPFSet, VArPct with their time windows, reversion timeouts and ramps) and the must-trip
// voltage and frequency limits with their clearing times (models 129, 130, 135, 136).
const map = stringInverterMeasurements(3)
  .at(3, 0, 'setting:basic')
  .setting('powerSwitch', ['Power on/off (grid connection)', 'Encendido/apagado (conexión a red)'], 'enum', { enum: offOn })
  .setting('modbusAddress', ['Modbus address', 'Dirección Modbus'], 'u16', { min: 1, max: 247 })
  .setting('connectWindow', ['Connect/disconnect time window', 'Ventana de conexión/desconexión'], 'u16', seconds(300))
  .setting('connectRevert', ['Connect/disconnect timeout', 'Tiempo de reversión de conexión'], 'u16', seconds(3600));
systemTime(map.at(3, 10, 'setting:basic'))
  .at(3, 20, 'setting:activeCtrl')
  .setting('activePowerLimit', ['Active power limit', 'Límite de potencia activa'], 'u16', percentOfRated())
  .setting('activePowerLimitEnabled', ['Active power limit', 'Limitación de potencia activa'], 'enum', { enum: disabledEnabled })
  .setting('activePowerWindow', ['Power limit time window', 'Ventana del límite de potencia'], 'u16', seconds(300))
  .setting('activePowerRevert', ['Power limit timeout', 'Tiempo de reversión del límite de potencia'], 'u16', seconds(3600))
  .setting('activePowerRamp', ['Power limit ramp time', 'Tiempo de rampa del límite de potencia'], 'u16', seconds(300))
  .at(3, 30, 'setting:reactiveCtrl')
  .setting('powerFactorEnabled', ['Fixed power factor', 'Factor de potencia fijo'], 'enum', { enum: disabledEnabled })
  .setting('powerFactorSetpoint', ['Power factor setpoint', 'Consigna de factor de potencia'], 's16', {
    scale: 0.001,
    min: -1,
    max: 1,
    step: 0.001,
  })
  .setting('powerFactorRamp', ['Power factor ramp time', 'Tiempo de rampa del factor de potencia'], 'u16', seconds(300))
  .setting('reactiveEnabled', ['Reactive power limit', 'Limitación de potencia reactiva'], 'enum', { enum: disabledEnabled })
  .setting('reactiveMode', ['Reactive power reference', 'Referencia de potencia reactiva'], 'enum', {
    enum: options(
      ['None', 'Ninguna'],
      ['% of max active power', '% de la potencia activa máxima'],
      ['% of max reactive power', '% de la potencia reactiva máxima'],
      ['% of available reactive power', '% de la potencia reactiva disponible'],
    ),
  })
  .setting('reactivePowerSetpoint', ['Reactive power setpoint', 'Consigna de potencia reactiva'], 's16', {
    unit: '%',
    scale: 0.1,
    min: -100,
    max: 100,
    step: 0.1,
  })
  .setting('reactiveRamp', ['Reactive power ramp time', 'Tiempo de rampa de potencia reactiva'], 'u16', seconds(300))
  .at(3, 40, 'setting:gridProtect')
  .setting('overVoltageTrip', ['Overvoltage trip', 'Disparo por sobretensión'], 'u16', {
    unit: 'V',
    scale: 0.1,
    min: 100,
    max: 300,
    step: 0.1,
  })
  .setting('overVoltageTripTime', ['Overvoltage clearing time', 'Tiempo de disparo por sobretensión'], 'u16', {
    unit: 's',
    scale: 0.01,
    min: 0,
    max: 60,
    step: 0.01,
  })
  .setting('underVoltageTrip', ['Undervoltage trip', 'Disparo por subtensión'], 'u16', {
    unit: 'V',
    scale: 0.1,
    min: 50,
    max: 250,
    step: 0.1,
  })
  .setting('underVoltageTripTime', ['Undervoltage clearing time', 'Tiempo de disparo por subtensión'], 'u16', {
    unit: 's',
    scale: 0.01,
    min: 0,
    max: 60,
    step: 0.01,
  })
  .setting('overFrequencyTrip', ['Overfrequency trip', 'Disparo por sobrefrecuencia'], 'u16', {
    unit: 'Hz',
    scale: 0.01,
    min: 50,
    max: 65,
    step: 0.01,
  })
  .setting('overFrequencyTripTime', ['Overfrequency clearing time', 'Tiempo de disparo por sobrefrecuencia'], 'u16', {
    unit: 's',
    scale: 0.01,
    min: 0,
    max: 60,
    step: 0.01,
  })
  .setting('underFrequencyTrip', ['Underfrequency trip', 'Disparo por subfrecuencia'], 'u16', {
    unit: 'Hz',
    scale: 0.01,
    min: 45,
    max: 60,
    step: 0.01,
  })
  .setting('underFrequencyTripTime', ['Underfrequency clearing time', 'Tiempo de disparo por subfrecuencia'], 'u16', {
    unit: 's',
    scale: 0.01,
    min: 0,
    max: 60,
    step: 0.01,
  })
  .setting('reconnectDelay', ['Reconnection delay', 'Retardo de reconexión'], 'u16', seconds(900));

export const stringInverter: ProtocolDefinition = {
  id: 'sunfleet-string-3p',
  name: { en: 'Sunfleet three-phase string inverter', es: 'Inversor de string trifásico Sunfleet' },
  version: '1.0',
  kind: 'inverter',
  settingFamily: 'asw',
  fields: map.fields,
};
