// A battery (state of charge with charge/discharge efficiency, power limits and SOC bounds)
// and the hybrid inverter's work modes, which decide what the battery is asked to do.
//
// Sign convention everywhere: battery power > 0 discharges (as the register maps say).

export interface BatterySpec {
  capacityKwh: number;
  /** Charge / discharge power limits at the terminals, W. */
  maxChargeW: number;
  maxDischargeW: number;
  /** Energy stored per energy in, and out per energy stored. */
  chargeEfficiency: number;
  dischargeEfficiency: number;
}

export class Battery {
  /** State of charge, 0..1. */
  soc: number;
  /** Discharge floor and charge ceiling, 0..1 (work-mode settings move the floor). */
  floor = 0.1;
  ceiling = 1;
  /** Energy through the terminals so far, kWh (for the cycle count). */
  throughputKwh = 0;

  constructor(
    readonly spec: BatterySpec,
    soc = 0.5,
  ) {
    this.soc = soc;
  }

  /**
   * Clamp a requested terminal power to the limits and to what the SOC allows over `dtMs`;
   * `floor` raises the discharge floor for this request (a time-of-use slot's SOC).
   */
  limit(requestW: number, dtMs: number, floor = this.floor): number {
    const hours = dtMs / 3_600_000;
    if (requestW > 0) {
      const storedKwh = Math.max(0, this.soc - Math.max(this.floor, floor)) * this.spec.capacityKwh;
      const byEnergy = hours > 0 ? (storedKwh * this.spec.dischargeEfficiency * 1000) / hours : Number.POSITIVE_INFINITY;
      return Math.min(requestW, this.spec.maxDischargeW, byEnergy);
    }
    if (requestW < 0) {
      const roomKwh = Math.max(0, this.ceiling - this.soc) * this.spec.capacityKwh;
      const byEnergy = hours > 0 ? (roomKwh * 1000) / this.spec.chargeEfficiency / hours : Number.POSITIVE_INFINITY;
      return -Math.min(-requestW, this.spec.maxChargeW, byEnergy);
    }
    return 0;
  }

  /** Move the SOC by terminal power `powerW` held for `dtMs`. */
  apply(powerW: number, dtMs: number): void {
    const kwh = (powerW * dtMs) / 3_600_000_000;
    const stored = kwh > 0 ? kwh / this.spec.dischargeEfficiency : kwh * this.spec.chargeEfficiency;
    this.soc = Math.min(1, Math.max(0, this.soc - stored / this.spec.capacityKwh));
    this.throughputKwh += Math.abs(kwh);
  }
}

/** Work modes of the hybrid inverter register map (`workModes`). */
export const WorkMode = { sellingFirst: 0, zeroExportToLoad: 1, zeroExportToCt: 2, selfConsumption: 3, timeOfUse: 4 } as const;

/**
 * A time-of-use program slot: from `start` (minutes after local midnight) to the next slot's
 * start. `powerW` caps the battery both ways; above `soc` it discharges at that power (exporting
 * where selling is on), below `soc` with grid charging it charges from the grid at that power.
 */
export interface TouSlot {
  start: number;
  powerW: number;
  /** 0..1. */
  soc: number;
  gridCharge: boolean;
}

/** The slot in force at a local minute of the day: the latest start at or before it, else the last slot of the day before. */
export function touSlotAt(slots: readonly TouSlot[], minute: number): TouSlot | null {
  if (slots.length === 0) return null;
  const sorted = [...slots].sort((a, b) => a.start - b.start);
  let found = sorted.at(-1)!;
  for (const slot of sorted) if (slot.start <= minute) found = slot;
  return found;
}

/** "hhmm" as a register holds it (e.g. 1730) → minutes after midnight; null when it is no time. */
export function hhmmMinutes(hhmm: number): number | null {
  const h = Math.floor(hhmm / 100);
  const m = hhmm % 100;
  return Number.isInteger(hhmm) && h >= 0 && h < 24 && m < 60 ? h * 60 + m : null;
}

/**
 * Remote power control (the PCS's StorCtl_Mod and rates): a controlled direction runs at its
 * power, 0 = not at all; null = not controlled.
 */
export interface ForcedPower {
  dischargeW: number | null;
  chargeW: number | null;
  /** Charging under control may take from the grid (else only a surplus). */
  fromGrid: boolean;
}

export interface DispatchInput {
  mode: number;
  /** PV power available at the DC bus, W. */
  pvDcW: number;
  /** What the inverter should cover at its AC side (the load minus other generation), W; negative = surplus from elsewhere. */
  netLoadW: number;
  soc: number;
  /** Grid export allowed, W (0 for the zero-export modes or when selling is off). */
  exportLimitW: number;
  /** Time of use: the program slot in force now (null: none, self-consumption). */
  slot?: TouSlot | null;
  /** Whether grid charging is enabled at all (a slot charges from the grid only then). */
  gridCharge?: boolean;
  /** The most grid charging may take, W (the grid charge current at the battery voltage). */
  gridChargeW?: number;
  /** Remote power control in force, over any work mode. */
  forced?: ForcedPower | null;
  /** DC power that yields a given AC power through the inverter. */
  dcForAc: (acW: number) => number;
}

/**
 * The battery terminal power (+ discharge) the work mode asks for. Limits and SOC bounds are
 * applied afterwards by `Battery.limit`; export limits and clipping by the inverter.
 */
export function batteryRequest(input: DispatchInput): number {
  const { mode, pvDcW, netLoadW, dcForAc } = input;
  const cover = dcForAc(netLoadW) - pvDcW;
  const forced = input.forced;
  if (forced) {
    if (forced.dischargeW !== null && forced.dischargeW > 0) return forced.dischargeW;
    if (forced.chargeW !== null && forced.chargeW > 0)
      return -(forced.fromGrid ? forced.chargeW : Math.min(forced.chargeW, Math.max(0, -cover)));
    let normal = batteryRequest({ ...input, forced: null });
    if (forced.dischargeW !== null) normal = Math.min(normal, 0);
    if (forced.chargeW !== null) normal = Math.max(normal, 0);
    return normal;
  }
  if (mode === WorkMode.timeOfUse && input.slot) {
    const slot = input.slot;
    const cap = Math.max(0, slot.powerW);
    if (slot.gridCharge && input.gridCharge && input.soc < slot.soc) return -Math.min(cap, input.gridChargeW ?? cap);
    // Above the slot's SOC: discharge at the slot's power where selling is on (the surplus is
    // exported), else only what covers the load. At or below it: no discharge, a surplus charges.
    // A grid-charging slot above its SOC only covers the load.
    const selling = input.exportLimitW > 0 && !slot.gridCharge;
    const wanted = input.soc > slot.soc ? (selling ? cap : Math.min(cap, cover)) : Math.min(0, cover);
    return Math.max(-cap, Math.min(cap, wanted));
  }
  if (mode === WorkMode.sellingFirst) {
    // A deficit is covered from the battery; a surplus is exported up to the limit first and
    // only what is beyond it charges the battery.
    if (cover > 0) return cover;
    return Math.min(0, dcForAc(netLoadW + input.exportLimitW) - pvDcW);
  }
  // Self-consumption, the zero-export modes and time of use without a slot: make the AC side
  // meet the net load exactly; a surplus charges, a deficit discharges.
  return cover;
}

/** How a battery system is built: LFP packs of 16 cells × 100 Ah, in parallel (48 V) or in series (high voltage). */
export interface PackLayout {
  packs: number;
  highVoltage: boolean;
}

export const CELLS_PER_PACK = 16;
export const PACK_AH = 100;
export const CELL_NOMINAL_V = 3.2;

export const packKwh = () => (CELLS_PER_PACK * CELL_NOMINAL_V * PACK_AH) / 1000;
export const systemKwh = (layout: PackLayout) => layout.packs * packKwh();
export const nominalVoltage = (layout: PackLayout) => CELLS_PER_PACK * CELL_NOMINAL_V * (layout.highVoltage ? layout.packs : 1);
export const systemAh = (layout: PackLayout) => PACK_AH * (layout.highVoltage ? 1 : layout.packs);

// LFP open-circuit voltage by state of charge: steep at both ends, flat in between.
const ocvTable: readonly (readonly [soc: number, volts: number])[] = [
  [0, 2.9],
  [0.05, 3.1],
  [0.1, 3.2],
  [0.2, 3.24],
  [0.5, 3.28],
  [0.8, 3.32],
  [0.9, 3.34],
  [0.97, 3.4],
  [1, 3.5],
];

/** Cell voltage at a state of charge and a load (C-rate, + discharge): OCV minus the internal-resistance drop. */
export function lfpCellVoltage(soc: number, cRate = 0): number {
  const s = Math.min(1, Math.max(0, soc));
  let ocv = ocvTable.at(-1)![1];
  for (let i = 1; i < ocvTable.length; i++) {
    const [s1, v1] = ocvTable[i]!;
    if (s <= s1) {
      const [s0, v0] = ocvTable[i - 1]!;
      ocv = v0 + ((v1 - v0) * (s - s0)) / (s1 - s0);
      break;
    }
  }
  return ocv - 0.06 * cRate;
}
