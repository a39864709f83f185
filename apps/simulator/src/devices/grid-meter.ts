// Three-phase energy meter at the grid connection point: it sees the plant's net exchange
// with the grid (+ import), split over the phases, and counts import and export.
import type { InputValue } from '@sunfleet/protocols';
import { BidirectionalCounter, EnergyCounter } from '../physics/energy.ts';
import { type DeviceContext, type Environment, round, VirtualDevice } from './device.ts';

export interface MeterSpec {
  kind: 'meter';
  sn: string;
  unit?: number;
}

export class GridMeter extends VirtualDevice {
  readonly kind = 'meter';
  /** Net power at the connection point, + import, W. */
  gridW = 0;
  /** Reactive power of the building's load, var. */
  reactiveVar = 0;
  private readonly active: BidirectionalCounter;
  private readonly reactive: EnergyCounter;
  private readonly reactiveExport: EnergyCounter;
  private readonly split: [number, number, number];

  constructor(
    readonly spec: MeterSpec,
    context: DeviceContext,
    typicalDailyKwh: number,
  ) {
    super(spec.sn, 'sunfleet-meter-3p', spec.unit ?? 3, context, { ctRatio: 1, modbusAddress: spec.unit ?? 3 });
    const age = context.ageDays;
    this.active = new BidirectionalCounter(age * typicalDailyKwh * 0.45, age * typicalDailyKwh * 0.5);
    this.reactive = new EnergyCounter(age * typicalDailyKwh * 0.1);
    this.reactiveExport = new EnergyCounter(age * typicalDailyKwh * 0.01);
    const a = 0.33 + (this.rng.next() - 0.5) * 0.08;
    const b = 0.33 + (this.rng.next() - 0.5) * 0.08;
    this.split = [a, b, 1 - a - b];
  }

  measure(gridW: number, loadW: number): void {
    this.gridW = gridW;
    this.reactiveVar = 0.18 * loadW;
  }

  record(env: Environment): void {
    this.active.sample(env.t, this.gridW, env.localDay);
    this.reactive.sample(env.t, this.reactiveVar, env.localDay);
    this.reactiveExport.sample(env.t, 0, env.localDay);
  }

  protected nameplate(): Record<string, InputValue> {
    return { serialNumber: this.sn, firmware: '01 02' };
  }

  protected readings(env: Environment): Record<string, InputValue> {
    const { t } = env;
    const p = this.gridW;
    const q = this.reactiveVar;
    const s = Math.hypot(p, q);
    const values: Record<string, InputValue> = {
      activePower: round(p, 1),
      reactivePower: round(q, 1),
      apparentPower: round(s, 1),
      powerFactor: s > 0 ? round(Math.abs(p) / s, 3) : 1,
      frequency: round(env.frequency, 3),
      importEnergy: this.active.import.totalKwh,
      exportEnergy: this.active.export.totalKwh,
      importReactiveEnergy: this.reactive.totalKwh,
      exportReactiveEnergy: this.reactiveExport.totalKwh,
    };
    for (let i = 1; i <= 3; i++) {
      const v = env.voltage * (1 + this.jitter(t, 20 + i, 0.005));
      const share = p * this.split[i - 1]!;
      values[`voltageL${i}`] = round(v, 1);
      values[`currentL${i}`] = round(Math.hypot(share, q / 3) / v, 2);
      values[`activePowerL${i}`] = round(share, 1);
    }
    return values;
  }
}
