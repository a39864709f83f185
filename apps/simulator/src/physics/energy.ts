// Cumulative energy counters as an inverter or meter keeps them: a lifetime total that only
// grows and a "today" that restarts at local midnight. Each update integrates the power
// curve with the trapezoid rule between the previous sample and this one, the same rule
// the tests use to check a day's energy against the power curve.

export class EnergyCounter {
  /** Lifetime energy, kWh. */
  totalKwh: number;
  /** Energy since local midnight, kWh. */
  todayKwh = 0;
  private day = Number.NaN;
  private lastT = Number.NaN;
  private lastW = 0;

  constructor(initialTotalKwh = 0) {
    this.totalKwh = initialTotalKwh;
  }

  /**
   * Add the energy from the previous sample to (t, powerW). Negative power counts as zero:
   * a direction's counter (import, export, charge, discharge) never runs backwards.
   */
  sample(t: number, powerW: number, localDay: number): void {
    const w = powerW > 0 ? powerW : 0;
    if (localDay !== this.day) {
      this.day = localDay;
      this.todayKwh = 0;
    }
    if (t > this.lastT) {
      const kwh = ((this.lastW + w) / 2) * ((t - this.lastT) / 3_600_000_000);
      this.totalKwh += kwh;
      this.todayKwh += kwh;
    }
    if (!(t < this.lastT)) {
      this.lastT = t;
      this.lastW = w;
    }
  }
}

/** Import and export counters fed from one signed power (+ import). */
export class BidirectionalCounter {
  readonly import: EnergyCounter;
  readonly export: EnergyCounter;

  constructor(importKwh = 0, exportKwh = 0) {
    this.import = new EnergyCounter(importKwh);
    this.export = new EnergyCounter(exportKwh);
  }

  sample(t: number, powerW: number, localDay: number): void {
    this.import.sample(t, powerW, localDay);
    this.export.sample(t, -powerW, localDay);
  }
}

/** Trapezoid integral of samples (t in ms, power in W), kWh. */
export function integrateKwh(samples: readonly { t: number; w: number }[]): number {
  let kwh = 0;
  for (let i = 1; i < samples.length; i++) {
    const a = samples[i - 1]!;
    const b = samples[i]!;
    kwh += ((a.w + b.w) / 2) * ((b.t - a.t) / 3_600_000_000);
  }
  return kwh;
}
