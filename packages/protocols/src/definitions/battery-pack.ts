// Sunfleet battery system: a master BMS with up to 7 slave packs behind it. The master reports
// the system and every pack (pack1 is the master's own pack). Register map written by this project.
//   input registers (4): 0.. system, 100 + 20 × (n − 1).. pack n, 300 + 10 × (n − 1).. pack n serial
//   holding registers (3): 0.. settings
import type { ProtocolDefinition } from '../definition.ts';
import { bits, disabledEnabled, options, RegisterMap } from './build.ts';

export const MAX_PACKS = 8;

const packFaults = (pack: number) =>
  bits('fault', [
    [0, `pack${pack}.cellOvervoltage`, 'Cell overvoltage', 'Sobretensión de celda'],
    [1, `pack${pack}.cellUndervoltage`, 'Cell undervoltage', 'Subtensión de celda'],
    [2, `pack${pack}.overTemperature`, 'Cell over temperature', 'Sobretemperatura de celda'],
    [3, `pack${pack}.underTemperature`, 'Cell under temperature', 'Baja temperatura de celda'],
    [4, `pack${pack}.chargeOvercurrent`, 'Charge overcurrent', 'Sobrecorriente de carga'],
    [5, `pack${pack}.dischargeOvercurrent`, 'Discharge overcurrent', 'Sobrecorriente de descarga'],
    [6, `pack${pack}.shortCircuit`, 'Short circuit', 'Cortocircuito'],
    [7, `pack${pack}.communicationLost`, 'Pack communication lost', 'Comunicación con el módulo perdida'],
    [8, `pack${pack}.cellImbalance`, 'Cell imbalance', 'Desequilibrio de celdas', 'warning'],
    [9, `pack${pack}.lowSoh`, 'State of health low', 'Estado de salud bajo', 'warning'],
  ]);

const map = new RegisterMap()
  .at(4, 0, 'realtime')
  .add('slavePackCount', ['Slave packs', 'Módulos esclavos'], 'u16', { required: true })
  .add('bmsState', ['BMS state', 'Estado del BMS'], 'enum', {
    enum: options(
      ['Idle', 'En reposo'],
      ['Charging', 'Cargando'],
      ['Discharging', 'Descargando'],
      ['Fault', 'Fallo'],
      ['Sleep', 'Suspendido'],
    ),
  })
  .add('soc', ['State of charge', 'Estado de carga'], 'u16', { unit: '%', required: true })
  .add('soh', ['State of health', 'Estado de salud'], 'u16', { unit: '%' })
  .add('voltage', ['Voltage', 'Tensión'], 'u16', { unit: 'V', scale: 0.1 })
  .add('current', ['Current (+ discharge)', 'Corriente (+ descarga)'], 's16', { unit: 'A', scale: 0.1 })
  .add('power', ['Power (+ discharge)', 'Potencia (+ descarga)'], 's32', { unit: 'W' })
  .add('chargeVoltageLimit', ['Charge voltage limit', 'Límite de tensión de carga'], 'u16', { unit: 'V', scale: 0.1 })
  .add('chargeCurrentLimit', ['Charge current limit', 'Límite de corriente de carga'], 'u16', { unit: 'A', scale: 0.1 })
  .add('dischargeCurrentLimit', ['Discharge current limit', 'Límite de corriente de descarga'], 'u16', { unit: 'A', scale: 0.1 })
  .add('remainingCapacity', ['Remaining capacity', 'Capacidad restante'], 'u16', { unit: 'Ah', scale: 0.1 })
  .add('fullCapacity', ['Full capacity', 'Capacidad total'], 'u16', { unit: 'Ah', scale: 0.1 })
  .at(4, 20, 'info')
  .add('serialNumber', ['Serial number', 'Número de serie'], 'string', { count: 10, required: true })
  .add('firmware', ['Firmware version', 'Versión de firmware'], 'hex', { count: 2 })
  .add('cellsPerPack', ['Cells per pack', 'Celdas por módulo'], 'u16');

for (let n = 1; n <= MAX_PACKS; n++) {
  const pack = (en: string, es: string) => [`Pack ${n} ${en}`, `Módulo ${n}: ${es}`] as const;
  map
    .at(4, 100 + 20 * (n - 1), 'realtime')
    .add(`pack${n}.soc`, pack('state of charge', 'estado de carga'), 'u16', { unit: '%' })
    .add(`pack${n}.soh`, pack('state of health', 'estado de salud'), 'u16', { unit: '%' })
    .add(`pack${n}.voltage`, pack('voltage', 'tensión'), 'u16', { unit: 'V', scale: 0.01 })
    .add(`pack${n}.current`, pack('current', 'corriente'), 's16', { unit: 'A', scale: 0.01 })
    .add(`pack${n}.cellVoltageMin`, pack('lowest cell voltage', 'tensión mínima de celda'), 'u16', { unit: 'V', scale: 0.001 })
    .add(`pack${n}.cellVoltageMax`, pack('highest cell voltage', 'tensión máxima de celda'), 'u16', { unit: 'V', scale: 0.001 })
    .add(`pack${n}.cellTemperatureMin`, pack('lowest cell temperature', 'temperatura mínima de celda'), 's16', {
      unit: '°C',
      scale: 0.1,
    })
    .add(`pack${n}.cellTemperatureMax`, pack('highest cell temperature', 'temperatura máxima de celda'), 's16', {
      unit: '°C',
      scale: 0.1,
    })
    .add(`pack${n}.cycleCount`, pack('cycle count', 'número de ciclos'), 'u16')
    .add(`pack${n}.faultBits`, pack('faults', 'fallos'), 'bitfield', { bits: packFaults(n) })
    .at(4, 300 + 10 * (n - 1), 'info')
    .add(`pack${n}.serialNumber`, pack('serial number', 'número de serie'), 'string', { count: 8 });
}

map
  .at(3, 0, 'setting:basic')
  .setting('heating', ['Cell heating', 'Calefacción de celdas'], 'enum', { enum: disabledEnabled })
  .setting('sleepSoc', ['Sleep below state of charge', 'Suspender por debajo del estado de carga'], 'u16', {
    unit: '%',
    min: 0,
    max: 30,
  });

export const batteryPack: ProtocolDefinition = {
  id: 'sunfleet-battery',
  name: { en: 'Sunfleet battery system (master and slave packs)', es: 'Sistema de baterías Sunfleet (maestro y esclavos)' },
  version: '1.0',
  kind: 'battery',
  fields: map.fields,
};
