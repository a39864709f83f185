// Micro-inverter with four panels (`sunfleet-micro`, dyGrid settings) or two
// (`sunfleet-micro-2`, uneet settings), each on its own input, single-phase output.
import type { InputValue } from '@sunfleet/protocols';
import { EnergyCounter } from '../physics/energy.ts';
import { arrayDcPower, type InverterLosses, inverterLosses, mppVoltage, type PvArray, pvArray } from '../physics/pv.ts';
import { type DeviceContext, type Environment, round } from './device.ts';
import { GridTiedInverter } from './grid-tied-inverter.ts';

export interface MicroSpec {
  kind: 'micro';
  sn: string;
  unit?: number;
  /** Rated AC power, W (≤ 65535). */
  ratedW: number;
  /** One panel's rating, Wp. */
  panelWp: number;
  /** Panels, one per input (default 4). */
  panels?: 2 | 4;
}

export class MicroInverter extends GridTiedInverter {
  readonly kind = 'micro';
  readonly losses: InverterLosses;
  readonly array: PvArray;
  private readonly weights: number[];
  protected readonly energy: EnergyCounter;

  constructor(
    readonly spec: MicroSpec,
    context: DeviceContext,
  ) {
    const panels = spec.panels ?? 4;
    super(spec.sn, panels === 2 ? 'sunfleet-micro-2' : 'sunfleet-micro', spec.unit ?? 1, context, {
      activePowerLimit: 100,
      powerFactorSetpoint: 1,
    });
    // Micro-inverters convert little power, so their fixed losses weigh more.
    this.losses = { ...inverterLosses(spec.ratedW), standby: 0.006, linear: 0.02 };
    this.array = pvArray((panels * spec.panelWp) / 1000);
    // Panels on one roof still differ a little (shade, soiling, tolerance).
    this.weights = Array.from({ length: panels }, () => (1 / panels) * (1 + (this.rng.next() - 0.5) * 0.1));
    this.energy = new EnergyCounter(this.array.kwp * context.ageDays * 3.4);
    this.applySettings(this.bank.settings());
  }

  generate(env: Environment): number {
    return this.convert(arrayDcPower(this.array, env.irradiance.poa, env.cellC) * this.weights.reduce((a, b) => a + b, 0));
  }

  protected nameplate(): Record<string, InputValue> {
    return { deviceType: 3, serialNumber: this.sn, ratedPower: this.spec.ratedW, firmware: '01 00 03 02' };
  }

  protected readings(env: Environment): Record<string, InputValue> {
    const { t } = env;
    const v = env.voltage * (1 + this.jitter(t, 20, 0.004));
    const values: Record<string, InputValue> = {
      runningState: this.runningState(),
      acVoltage: round(v, 1),
      acCurrent: round(this.acW / v, 2),
      gridFrequency: round(env.frequency, 2),
      activePower: Math.round(this.acW),
      temperature: round(env.cellC + 3 + (8 * this.acW) / this.spec.ratedW, 1),
      energyToday: this.energy.todayKwh,
      energyTotal: this.energy.totalKwh,
    };
    const total = this.weights.reduce((a, b) => a + b, 0);
    const panelV = mppVoltage(34, env.cellC, env.irradiance.poa);
    this.pvInputReadings(
      values,
      t,
      this.weights.map((w) => (this.dcW * w) / total),
      panelV,
    );
    return values;
  }
}
