// Sunfleet two-panel micro-inverter, the `uneet` remote-setting family: one safety group, read
// whole. Register map written by this project.
//   input registers (4): 0.. info, 100.. realtime (as the four-panel micro-inverter, two inputs)
//   holding registers (3): 0.. safetySetting
import type { ProtocolDefinition } from '../definition.ts';
import { offOn, options } from './build.ts';
import { seconds, tripLimits } from './family-settings.ts';
import { microInverterMeasurements } from './micro-inverter.ts';

const map = microInverterMeasurements(2)
  .at(3, 0, 'setting:safetySetting')
  .setting('powerSwitch', ['Power on/off', 'Encendido/apagado'], 'enum', { enum: offOn })
  .setting('activePowerLimit', ['Active power limit', 'Límite de potencia activa'], 'u16', { unit: '%', min: 0, max: 100 })
  .setting('gridStandard', ['Grid code', 'Norma de red'], 'enum', {
    enum: options(
      ['EN 50549', 'EN 50549'],
      ['VDE 4105', 'VDE 4105'],
      ['RD 1699 (Spain)', 'RD 1699 (España)'],
      ['IEEE 1547', 'IEEE 1547'],
    ),
  });
tripLimits(map, [
  ['gridVoltageHigh', 'Grid overvoltage trip', 'Disparo por sobretensión de red', 'V', 100, 300],
  ['gridVoltageLow', 'Grid undervoltage trip', 'Disparo por subtensión de red', 'V', 50, 250],
  ['gridFrequencyHigh', 'Grid overfrequency trip', 'Disparo por sobrefrecuencia de red', 'Hz', 50, 65],
  ['gridFrequencyLow', 'Grid underfrequency trip', 'Disparo por subfrecuencia de red', 'Hz', 45, 60],
]).setting('reconnectDelay', ['Reconnection delay', 'Retardo de reconexión'], 'u16', seconds(900));

export const uneetMicroInverter: ProtocolDefinition = {
  id: 'sunfleet-micro-2',
  name: { en: 'Sunfleet micro-inverter (2 panels)', es: 'Microinversor Sunfleet (2 paneles)' },
  version: '1.0',
  kind: 'inverter',
  settingFamily: 'uneet',
  fields: map.fields,
};
