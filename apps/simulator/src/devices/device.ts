// What every virtual device has: a protocol (the same definition the server decodes with),
// a register bank, injected faults, periods off the bus, and a reading encoded through the
// protocol's encoder into the register blocks a gateway uploads.
import { type DeviceFrame, registersToHex, registerVersion } from '@sunfleet/contracts';
import { type FieldValue, type InputValue, type ProtocolPlan, protocolPlan, type RegisterBlock } from '@sunfleet/protocols';
import type { Irradiance, SunPosition } from '../physics/sun.ts';
import type { Weather } from '../physics/weather.ts';
import { hash32, noise, Rng } from '../random.ts';
import { Episodes, type FaultCode, FaultInjector, faultCodes } from './faults.ts';
import { RegisterBank } from './register-bank.ts';
import { initialSettings } from './settings.ts';

/** The public grid the plant is connected to. */
export interface GridSupply {
  /** Nominal frequency, Hz. */
  hz: 50 | 60;
  /** Nominal phase-to-neutral voltage, V. */
  voltage: number;
}

/** Everything a device may sense at one instant. */
export interface Environment {
  t: number;
  /** Days since the epoch in the plant's time zone (energy "today" resets when it changes). */
  localDay: number;
  /** Local hour of day. */
  hour: number;
  /** Local time minus UTC, ms. */
  utcOffsetMs: number;
  sun: SunPosition;
  weather: Weather;
  irradiance: Irradiance;
  /** PV cell temperature, °C. */
  cellC: number;
  grid: GridSupply;
  /** Measured grid voltage and frequency now (small wander around nominal). */
  voltage: number;
  frequency: number;
}

export interface DeviceContext {
  /** Plant seed: devices derive their own from it and their SN. */
  seed: number;
  /** Faults per device per day. */
  faultRate: number;
  /** Periods off the bus per device per day. */
  offlineRate: number;
  /** Days since commissioning: lifetime counters start from a plausible total. */
  ageDays: number;
  grid: GridSupply;
}

export type DeviceKindName = 'hybrid' | 'string' | 'micro' | 'battery' | 'meter' | 'weather';

const MINUTE = 60_000;

export abstract class VirtualDevice {
  abstract readonly kind: DeviceKindName;
  readonly plan: ProtocolPlan;
  readonly bank: RegisterBank;
  readonly faults: FaultInjector;
  /** Active while the device does not answer on the bus. */
  readonly offBus: Episodes;
  protected readonly seed: number;
  protected readonly rng: Rng;
  private info: RegisterBlock[] | undefined;
  /** The firmware registers after an upgrade (its version as bytes), over the nameplate's. */
  private firmware: Record<string, InputValue> = {};
  private lastEnv: Environment | undefined;

  constructor(
    readonly sn: string,
    readonly protocol: string,
    readonly unit: number,
    protected readonly context: DeviceContext,
    settings: Record<string, InputValue>,
    acceptFault: (code: string) => boolean = () => true,
  ) {
    const plan = protocolPlan(protocol);
    if (!plan) throw new Error(`unknown protocol "${protocol}"`);
    this.plan = plan;
    this.seed = hash32(context.seed, sn);
    this.rng = new Rng(this.seed);
    this.bank = new RegisterBank(plan, initialSettings(plan, context.grid, settings));
    const codes: FaultCode[] = faultCodes(plan, acceptFault);
    this.faults = new FaultInjector(new Rng(hash32(this.seed, 'faults')), codes, context.faultRate);
    this.offBus = new Episodes(new Rng(hash32(this.seed, 'bus')), context.offlineRate, 5 * MINUTE, 60 * MINUTE);
    // The device clock registers are set from the last reading's time whenever settings are read.
    if (plan.field('timeYear'))
      this.bank.beforeSettingsRead = () => this.lastEnv && this.bank.storeSettings(clockSettings(this.lastEnv));
  }

  /** Identity and nameplate fields (the `info` group); constant. */
  protected abstract nameplate(): Record<string, InputValue>;

  /** Realtime fields from the device's physical state. */
  protected abstract readings(env: Environment): Record<string, InputValue>;

  /** The field holding the device's firmware version (null: it has none). */
  get firmwareField(): string | null {
    return this.plan.field('controlFirmware') ? 'controlFirmware' : this.plan.field('firmware') ? 'firmware' : null;
  }

  /**
   * The firmware version in its registers, as the portal reads it (`registerVersion`): one byte
   * per number, "01 05 00 00" is 1_5_0_0.
   */
  get firmwareVersion(): string | null {
    const field = this.firmwareField;
    if (!field) return null;
    const hex = (this.firmware[field] ?? this.nameplate()[field]) as string | undefined;
    return hex === undefined ? null : registerVersion(hex);
  }

  /** After an upgrade: the new version in its firmware registers from the next reading on. */
  setFirmwareVersion(version: string): void {
    const field = this.firmwareField;
    if (!field) return;
    const bytes = this.plan.field(field)!.count * 2;
    const numbers = (version.match(/\d+/g) ?? []).map((n) => Math.min(255, Number(n)));
    const hex = Array.from({ length: bytes }, (_, i) => (numbers[i] ?? 0).toString(16).padStart(2, '0')).join(' ');
    this.firmware = { [field]: hex };
    this.info = undefined;
  }

  /** Settings changed by a remote write: take them into account. */
  applySettings(_values: Record<string, FieldValue>): void {}

  /** Take a reading: encode the current state into register blocks and keep them in the bank. */
  read(env: Environment): RegisterBlock[] {
    this.lastEnv = env;
    // The nameplate never changes: encode it once.
    this.info ??= this.plan.encode({ ...this.nameplate(), ...this.firmware }, { groups: ['info'] });
    const realtime = this.plan.encode(this.readings(env), { groups: ['realtime'], faults: this.faults.active });
    const blocks = [...this.info, ...realtime].sort((a, b) => a.functionCode - b.functionCode || a.address - b.address);
    const kept = this.keepBlock ? blocks.filter((b) => this.keepBlock!(b)) : blocks;
    this.bank.setReadings(kept);
    return kept;
  }

  /** A filter for blocks that hold no data on this unit (battery packs that are not fitted). */
  protected keepBlock?: (block: RegisterBlock) => boolean;

  /** The device's part of a data message. */
  frame(env: Environment): DeviceFrame {
    return {
      sn: this.sn,
      protocol: this.protocol,
      unit: this.unit,
      blocks: this.read(env).map((b) => ({ fc: b.functionCode as 3 | 4, addr: b.address, regs: registersToHex(b.registers) })),
    };
  }

  /** Fault and bus episodes move on once per reading. */
  stepEpisodes(t: number, dtMs: number): { busChanged: boolean } {
    this.faults.step(t, dtMs);
    return { busChanged: this.offBus.step(t, dtMs) };
  }

  /** Apply settings written remotely to the bank, then to the device. */
  settingsWritten(): void {
    this.applySettings(this.bank.settings());
  }

  /** Symmetric jitter in ±amplitude, changing every 10 s of simulated time, reproducible. */
  protected jitter(t: number, channel: number, amplitude: number): number {
    return (noise(this.seed, Math.floor(t / 10_000), channel) - 0.5) * 2 * amplitude;
  }
  /**
   * The PV inputs' registers (pv1Voltage, pv1Current, pv1Power, …) for these input powers, W: an
   * input with power sits at `mppV` give or take 1 %, an input without reads 0 V and 0 A.
   */
  protected pvInputReadings(values: Record<string, InputValue>, t: number, powersW: readonly number[], mppV: number): void {
    powersW.forEach((p, i) => {
      const v = p > 0 ? mppV * (1 + this.jitter(t, 10 + i, 0.01)) : 0;
      values[`pv${i + 1}Voltage`] = round(v, 1);
      values[`pv${i + 1}Current`] = v > 0 ? round(p / v, 1) : 0;
      values[`pv${i + 1}Power`] = Math.round(p);
    });
  }
}

function clockSettings(env: Environment): Record<string, InputValue> {
  const local = new Date(env.t + env.utcOffsetMs);
  return {
    timeYear: local.getUTCFullYear(),
    timeMonth: local.getUTCMonth() + 1,
    timeDay: local.getUTCDate(),
    timeHour: local.getUTCHours(),
    timeMinute: local.getUTCMinutes(),
    timeSecond: local.getUTCSeconds(),
  };
}

/** Round to a number of decimals (register scales are decimal, keep the encoder exact). */
export const round = (x: number, decimals = 0) => {
  const f = 10 ** decimals;
  return Math.round(x * f) / f;
};
