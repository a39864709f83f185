// Hybrid (storage) inverter, single- or three-phase: PV and battery on one DC bus, one
// inverter to the AC side. With no PV (`pvKwp` 0) it is the battery inverter of an
// AC-coupled plant. Every step it balances: PV + battery discharge − losses = AC output, and
// the grid covers the rest of the load (grid = load − other generation − AC output).
import type { FieldValue, InputValue } from '@sunfleet/protocols';
import {
  Battery,
  batteryRequest,
  type ForcedPower,
  hhmmMinutes,
  lfpCellVoltage,
  nominalVoltage,
  type PackLayout,
  systemAh,
  systemKwh,
  type TouSlot,
  touSlotAt,
  WorkMode,
} from '../physics/battery.ts';
import { EnergyCounter } from '../physics/energy.ts';
import {
  acFromDc,
  arrayDcPower,
  dcForAc,
  type InverterLosses,
  inverterLosses,
  mppVoltage,
  type PvArray,
  pvArray,
} from '../physics/pv.ts';
import { type DeviceContext, type Environment, round, VirtualDevice } from './device.ts';
import { powerLimitFraction, switchedOn } from './settings.ts';

/**
 * The simulator's work mode from a Deye hybrid's settings: time of use when it is on (bit 0;
 * bits 1..7 the days Monday..Sunday it applies on), the zero-export modes as such, and "export
 * first" as self-consumption (cover the load, charge from the surplus, export the rest up to
 * the sell limit).
 */
function deyeMode(values: Record<string, FieldValue>): number {
  if (typeof values.timeOfUse === 'number' && (values.timeOfUse & 1) !== 0) return WorkMode.timeOfUse;
  if (values.workMode === 1) return WorkMode.zeroExportToLoad;
  if (values.workMode === 2) return WorkMode.zeroExportToCt;
  return WorkMode.selfConsumption;
}

/** A Deye hybrid's six time-of-use program slots (a slot whose start is no time is left out). */
function deyeSlots(values: Record<string, FieldValue>): TouSlot[] {
  const slots: TouSlot[] = [];
  for (let i = 1; i <= 6; i++) {
    const start = hhmmMinutes(Number(values[`program${i}Time`]));
    if (start === null) continue;
    const charging = Number(values[`program${i}Charging`]);
    slots.push({
      start,
      powerW: Number(values[`program${i}Power`]) || 0,
      soc: (Number(values[`program${i}Soc`]) || 0) / 100,
      gridCharge: (charging & 1) === 1,
    });
  }
  return slots;
}

/** The PCS's remote power control (StorCtl_Mod bit 0 charge, bit 1 discharge, rates in % of WChaMax); null when off. */
function storageControl(values: Record<string, FieldValue>): (ForcedPower & { revertS: number }) | null {
  const mode = Number(values.storageControl) || 0;
  if (mode === 0) return null;
  const base = Number(values.storageMaxPower) || 0;
  const rate = (key: string) => (Math.max(0, Number(values[key]) || 0) / 100) * base;
  return {
    chargeW: mode & 1 ? rate('chargeRate') : null,
    dischargeW: mode & 2 ? rate('dischargeRate') : null,
    fromGrid: values.chargeFromGrid === 1,
    revertS: Number(values.rateRevertTime) || 0,
  };
}

export interface HybridSpec {
  kind: 'hybrid';
  sn: string;
  unit?: number;
  phases: 1 | 3;
  /** Rated AC power, W. */
  ratedW: number;
  /** PV on this inverter's MPPT inputs, kWp (0: battery inverter only). */
  pvKwp: number;
  /** MPPT inputs in use, 1..4. */
  mppts?: number;
  /** The battery on the DC bus, if any. */
  battery?: PackLayout;
  /** A three-phase storage inverter without PV inputs (`sunfleet-pcs-3p`, gy settings) instead of a hybrid. */
  pcs?: boolean;
}

interface Flows {
  pvDcW: number;
  batteryW: number;
  acW: number;
  loadW: number;
  /** At this inverter's CT, + import. */
  gridW: number;
}

export class HybridInverter extends VirtualDevice {
  readonly kind = 'hybrid';
  readonly losses: InverterLosses;
  readonly array: PvArray | null;
  readonly battery: Battery | null;
  /** Cleared while the battery's own management system is faulted: the inverter leaves it alone. */
  batteryAvailable = true;
  readonly mppts: number;
  flows: Flows = { pvDcW: 0, batteryW: 0, acW: 0, loadW: 0, gridW: 0 };
  private mode: number = WorkMode.selfConsumption;
  private exportLimitW: number;
  private gridChargeW = 0;
  private gridCharge = false;
  private touDays = 0;
  private slots: TouSlot[] = [];
  private forced: (ForcedPower & { revertS: number }) | null = null;
  private forcedKey = '';
  /** When the remote power control in force was written (set at the first step after). */
  private forcedSince: number | null = null;
  private powerOn = true;
  /** The most the inverter may put out (or take in), W: rated power under the active power limit. */
  private outputCapW: number;
  private readonly batteryVoltage: number;
  private readonly weights: number[];
  private readonly counters;

  constructor(
    readonly spec: HybridSpec,
    context: DeviceContext,
  ) {
    const layout = spec.battery;
    const vNominal = layout ? nominalVoltage(layout) : 51.2;
    const hardwareW = layout ? Math.min(spec.ratedW, systemKwh(layout) * 1000 * 0.7) : 0;
    const amps = Math.min(240, Math.round(hardwareW / vNominal));
    const protocol = spec.pcs ? 'sunfleet-pcs-3p' : spec.phases === 1 ? 'sunfleet-hybrid-1p' : 'sunfleet-hybrid-3p';
    super(spec.sn, protocol, spec.unit ?? 1, context, {
      modbusAddress: spec.unit ?? 1,
      gridStandard: context.grid.hz === 50 ? 1 : 0,
      batteryType: layout ? 1 : spec.pcs ? 2 : 0,
      batteryOperationMode: layout ? 1 : 2,
      batteryCapacity: layout ? systemAh(layout) : 0,
      maxChargeCurrent: amps,
      maxDischargeCurrent: amps,
      batteryShutdownSoc: 5,
      batteryLowSoc: 10,
      batteryRestartSoc: 20,
      batteryMaxSoc: 100,
      // Self-consumption: Deye's "export first" with load first; the PCS's own mode numbers.
      workMode: spec.pcs ? WorkMode.selfConsumption : 0,
      energyPattern: 1,
      maxSellPower: spec.ratedW,
      solarSell: 1,
      timeOfUse: 0,
      activePowerLimit: spec.pcs ? 100 : spec.ratedW,
      gridCharge: 0,
      gridChargeCurrent: Math.min(amps, Math.round(amps / 2)),
      peakShavingPower: spec.ratedW,
      smartLoadOnSoc: 90,
      smartLoadOffSoc: 60,
      powerFactorSetpoint: 1,
      arcDetection: 1,
      arcSensitivity: 5,
      // The PCS's remote power control: off, its rates a share of the rated power.
      storageMaxPower: spec.ratedW,
      storageControl: 0,
    });
    this.losses = inverterLosses(spec.ratedW);
    this.array = spec.pvKwp > 0 ? pvArray(spec.pvKwp) : null;
    this.mppts = this.array ? Math.min(4, Math.max(1, spec.mppts ?? 2)) : 0;
    this.batteryVoltage = vNominal;
    this.battery = layout
      ? new Battery(
          {
            capacityKwh: systemKwh(layout),
            maxChargeW: hardwareW,
            maxDischargeW: hardwareW,
            chargeEfficiency: 0.97,
            dischargeEfficiency: 0.97,
          },
          0.3 + 0.4 * this.rng.next(),
        )
      : null;
    this.exportLimitW = spec.ratedW;
    this.outputCapW = spec.ratedW;
    this.weights = Array.from({ length: this.mppts }, () => 1 + (this.rng.next() - 0.5) * 0.08);
    const total = this.weights.reduce((a, b) => a + b, 0);
    for (let i = 0; i < this.weights.length; i++) this.weights[i]! /= total;
    const age = context.ageDays;
    const yearly = (spec.pvKwp || spec.ratedW / 1000) * age;
    this.counters = {
      pv: new EnergyCounter(spec.pvKwp * age * 3.6),
      gridImport: new EnergyCounter(yearly * 1.2),
      gridExport: new EnergyCounter(spec.pvKwp * age * 1.1),
      charge: new EnergyCounter(layout ? systemKwh(layout) * age * 0.55 : 0),
      discharge: new EnergyCounter(layout ? systemKwh(layout) * age * 0.5 : 0),
      load: new EnergyCounter(yearly * 2.6),
    };
    this.applySettings(this.bank.settings());
  }

  override applySettings(values: Record<string, FieldValue>): void {
    const n = (key: string, fallback: number) => (typeof values[key] === 'number' ? (values[key] as number) : fallback);
    this.powerOn = switchedOn(this.plan, values);
    this.outputCapW = this.spec.ratedW * Math.min(1, powerLimitFraction(this.plan, values, this.spec.ratedW));
    this.mode = this.spec.pcs ? n('workMode', WorkMode.selfConsumption) : deyeMode(values);
    const selling = n('solarSell', 1) !== 0;
    const zeroExport = this.mode === WorkMode.zeroExportToLoad || this.mode === WorkMode.zeroExportToCt;
    this.exportLimitW = zeroExport || !selling ? 0 : n('maxSellPower', this.spec.ratedW);
    this.gridCharge = n('gridCharge', 0) !== 0;
    this.gridChargeW = n('gridChargeCurrent', 0) * this.batteryVoltage;
    this.touDays = n('timeOfUse', 0);
    this.slots = this.spec.pcs ? [] : deyeSlots(values);
    const forced = this.spec.pcs ? storageControl(values) : null;
    const key = JSON.stringify(forced);
    if (key !== this.forcedKey) this.forcedSince = null;
    this.forcedKey = key;
    this.forced = forced;
    if (this.battery) {
      this.battery.floor = Math.min(0.9, n('batteryLowSoc', 10) / 100);
      const hardware = Math.min(this.spec.ratedW, this.battery.spec.capacityKwh * 700);
      this.battery.spec.maxChargeW = Math.min(hardware, n('maxChargeCurrent', 0) * this.batteryVoltage);
      this.battery.spec.maxDischargeW = Math.min(hardware, n('maxDischargeCurrent', 0) * this.batteryVoltage);
    }
  }

  /** The time-of-use slot in force at this local time, null on a day time of use is off. */
  private slotAt(env: Environment): TouSlot | null {
    const weekday = (env.localDay + 4) % 7; // 0 = Sunday; the days are bits 1 (Monday) .. 7 (Sunday)
    if ((this.touDays & (1 << (weekday === 0 ? 7 : weekday))) === 0) return null;
    return touSlotAt(this.slots, Math.floor(env.hour * 60));
  }

  /** The remote power control in force at `t`: lapsed once its revert time has passed since it was written. */
  private forcedAt(t: number): ForcedPower | null {
    if (!this.forced) return null;
    this.forcedSince ??= t;
    return this.forced.revertS > 0 && t - this.forcedSince >= this.forced.revertS * 1000 ? null : this.forced;
  }

  /** The output cap in force, W (tests). */
  get outputLimitW(): number {
    return this.outputCapW;
  }

  /** The mode and export limit in force (tests and the fleet's stats). */
  get workMode(): { mode: number; exportLimitW: number } {
    return { mode: this.mode, exportLimitW: this.exportLimitW };
  }

  get running(): boolean {
    return this.powerOn && !this.faults.tripped;
  }

  /**
   * Decide this step's flows. `netLoadW`: what the AC side should supply (load share minus
   * other inverters' output; negative = surplus from elsewhere). Returns the AC output, W.
   */
  dispatch(env: Environment, netLoadW: number, loadW: number, dtMs: number): number {
    const mpp = this.array ? arrayDcPower(this.array, env.irradiance.poa, env.cellC) : 0;
    let pvDc = 0;
    let battery = 0;
    let ac = 0;
    if (this.running) {
      const inv = this.losses;
      const toDc = (w: number) => dcForAc(inv, w);
      const usable = this.battery && this.batteryAvailable ? this.battery : null;
      pvDc = mpp;
      if (usable) {
        const slot = this.mode === WorkMode.timeOfUse ? this.slotAt(env) : null;
        const request = batteryRequest({
          mode: this.mode,
          pvDcW: pvDc,
          netLoadW,
          soc: usable.soc,
          exportLimitW: this.exportLimitW,
          slot,
          gridCharge: this.gridCharge,
          gridChargeW: this.gridChargeW,
          forced: this.forcedAt(env.t),
          dcForAc: toDc,
        });
        battery = usable.limit(request, dtMs, slot ? slot.soc : usable.floor);
      }
      const rated = Math.min(inv.ratedW, this.outputCapW);
      // The inverter's rating caps the AC side: stop discharging first, then curtail PV.
      if (acFromDc(inv, pvDc + battery) > rated) {
        if (battery > 0) battery = Math.max(0, toDc(rated) - pvDc);
        if (acFromDc(inv, pvDc + battery) > rated) pvDc = Math.max(0, toDc(rated) - battery);
      } else if (acFromDc(inv, pvDc + battery) < -rated) {
        battery = toDc(-rated) - pvDc;
      }
      // Export limit: again stop discharging first, then curtail PV.
      const allowed = netLoadW + this.exportLimitW;
      if (acFromDc(inv, pvDc + battery) > allowed + 0.5) {
        if (battery > 0) battery = Math.max(0, toDc(allowed) - pvDc);
        if (acFromDc(inv, pvDc + battery) > allowed + 0.5) pvDc = Math.max(0, toDc(Math.max(0, allowed)) - battery);
      }
      ac = pvDc + battery === 0 ? 0 : acFromDc(inv, pvDc + battery);
    }
    this.battery?.apply(battery, dtMs);
    this.flows = { pvDcW: pvDc, batteryW: battery, acW: ac, loadW, gridW: netLoadW - ac };
    return ac;
  }

  /** Integrate the counters up to this instant. */
  record(env: Environment): void {
    const { t, localDay } = env;
    const f = this.flows;
    this.counters.pv.sample(t, f.pvDcW, localDay);
    this.counters.gridImport.sample(t, f.gridW, localDay);
    this.counters.gridExport.sample(t, -f.gridW, localDay);
    this.counters.discharge.sample(t, f.batteryW, localDay);
    this.counters.charge.sample(t, -f.batteryW, localDay);
    this.counters.load.sample(t, f.loadW, localDay);
  }

  /** Battery terminal voltage now. */
  get batteryTerminalV(): number {
    if (!this.battery || !this.spec.battery) return 0;
    const cRate = this.flows.batteryW / (this.battery.spec.capacityKwh * 1000);
    const seriesCells = (this.batteryVoltage / 3.2) | 0;
    return seriesCells * lfpCellVoltage(this.battery.soc, cRate);
  }

  protected nameplate(): Record<string, InputValue> {
    return {
      deviceType: this.spec.phases === 1 && !this.spec.pcs ? 2 : this.spec.battery?.highVoltage ? 94 : 93,
      protocolVersion: 1,
      serialNumber: this.sn,
      ratedPower: this.spec.ratedW,
      mpptCount: this.mppts,
      phaseCount: this.spec.phases,
      controlFirmware: '01 04 02 11',
      commFirmware: '02 01 00 07',
    };
  }

  protected readings(env: Environment): Record<string, InputValue> {
    const { t } = env;
    const f = this.flows;
    const values: Record<string, InputValue> = {
      runningState: this.runningState(),
      gridFrequency: round(env.frequency, 2),
      gridActivePower: Math.round(-f.gridW),
      activePower: Math.round(f.acW),
      loadPower: Math.round(f.loadW),
      powerFactor: f.acW === 0 ? 1 : round(0.995 + this.jitter(t, 1, 0.004), 3),
      inverterTemperature: round(env.weather.ambientC * 0.5 + 14 + (22 * Math.abs(f.acW)) / this.spec.ratedW, 1),
    };
    values.gridReactivePower = Math.round(f.acW * 0.05 * this.jitter(t, 2, 1));
    values.heatsinkTemperature = round((values.inverterTemperature as number) + 4 + (6 * Math.abs(f.acW)) / this.spec.ratedW, 1);
    const vmp = this.spec.phases === 1 ? 360 : 560;
    const voltage = mppVoltage(vmp, env.cellC, env.irradiance.poa);
    this.pvInputReadings(
      values,
      t,
      this.weights.slice(0, this.mppts).map((w) => f.pvDcW * w),
      voltage,
    );
    const phases = this.spec.phases;
    for (let i = 1; i <= phases; i++) {
      const v = env.voltage * (1 + this.jitter(t, 20 + i, 0.004));
      values[`gridVoltageL${i}`] = round(v, 1);
      values[`gridCurrentL${i}`] = round(f.acW / phases / v, 2);
    }
    if (this.battery) {
      const v = this.batteryTerminalV;
      values.batteryVoltage = round(v, 2);
      values.batteryCurrent = v > 0 ? round(f.batteryW / v, 1) : 0;
      values.batteryPower = Math.round(f.batteryW);
      values.batterySoc = Math.round(this.battery.soc * 100);
      values.batteryTemperature = round(
        18 + 0.35 * (env.weather.ambientC - 18) + (4 * Math.abs(f.batteryW)) / this.spec.ratedW,
        1,
      );
    }
    const c = this.counters;
    for (const [key, counter] of [
      ['pvEnergy', c.pv],
      ['gridImportEnergy', c.gridImport],
      ['gridExportEnergy', c.gridExport],
      ['batteryChargeEnergy', c.charge],
      ['batteryDischargeEnergy', c.discharge],
      ['loadEnergy', c.load],
    ] as const) {
      values[`${key}Today`] = counter.todayKwh;
      values[`${key}Total`] = counter.totalKwh;
    }
    return values;
  }

  private runningState(): number {
    if (!this.powerOn) return 5;
    if (this.faults.tripped) return 4;
    if (this.flows.pvDcW < 1 && Math.abs(this.flows.batteryW) < 1) return 0;
    return this.faults.warning ? 3 : 2;
  }
}
