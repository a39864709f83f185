// What a grid-tied PV inverter (string or micro) does with its remote settings: the power
// switch (off: no output) and the active power limit (output capped at that share of rated
// power), and the running-state register that follows from them.
import type { FieldValue } from '@sunfleet/protocols';
import type { EnergyCounter } from '../physics/energy.ts';
import { type InverterLosses, pvInverterOutput } from '../physics/pv.ts';
import { type Environment, VirtualDevice } from './device.ts';
import { powerLimitFraction, switchedOn } from './settings.ts';

export abstract class GridTiedInverter extends VirtualDevice {
  dcW = 0;
  acW = 0;
  protected limitFraction = 1;
  protected powerOn = true;
  abstract readonly spec: { ratedW: number };
  abstract readonly losses: InverterLosses;
  protected abstract readonly energy: EnergyCounter;

  override applySettings(values: Record<string, FieldValue>): void {
    this.powerOn = switchedOn(this.plan, values);
    this.limitFraction = powerLimitFraction(this.plan, values, this.spec.ratedW);
  }

  /**
   * The array's maximum power point (DC W) through the inverter: losses, clipped at the rated
   * power times the limit, nothing while off or tripped. Returns the AC power, W.
   */
  protected convert(mppW: number): number {
    const out = this.running ? pvInverterOutput(this.losses, mppW, this.spec.ratedW * this.limitFraction) : { dcW: 0, acW: 0 };
    this.dcW = out.dcW;
    this.acW = out.acW;
    return out.acW;
  }

  record(env: Environment): void {
    this.energy.sample(env.t, this.acW, env.localDay);
  }

  get running(): boolean {
    return this.powerOn && !this.faults.tripped;
  }

  /** Running-state register: 5 off, 4 fault, 0 waiting (no light), 3 warning, 2 producing. */
  protected runningState(): number {
    return !this.powerOn ? 5 : this.faults.tripped ? 4 : this.dcW < 1 ? 0 : this.faults.warning ? 3 : 2;
  }
}
