// Sunfleet three-phase storage inverter (PCS, battery only, AC-coupled), the `gy` remote-setting
// family. Register map written by this project; the battery controls follow SunSpec's storage
// controls (model 124: WChaMax, ramps, MinRsvPct, ChaGriSet).
//   input registers (4):   0.. info, 100.. realtime, 150.. energy (as the hybrid inverters, without
//                          their PV inputs at 101..112)
//   holding registers (3): 0 basicSetting, 10 pcsWorkModel, 30 gridProtect, 40 gridProtectTime,
//                          50 freqParam, 60 powerFactor, 70 sysMeter, 80 setBattery, 90 sysTime,
//                          100 setBattery: remote power control (SunSpec model 124's storage
//                          controls: StorCtl_Mod, rates), with the battery settings
import type { ProtocolDefinition } from '../definition.ts';
import { disabledEnabled, offOn, options, systemTime } from './build.ts';
import { frequencyWatt, hertz, percentOfRated, powerFactorControls, tripTime, volts } from './family-settings.ts';
import { storageInverterMeasurements, workModes } from './hybrid-inverter.ts';

const map = storageInverterMeasurements(3, false)
  .at(3, 0, 'setting:basicSetting')
  .setting('powerSwitch', ['Power on/off', 'Encendido/apagado'], 'enum', { enum: offOn })
  .setting('modbusAddress', ['Modbus address', 'Dirección Modbus'], 'u16', { min: 1, max: 247 })
  .setting('gridStandard', ['Grid code', 'Norma de red'], 'enum', {
    enum: options(
      ['General', 'General'],
      ['EN 50549', 'EN 50549'],
      ['VDE 4105', 'VDE 4105'],
      ['RD 1699 (Spain)', 'RD 1699 (España)'],
    ),
  })
  .at(3, 10, 'setting:pcsWorkModel')
  .setting('workMode', ['Work mode', 'Modo de trabajo'], 'enum', { enum: workModes })
  .setting('activePowerLimit', ['Active power limit', 'Límite de potencia activa'], 'u16', percentOfRated())
  .setting('maxChargePower', ['Max charge power', 'Potencia máxima de carga'], 'u16', {
    unit: 'W',
    scale: 10,
    min: 0,
    max: 100000,
    step: 10,
  })
  .setting('chargeRamp', ['Charge ramp', 'Rampa de carga'], 'u16', { unit: '%/s', scale: 0.1, min: 0.1, max: 100, step: 0.1 })
  .setting('dischargeRamp', ['Discharge ramp', 'Rampa de descarga'], 'u16', {
    unit: '%/s',
    scale: 0.1,
    min: 0.1,
    max: 100,
    step: 0.1,
  })
  .setting('chargeSource', ['Charge from', 'Cargar desde'], 'enum', {
    enum: options(['PV only', 'Solo FV'], ['Grid too', 'También red']),
  })
  .at(3, 30, 'setting:gridProtect')
  .setting('overVoltage1', ['Overvoltage stage 1', 'Sobretensión etapa 1'], 'u16', volts(100, 300))
  .setting('overVoltage2', ['Overvoltage stage 2', 'Sobretensión etapa 2'], 'u16', volts(100, 300))
  .setting('underVoltage1', ['Undervoltage stage 1', 'Subtensión etapa 1'], 'u16', volts(50, 250))
  .setting('underVoltage2', ['Undervoltage stage 2', 'Subtensión etapa 2'], 'u16', volts(50, 250))
  .at(3, 40, 'setting:gridProtectTime')
  .setting('overVoltage1Time', ['Overvoltage stage 1: clearing time', 'Sobretensión etapa 1: tiempo de disparo'], 'u16', tripTime)
  .setting('overVoltage2Time', ['Overvoltage stage 2: clearing time', 'Sobretensión etapa 2: tiempo de disparo'], 'u16', tripTime)
  .setting('underVoltage1Time', ['Undervoltage stage 1: clearing time', 'Subtensión etapa 1: tiempo de disparo'], 'u16', tripTime)
  .setting('underVoltage2Time', ['Undervoltage stage 2: clearing time', 'Subtensión etapa 2: tiempo de disparo'], 'u16', tripTime)
  .at(3, 50, 'setting:freqParam')
  .setting('overFrequency', ['Overfrequency trip', 'Disparo por sobrefrecuencia'], 'u16', hertz(50, 65))
  .setting('overFrequencyTime', ['Overfrequency clearing time', 'Tiempo de disparo por sobrefrecuencia'], 'u16', tripTime)
  .setting('underFrequency', ['Underfrequency trip', 'Disparo por subfrecuencia'], 'u16', hertz(45, 60))
  .setting('underFrequencyTime', ['Underfrequency clearing time', 'Tiempo de disparo por subfrecuencia'], 'u16', tripTime);
frequencyWatt(map);
powerFactorControls(map.at(3, 60, 'setting:powerFactor'));
map
  .at(3, 70, 'setting:sysMeter')
  .setting('meterType', ['Meter', 'Medidor'], 'enum', {
    enum: options(['None', 'Ninguno'], ['Single-phase meter', 'Medidor monofásico'], ['Three-phase meter', 'Medidor trifásico']),
  })
  .setting('meterPosition', ['Meter position', 'Posición del medidor'], 'enum', {
    enum: options(['Grid connection', 'Punto de conexión a red'], ['Load', 'Consumo']),
  })
  .setting('ctRatio', ['CT ratio', 'Relación del transformador de corriente'], 'u16', { min: 1, max: 1000 })
  .setting('antiBackflow', ['Zero export', 'Exportación cero'], 'enum', { enum: disabledEnabled })
  .setting('antiBackflowPower', ['Zero export margin', 'Margen de exportación cero'], 'u16', {
    unit: 'W',
    min: 0,
    max: 10000,
    step: 10,
  })
  .at(3, 80, 'setting:setBattery')
  .setting('batteryType', ['Battery type', 'Tipo de batería'], 'enum', {
    enum: options(['Lead-acid', 'Plomo-ácido'], ['Lithium', 'Litio'], ['No battery', 'Sin batería']),
  })
  .setting('batteryCapacity', ['Battery capacity', 'Capacidad de batería'], 'u16', { unit: 'Ah', min: 0, max: 2000 })
  .setting('maxChargeCurrent', ['Max charge current', 'Corriente máxima de carga'], 'u16', { unit: 'A', min: 0, max: 240 })
  .setting('maxDischargeCurrent', ['Max discharge current', 'Corriente máxima de descarga'], 'u16', {
    unit: 'A',
    min: 0,
    max: 240,
  })
  .setting('batteryLowSoc', ['Minimum reserve', 'Reserva mínima'], 'u16', { unit: '%', min: 0, max: 100 })
  .setting('batteryMaxSoc', ['Charge up to', 'Cargar hasta'], 'u16', { unit: '%', min: 50, max: 100 });
systemTime(map.at(3, 90, 'setting:sysTime'));
// Remote power control with the battery settings, SunSpec model 124's points in its order (WChaMax, StorCtl_Mod, OutWRte,
// InWRte, InOutWRte_RvrtTms, ChaGriSet). StorCtl_Mod bit 0 puts charging under InWRte, bit 1
// discharging under OutWRte; a rate is a share of WChaMax, and a controlled direction runs at
// its rate (0 %: not at all). InOutWRte_RvrtTms > 0: the rates lapse that many seconds after
// they were written (0: until written again).
const rate = { unit: '%', scale: 0.1, min: -100, max: 100, step: 0.1 } as const;
map
  .at(3, 100, 'setting:setBattery')
  .setting('storageMaxPower', ['Rate base (WChaMax)', 'Base de las tasas (WChaMax)'], 'u16', {
    unit: 'W',
    scale: 10,
    min: 0,
    max: 100000,
    step: 10,
  })
  .setting('storageControl', ['Storage control (StorCtl_Mod)', 'Control del almacenamiento (StorCtl_Mod)'], 'enum', {
    enum: options(
      ['Off', 'Desactivado'],
      ['Charge rate', 'Tasa de carga'],
      ['Discharge rate', 'Tasa de descarga'],
      ['Charge and discharge rates', 'Tasas de carga y descarga'],
    ),
  })
  .setting('dischargeRate', ['Discharge rate (OutWRte)', 'Tasa de descarga (OutWRte)'], 's16', rate)
  .setting('chargeRate', ['Charge rate (InWRte)', 'Tasa de carga (InWRte)'], 's16', rate)
  // 0xFFFF is SunSpec's "not implemented" for a uint16 (read as no value): the longest time is one less.
  .setting('rateRevertTime', ['Rates lapse after (InOutWRte_RvrtTms)', 'Las tasas caducan tras (InOutWRte_RvrtTms)'], 'u16', {
    unit: 's',
    min: 0,
    max: 65534,
  })
  .setting('chargeFromGrid', ['Charge from (ChaGriSet)', 'Cargar desde (ChaGriSet)'], 'enum', {
    enum: options(['PV', 'FV'], ['Grid', 'Red']),
  });

export const pcsInverter: ProtocolDefinition = {
  id: 'sunfleet-pcs-3p',
  name: { en: 'Sunfleet three-phase storage inverter (PCS)', es: 'Inversor de almacenamiento trifásico Sunfleet (PCS)' },
  version: '1.0',
  kind: 'inverter',
  settingFamily: 'gy',
  fields: map.fields,
};
