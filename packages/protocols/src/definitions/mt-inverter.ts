// Sunfleet single-phase string inverter, the `mt` remote-setting family. Register map written
// by this project.
//   input registers (4):   0.. info, 100.. realtime (as the three-phase string inverter, L1 only)
//   holding registers (3): one block of ten per group: 0 singleInstruction, 10 writeEtoday,
//                          12 writeEtotal, 20 startUp, 30 gridVolt, 40 gridFreq, 50 overFreq,
//                          60 reactive, 70 dci, 80 active, 90 acVoltFreq, 100 meter
import type { ProtocolDefinition } from '../definition.ts';
import { disabledEnabled, offOn, options } from './build.ts';
import {
  frequencyWatt,
  hertz,
  noAction,
  percentOfRated,
  powerFactorControls,
  seconds,
  tripLimits,
  tripTime,
  volts,
} from './family-settings.ts';
import { stringInverterMeasurements } from './string-inverter.ts';

const map = stringInverterMeasurements(1)
  .at(3, 0, 'setting:singleInstruction')
  .setting('powerSwitch', ['Power on/off', 'Encendido/apagado'], 'enum', { enum: offOn })
  .setting('faultReset', ['Clear latched faults', 'Borrar fallos retenidos'], 'enum', { enum: noAction('Clear', 'Borrar') })
  .at(3, 10, 'setting:writeEtoday')
  .setting('energyTodayPreset', ['Generation today', 'Generación hoy'], 'u32', {
    unit: 'kWh',
    scale: 0.1,
    min: 0,
    max: 1000,
    step: 0.1,
  })
  .at(3, 12, 'setting:writeEtotal')
  .setting('energyTotalPreset', ['Generation total', 'Generación total'], 'u32', {
    unit: 'kWh',
    scale: 0.1,
    min: 0,
    max: 10_000_000,
    step: 0.1,
  })
  .at(3, 20, 'setting:startUp')
  .setting('startVoltage', ['Start-up PV voltage', 'Tensión FV de arranque'], 'u16', { unit: 'V', min: 80, max: 500 })
  .setting('startDelay', ['Start-up delay', 'Retardo de arranque'], 'u16', { unit: 's', min: 10, max: 600 })
  .setting('softStartRate', ['Soft-start ramp', 'Rampa de arranque suave'], 'u16', { unit: '%/min', min: 1, max: 100 })
  .at(3, 30, 'setting:gridVolt');
tripLimits(map, [
  ['overVoltage1', 'Overvoltage stage 1', 'Sobretensión etapa 1', 'V', 100, 300],
  ['overVoltage2', 'Overvoltage stage 2', 'Sobretensión etapa 2', 'V', 100, 300],
  ['underVoltage1', 'Undervoltage stage 1', 'Subtensión etapa 1', 'V', 50, 250],
  ['underVoltage2', 'Undervoltage stage 2', 'Subtensión etapa 2', 'V', 50, 250],
]).setting('overVoltage10min', ['10-minute mean overvoltage', 'Sobretensión media de 10 minutos'], 'u16', volts(100, 300));
tripLimits(map.at(3, 40, 'setting:gridFreq'), [
  ['overFrequency', 'Overfrequency', 'Sobrefrecuencia', 'Hz', 50, 65],
  ['underFrequency', 'Underfrequency', 'Subfrecuencia', 'Hz', 45, 60],
]);
frequencyWatt(map.at(3, 50, 'setting:overFreq'));
powerFactorControls(map.at(3, 60, 'setting:reactive'));
map
  .at(3, 70, 'setting:dci')
  .setting('dciProtection', ['DC injection protection', 'Protección de inyección de CC'], 'enum', { enum: disabledEnabled })
  .setting('dciLimit', ['DC injection limit', 'Límite de inyección de CC'], 'u16', { unit: 'mA', min: 10, max: 1000 })
  .setting('dciTripTime', ['DC injection clearing time', 'Tiempo de disparo por inyección de CC'], 'u16', tripTime)
  .at(3, 80, 'setting:active')
  .setting('activePowerLimit', ['Active power limit', 'Límite de potencia activa'], 'u16', percentOfRated())
  .setting('activePowerLimitEnabled', ['Active power limit', 'Limitación de potencia activa'], 'enum', { enum: disabledEnabled })
  .setting('activePowerRamp', ['Power limit ramp time', 'Tiempo de rampa del límite de potencia'], 'u16', seconds(300))
  .at(3, 90, 'setting:acVoltFreq')
  .setting('reconnectVoltageHigh', ['Reconnection voltage, high', 'Tensión de reconexión, alta'], 'u16', volts(100, 300))
  .setting('reconnectVoltageLow', ['Reconnection voltage, low', 'Tensión de reconexión, baja'], 'u16', volts(50, 250))
  .setting('reconnectFrequencyHigh', ['Reconnection frequency, high', 'Frecuencia de reconexión, alta'], 'u16', hertz(50, 65))
  .setting('reconnectFrequencyLow', ['Reconnection frequency, low', 'Frecuencia de reconexión, baja'], 'u16', hertz(45, 60))
  .setting('reconnectDelay', ['Reconnection delay', 'Retardo de reconexión'], 'u16', seconds(900))
  .at(3, 100, 'setting:meter')
  .setting('meterType', ['Meter', 'Medidor'], 'enum', {
    enum: options(['None', 'Ninguno'], ['Single-phase meter', 'Medidor monofásico'], ['Three-phase meter', 'Medidor trifásico']),
  })
  .setting('exportLimitEnabled', ['Export limit', 'Límite de exportación'], 'enum', { enum: disabledEnabled })
  .setting('exportLimitPower', ['Export limit power', 'Potencia límite de exportación'], 'u16', {
    unit: 'W',
    min: 0,
    max: 30000,
    step: 10,
  });

export const mtStringInverter: ProtocolDefinition = {
  id: 'sunfleet-string-1p',
  name: { en: 'Sunfleet single-phase string inverter', es: 'Inversor de string monofásico Sunfleet' },
  version: '1.0',
  kind: 'inverter',
  settingFamily: 'mt',
  fields: map.fields,
};
