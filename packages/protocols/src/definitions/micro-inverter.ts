// Sunfleet micro-inverter with four panel inputs, single-phase output. Register map written by
// this project.   input registers (4): 0.. info, 100.. realtime;  holding (3): the dyGrid remote
// settings on Deye's micro-inverter registers (deye-settings.ts)
import type { ProtocolDefinition } from '../definition.ts';
import { bits, inverterDeviceTypes, pvInputs, RegisterMap, runningStates } from './build.ts';
import { deyeGridSettings } from './deye-settings.ts';

const microFaults = bits('fault', [
  [0, 'pvOvervoltage', 'Panel input overvoltage', 'Sobretensión de entrada del panel'],
  [1, 'gridOvervoltage', 'Grid overvoltage', 'Sobretensión de red'],
  [2, 'gridUndervoltage', 'Grid undervoltage', 'Subtensión de red'],
  [3, 'gridFrequency', 'Grid frequency out of range', 'Frecuencia de red fuera de rango'],
  [4, 'islanding', 'Islanding detected', 'Funcionamiento en isla detectado'],
  [5, 'overTemperature', 'Over temperature', 'Sobretemperatura'],
  [6, 'groundFault', 'Ground fault', 'Fallo de aislamiento a tierra'],
  [8, 'panelMismatch', 'Panel input mismatch', 'Desequilibrio entre paneles', 'warning'],
]);

/** Nameplate (input registers 0..) and realtime (100..) of a micro-inverter with `panels` inputs. */
export function microInverterMeasurements(panels: number): RegisterMap {
  const map = new RegisterMap()
    .at(4, 0, 'info')
    .add('deviceType', ['Device type', 'Tipo de equipo'], 'enum', { enum: inverterDeviceTypes, required: true })
    .add('serialNumber', ['Serial number', 'Número de serie'], 'string', { count: 6, required: true })
    .add('ratedPower', ['Rated power', 'Potencia nominal'], 'u16', { unit: 'W' })
    .add('firmware', ['Firmware version', 'Versión de firmware'], 'hex', { count: 2 })
    .at(4, 100, 'realtime')
    .add('runningState', ['Running state', 'Estado de funcionamiento'], 'enum', { enum: runningStates, required: true });
  return pvInputs(map, panels)
    .add('acVoltage', ['AC voltage', 'Tensión de CA'], 'u16', { unit: 'V', scale: 0.1 })
    .add('acCurrent', ['AC current', 'Corriente de CA'], 'u16', { unit: 'A', scale: 0.01 })
    .add('gridFrequency', ['Grid frequency', 'Frecuencia de red'], 'u16', { unit: 'Hz', scale: 0.01 })
    .add('activePower', ['Active power', 'Potencia activa'], 'u16', { unit: 'W', required: true })
    .add('temperature', ['Temperature', 'Temperatura'], 's16', { unit: '°C', scale: 0.1 })
    .add('energyToday', ['Generation today', 'Generación hoy'], 'u32', { unit: 'kWh', scale: 0.01 })
    .add('energyTotal', ['Generation total', 'Generación total'], 'u32', { unit: 'kWh', scale: 0.1 })
    .add('faultBits', ['Faults', 'Fallos'], 'bitfield', { bits: microFaults });
}

export const microInverter: ProtocolDefinition = {
  id: 'sunfleet-micro',
  name: { en: 'Sunfleet micro-inverter (4 panels)', es: 'Microinversor Sunfleet (4 paneles)' },
  version: '1.0',
  kind: 'inverter',
  settingFamily: 'dyGrid',
  fields: deyeGridSettings(microInverterMeasurements(4)).fields,
};
