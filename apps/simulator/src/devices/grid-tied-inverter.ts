// What a grid-tied PV inverter (string or micro) does with its remote settings: the power
// switch and the active power limit, and the running-state register that follows from them.
import type { FieldValue } from '@sunfleet/protocols';
import { VirtualDevice } from './device.ts';

export abstract class GridTiedInverter extends VirtualDevice {
  dcW = 0;
  acW = 0;
  protected limitFraction = 1;
  protected powerOn = true;

  override applySettings(values: Record<string, FieldValue>): void {
    this.powerOn = values.powerSwitch !== 0;
    this.limitFraction = typeof values.activePowerLimit === 'number' ? values.activePowerLimit / 100 : 1;
  }

  get running(): boolean {
    return this.powerOn && !this.faults.tripped;
  }

  /** Running-state register: 5 off, 4 fault, 0 waiting (no light), 3 warning, 2 producing. */
  protected runningState(): number {
    return !this.powerOn ? 5 : this.faults.tripped ? 4 : this.dcW < 1 ? 0 : this.faults.warning ? 3 : 2;
  }
}
