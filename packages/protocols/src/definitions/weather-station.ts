// Sunfleet weather station: irradiance sensor, module and ambient temperature, anemometer,
// hygrometer. Register map written by this project.
//   input registers (4): 0.. realtime, 100.. info;  holding (3): 0.. settings
import type { ProtocolDefinition } from '../definition.ts';
import { bits, RegisterMap } from './build.ts';

const map = new RegisterMap()
  .at(4, 0, 'realtime')
  .add('irradiance', ['Irradiance', 'Irradiancia'], 'u16', { unit: 'W/m²', required: true })
  .add('moduleTemperature', ['Module temperature', 'Temperatura del módulo'], 's16', { unit: '°C', scale: 0.1 })
  .add('ambientTemperature', ['Ambient temperature', 'Temperatura ambiente'], 's16', { unit: '°C', scale: 0.1 })
  .add('windSpeed', ['Wind speed', 'Velocidad del viento'], 'u16', { unit: 'm/s', scale: 0.1 })
  .add('windDirection', ['Wind direction', 'Dirección del viento'], 'u16', { unit: '°' })
  .add('humidity', ['Relative humidity', 'Humedad relativa'], 'u16', { unit: '%', scale: 0.1 })
  .add('dailyIrradiation', ['Irradiation today', 'Irradiación hoy'], 'u32', { unit: 'kWh/m²', scale: 0.001 })
  .add('sensorBits', ['Sensor status', 'Estado de los sensores'], 'bitfield', {
    bits: bits('warning', [
      [0, 'irradianceSensor', 'Irradiance sensor failure', 'Fallo del sensor de irradiancia'],
      [1, 'moduleTemperatureSensor', 'Module temperature sensor failure', 'Fallo del sensor de temperatura del módulo'],
      [2, 'ambientTemperatureSensor', 'Ambient temperature sensor failure', 'Fallo del sensor de temperatura ambiente'],
      [3, 'anemometer', 'Anemometer failure', 'Fallo del anemómetro'],
      [4, 'hygrometer', 'Hygrometer failure', 'Fallo del higrómetro'],
    ]),
  })
  .at(4, 100, 'info')
  .add('serialNumber', ['Serial number', 'Número de serie'], 'string', { count: 8, required: true })
  .add('firmware', ['Firmware version', 'Versión de firmware'], 'hex', { count: 1 })
  .at(3, 0, 'setting:basic')
  .setting('modbusAddress', ['Modbus address', 'Dirección Modbus'], 'u16', { min: 1, max: 247 })
  .setting('sampleInterval', ['Sample interval', 'Intervalo de muestreo'], 'u16', { unit: 's', min: 1, max: 600 });

export const weatherStation: ProtocolDefinition = {
  id: 'sunfleet-weather',
  name: { en: 'Sunfleet weather station', es: 'Estación meteorológica Sunfleet' },
  version: '1.0',
  kind: 'weather',
  fields: map.fields,
};
