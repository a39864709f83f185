// The battery's management system (master pack + slave packs) on the bus: it reports the
// battery its hybrid inverter charges and discharges. A fault of the BMS takes the battery
// out of service until it clears.

import type { InputValue, RegisterBlock } from '@sunfleet/protocols';
import { MAX_PACKS } from '@sunfleet/protocols';
import { CELLS_PER_PACK, lfpCellVoltage, type PackLayout, systemAh } from '../physics/battery.ts';
import { type DeviceContext, type Environment, round, VirtualDevice } from './device.ts';
import type { HybridInverter } from './hybrid-inverter.ts';

export interface BatterySpec {
  kind: 'battery';
  sn: string;
  unit?: number;
  /** SN of the hybrid inverter the battery hangs on (default: the gateway's first hybrid with a battery). */
  inverter?: string;
}

export class BatteryPack extends VirtualDevice {
  readonly kind = 'battery';
  readonly layout: PackLayout;
  private readonly packOffsets: { soc: number; cell: number; temp: number; cycles: number }[];

  constructor(
    readonly spec: BatterySpec,
    readonly inverter: HybridInverter,
    context: DeviceContext,
  ) {
    const layout = inverter.spec.battery;
    if (!layout) throw new Error(`battery ${spec.sn}: inverter ${inverter.sn} has no battery`);
    const packs = Math.min(MAX_PACKS, Math.max(1, layout.packs));
    super(spec.sn, 'sunfleet-battery', spec.unit ?? 2, context, { heating: 0, sleepSoc: 5 }, (code) => {
      const pack = /^pack(\d+)\./.exec(code);
      return !pack || Number(pack[1]) <= packs;
    });
    this.layout = { ...layout, packs };
    const cycles = Math.round(context.ageDays * 0.8);
    this.packOffsets = Array.from({ length: packs }, () => ({
      soc: (this.rng.next() - 0.5) * 0.02,
      cell: this.rng.next() * 0.01,
      temp: this.rng.next() * 2,
      cycles: cycles + this.rng.int(0, 5),
    }));
    // Blocks of packs that are not fitted carry nothing: leave them out of the upload.
    this.keepBlock = (block: RegisterBlock) => block.address < 100 + 20 * packs || block.address >= 300;
  }

  /** The inverter may use the battery unless the BMS has tripped. */
  syncAvailability(): void {
    this.inverter.batteryAvailable = !this.faults.tripped;
  }

  protected nameplate(): Record<string, InputValue> {
    const values: Record<string, InputValue> = { serialNumber: this.sn, firmware: '02 03 01 00', cellsPerPack: CELLS_PER_PACK };
    for (let n = 1; n <= this.layout.packs; n++) values[`pack${n}.serialNumber`] = `${this.sn}P${n}`;
    return values;
  }

  protected readings(env: Environment): Record<string, InputValue> {
    const battery = this.inverter.battery!;
    const power = this.inverter.flows.batteryW;
    const voltage = this.inverter.batteryTerminalV;
    const current = voltage > 0 ? power / voltage : 0;
    const cRate = power / (battery.spec.capacityKwh * 1000);
    const soh = 100 - Math.min(15, this.context.ageDays / 300);
    const temperature = 18 + 0.35 * (env.weather.ambientC - 18) + 6 * Math.abs(cRate);
    const packs = this.layout.packs;
    const values: Record<string, InputValue> = {
      slavePackCount: packs - 1,
      bmsState: this.faults.tripped ? 3 : power < -20 ? 1 : power > 20 ? 2 : 0,
      soc: Math.round(battery.soc * 100),
      soh: Math.round(soh),
      voltage: round(voltage, 1),
      current: round(current, 1),
      power: Math.round(power),
      chargeVoltageLimit: round(3.55 * CELLS_PER_PACK * (this.layout.highVoltage ? packs : 1), 1),
      chargeCurrentLimit: round(battery.spec.maxChargeW / Math.max(1, voltage), 1),
      dischargeCurrentLimit: round(battery.spec.maxDischargeW / Math.max(1, voltage), 1),
      remainingCapacity: round(battery.soc * systemAh(this.layout) * (soh / 100), 1),
      fullCapacity: round(systemAh(this.layout) * (soh / 100), 1),
    };
    const packCurrent = this.layout.highVoltage ? current : current / packs;
    for (let n = 1; n <= packs; n++) {
      const o = this.packOffsets[n - 1]!;
      const soc = Math.min(1, Math.max(0, battery.soc + o.soc));
      const cell = lfpCellVoltage(soc, cRate);
      values[`pack${n}.soc`] = Math.round(soc * 100);
      values[`pack${n}.soh`] = Math.round(soh - o.temp);
      values[`pack${n}.voltage`] = round(cell * CELLS_PER_PACK, 2);
      values[`pack${n}.current`] = round(packCurrent, 2);
      values[`pack${n}.cellVoltageMin`] = round(cell - 0.004 - o.cell, 3);
      values[`pack${n}.cellVoltageMax`] = round(cell + 0.004 + o.cell, 3);
      values[`pack${n}.cellTemperatureMin`] = round(temperature + o.temp - 0.8, 1);
      values[`pack${n}.cellTemperatureMax`] = round(temperature + o.temp + 0.9, 1);
      values[`pack${n}.cycleCount`] = o.cycles + Math.floor(battery.throughputKwh / (2 * battery.spec.capacityKwh));
    }
    return values;
  }
}
