// Sunfleet three-phase energy meter: instantaneous values as IEEE-754 float32 (as most
// DIN-rail meters publish them), energy counters as u32 in 0.01 kWh. Register map written by
// this project.   input registers (4): 0.. realtime, 100.. energy, 200.. info;  holding (3): 0.. settings
import type { ProtocolDefinition } from '../definition.ts';
import { bits, RegisterMap } from './build.ts';

const map = new RegisterMap().at(4, 0, 'realtime');
for (let i = 1; i <= 3; i++) map.add(`voltageL${i}`, [`Voltage L${i}`, `Tensión L${i}`], 'float32', { unit: 'V' });
for (let i = 1; i <= 3; i++) map.add(`currentL${i}`, [`Current L${i}`, `Corriente L${i}`], 'float32', { unit: 'A' });
for (let i = 1; i <= 3; i++)
  map.add(`activePowerL${i}`, [`Active power L${i}`, `Potencia activa L${i}`], 'float32', { unit: 'W' });
map
  .add('activePower', ['Total active power (+ import)', 'Potencia activa total (+ importación)'], 'float32', {
    unit: 'W',
    required: true,
  })
  .add('reactivePower', ['Total reactive power', 'Potencia reactiva total'], 'float32', { unit: 'var' })
  .add('apparentPower', ['Total apparent power', 'Potencia aparente total'], 'float32', { unit: 'VA' })
  .add('powerFactor', ['Power factor', 'Factor de potencia'], 'float32')
  .add('frequency', ['Frequency', 'Frecuencia'], 'float32', { unit: 'Hz' })
  .add('statusBits', ['Status', 'Estado'], 'bitfield', {
    bits: bits('warning', [
      [0, 'phaseLoss', 'Phase loss', 'Pérdida de fase'],
      [1, 'reversedCurrent', 'Current transformer reversed', 'Transformador de corriente invertido'],
      [2, 'phaseSequence', 'Wrong phase sequence', 'Secuencia de fases incorrecta'],
    ]),
  })
  .at(4, 100, 'realtime')
  .add('importEnergy', ['Imported energy', 'Energía importada'], 'u32', { unit: 'kWh', scale: 0.01, required: true })
  .add('exportEnergy', ['Exported energy', 'Energía exportada'], 'u32', { unit: 'kWh', scale: 0.01, required: true })
  .add('importReactiveEnergy', ['Imported reactive energy', 'Energía reactiva importada'], 'u32', { unit: 'kvarh', scale: 0.01 })
  .add('exportReactiveEnergy', ['Exported reactive energy', 'Energía reactiva exportada'], 'u32', { unit: 'kvarh', scale: 0.01 })
  .at(4, 200, 'info')
  .add('serialNumber', ['Serial number', 'Número de serie'], 'string', { count: 8, required: true })
  .add('firmware', ['Firmware version', 'Versión de firmware'], 'hex', { count: 1 })
  .at(3, 0, 'setting:meter')
  .setting('ctRatio', ['Current transformer ratio', 'Relación del transformador de corriente'], 'u16', { min: 1, max: 5000 })
  .setting('modbusAddress', ['Modbus address', 'Dirección Modbus'], 'u16', { min: 1, max: 247 });

export const threePhaseMeter: ProtocolDefinition = {
  id: 'sunfleet-meter-3p',
  name: { en: 'Sunfleet three-phase meter', es: 'Contador trifásico Sunfleet' },
  version: '1.0',
  kind: 'meter',
  fields: map.fields,
};
