// String (grid-tied) inverter, three-phase (`sunfleet-string-3p`, asw settings) or single-phase
// (`sunfleet-string-1p`, mt settings): an array on up to four MPPT inputs, the efficiency
// curve, clipping at rated power, and the power switch and active power limit settings.
import type { InputValue } from '@sunfleet/protocols';
import { EnergyCounter } from '../physics/energy.ts';
import { arrayDcPower, type InverterLosses, inverterLosses, mppVoltage, type PvArray, pvArray } from '../physics/pv.ts';
import { type DeviceContext, type Environment, round } from './device.ts';
import { GridTiedInverter } from './grid-tied-inverter.ts';

export interface StringSpec {
  kind: 'string';
  sn: string;
  unit?: number;
  /** Rated AC power, W. */
  ratedW: number;
  /** Array on this inverter, kWp. */
  pvKwp: number;
  /** MPPT inputs in use, 1..4. */
  mppts?: number;
  /** Grid phases (default 3). */
  phases?: 1 | 3;
}

export class StringInverter extends GridTiedInverter {
  readonly kind = 'string';
  readonly losses: InverterLosses;
  readonly array: PvArray;
  readonly mppts: number;
  readonly phases: 1 | 3;
  private readonly weights: number[];
  protected readonly energy: EnergyCounter;

  constructor(
    readonly spec: StringSpec,
    context: DeviceContext,
  ) {
    const phases = spec.phases ?? 3;
    super(spec.sn, phases === 1 ? 'sunfleet-string-1p' : 'sunfleet-string-3p', spec.unit ?? 1, context, {
      modbusAddress: spec.unit ?? 1,
      activePowerLimit: 100,
      activePowerLimitEnabled: 1,
      powerFactorSetpoint: 1,
    });
    this.phases = phases;
    this.losses = inverterLosses(spec.ratedW);
    this.array = pvArray(spec.pvKwp);
    this.mppts = Math.min(4, Math.max(1, spec.mppts ?? 2));
    this.weights = Array.from({ length: this.mppts }, () => 1 + (this.rng.next() - 0.5) * 0.06);
    const total = this.weights.reduce((a, b) => a + b, 0);
    for (let i = 0; i < this.weights.length; i++) this.weights[i]! /= total;
    this.energy = new EnergyCounter(spec.pvKwp * context.ageDays * 3.4);
    this.applySettings(this.bank.settings());
  }

  /** Convert this step's light into AC power, W. */
  generate(env: Environment): number {
    return this.convert(arrayDcPower(this.array, env.irradiance.poa, env.cellC));
  }

  protected nameplate(): Record<string, InputValue> {
    return {
      deviceType: this.phases === 1 ? 2 : 93,
      serialNumber: this.sn,
      ratedPower: this.spec.ratedW,
      mpptCount: this.mppts,
      firmware: '03 02 00 05',
    };
  }

  protected readings(env: Environment): Record<string, InputValue> {
    const { t } = env;
    const values: Record<string, InputValue> = {
      runningState: this.runningState(),
      gridFrequency: round(env.frequency, 2),
      activePower: Math.round(this.acW),
      reactivePower: Math.round(this.acW * 0.04 * this.jitter(t, 2, 1)),
      powerFactor: this.acW > 0 ? round(0.996 + this.jitter(t, 1, 0.003), 3) : 1,
      inverterTemperature: round(env.weather.ambientC * 0.6 + 12 + (25 * this.acW) / this.spec.ratedW, 1),
      energyToday: this.energy.todayKwh,
      energyTotal: this.energy.totalKwh,
    };
    const voltage = mppVoltage(620, env.cellC, env.irradiance.poa);
    this.pvInputReadings(
      values,
      t,
      this.weights.map((w) => this.dcW * w),
      voltage,
    );
    for (let i = 1; i <= this.phases; i++) {
      const v = env.voltage * (1 + this.jitter(t, 20 + i, 0.004));
      values[`gridVoltageL${i}`] = round(v, 1);
      values[`gridCurrentL${i}`] = round(this.acW / this.phases / v, 2);
    }
    return values;
  }
}
