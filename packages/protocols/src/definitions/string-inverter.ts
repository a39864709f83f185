// Sunfleet three-phase string (on-grid) inverter. Register map written by this project.
//   input registers (4):   0.. info, 100.. realtime
//   holding registers (3): 0.. basic, 10.. system time, 20.. active power control,
//                          30.. reactive power control, 40.. grid protection
import type { ProtocolDefinition } from '../definition.ts';
import {
  bits,
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

const stringFaults = bits('fault', [
  ...pvGridProtectionFaults,
  [8, 'overTemperature', 'Inverter over temperature', 'Sobretemperatura del inversor'],
  [9, 'relayFailure', 'Grid relay failure', 'Fallo del relé de red'],
  [10, 'arcFault', 'DC arc fault', 'Fallo de arco en CC'],
  [16, 'fanWarning', 'Fan failure', 'Fallo del ventilador', 'warning'],
  [17, 'stringReversed', 'PV string reversed', 'String FV invertido', 'warning'],
  [18, 'derating', 'Output derated by temperature', 'Salida reducida por temperatura', 'warning'],
]);

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
gridPhases(map, 3) // 113..118
  .add('gridFrequency', ['Grid frequency', 'Frecuencia de red'], 'u16', { unit: 'Hz', scale: 0.01 })
  .add('activePower', ['Active power', 'Potencia activa'], 's32', { unit: 'W', required: true })
  .add('reactivePower', ['Reactive power', 'Potencia reactiva'], 's32', { unit: 'var' })
  .add('powerFactor', ['Power factor', 'Factor de potencia'], 's16', { scale: 0.001 })
  .add('inverterTemperature', ['Inverter temperature', 'Temperatura del inversor'], 's16', { unit: '°C', scale: 0.1 })
  .add('energyToday', ['Generation today', 'Generación hoy'], 'u32', { unit: 'kWh', scale: 0.1 })
  .add('energyTotal', ['Generation total', 'Generación total'], 'u32', { unit: 'kWh', scale: 0.1 })
  .add('faultBits', ['Faults', 'Fallos'], 'bitfield', { count: 2, bits: stringFaults })
  .at(3, 0, 'setting:basic')
  .setting('powerSwitch', ['Power on/off', 'Encendido/apagado'], 'enum', { enum: offOn })
  .setting('modbusAddress', ['Modbus address', 'Dirección Modbus'], 'u16', { min: 1, max: 247 });
systemTime(map.at(3, 10, 'setting:systime'))
  .at(3, 20, 'setting:activeCtrl')
  .setting('activePowerLimit', ['Active power limit', 'Límite de potencia activa'], 'u16', {
    unit: '%',
    scale: 0.1,
    min: 0,
    max: 100,
  })
  .setting('activePowerRamp', ['Active power ramp', 'Rampa de potencia activa'], 'u16', {
    unit: '%/s',
    scale: 0.1,
    min: 0,
    max: 100,
  })
  .at(3, 30, 'setting:reactiveCtrl')
  .setting('reactiveMode', ['Reactive power mode', 'Modo de potencia reactiva'], 'enum', {
    enum: options(
      ['Off', 'Desactivado'],
      ['Fixed power factor', 'Factor de potencia fijo'],
      ['Fixed reactive power', 'Potencia reactiva fija'],
    ),
  })
  .setting('powerFactorSetpoint', ['Power factor setpoint', 'Consigna de factor de potencia'], 's16', {
    scale: 0.001,
    min: -1,
    max: 1,
  })
  .setting('reactivePowerSetpoint', ['Reactive power setpoint', 'Consigna de potencia reactiva'], 's16', {
    unit: '%',
    scale: 0.1,
    min: -60,
    max: 60,
  })
  .at(3, 40, 'setting:gridProtect')
  .setting('overVoltageTrip', ['Overvoltage trip', 'Disparo por sobretensión'], 'u16', {
    unit: 'V',
    scale: 0.1,
    min: 230,
    max: 300,
  })
  .setting('underVoltageTrip', ['Undervoltage trip', 'Disparo por subtensión'], 'u16', {
    unit: 'V',
    scale: 0.1,
    min: 100,
    max: 230,
  })
  .setting('overFrequencyTrip', ['Overfrequency trip', 'Disparo por sobrefrecuencia'], 'u16', {
    unit: 'Hz',
    scale: 0.01,
    min: 50,
    max: 65,
  })
  .setting('underFrequencyTrip', ['Underfrequency trip', 'Disparo por subfrecuencia'], 'u16', {
    unit: 'Hz',
    scale: 0.01,
    min: 45,
    max: 60,
  })
  .setting('reconnectDelay', ['Reconnection delay', 'Retardo de reconexión'], 'u16', { unit: 's', min: 0, max: 900 });

export const stringInverter: ProtocolDefinition = {
  id: 'sunfleet-string-3p',
  name: { en: 'Sunfleet three-phase string inverter', es: 'Inversor de string trifásico Sunfleet' },
  version: '1.0',
  kind: 'inverter',
  fields: map.fields,
};
