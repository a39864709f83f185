// Things going wrong, at configurable rates: fault and warning bits that are raised for a
// while and then clear (the device's own bitfields, so the server decodes real codes), and
// periods when a device stops answering on the bus or a gateway drops off the network.
import type { BitLevel, ProtocolPlan } from '@sunfleet/protocols';
import type { Rng } from '../random.ts';

const DAY = 86_400_000;
const MINUTE = 60_000;

/** Random on/off episodes: starts at `ratePerDay` on average, each lasting minMs..maxMs. */
export class Episodes {
  active = false;
  until = 0;

  constructor(
    private readonly rng: Rng,
    private readonly ratePerDay: number,
    private readonly minMs: number,
    private readonly maxMs: number,
  ) {}

  /** Advance by `dtMs` ending at `t`; true when the state changed. */
  step(t: number, dtMs: number): boolean {
    if (this.active) {
      if (t < this.until) return false;
      this.active = false;
      return true;
    }
    if (this.ratePerDay <= 0 || !this.rng.chance(1 - Math.exp((-this.ratePerDay * dtMs) / DAY))) return false;
    this.start(t, this.rng.range(this.minMs, this.maxMs));
    return true;
  }

  start(t: number, durationMs: number): void {
    this.active = true;
    this.until = t + durationMs;
  }
}

export interface FaultCode {
  code: string;
  level: BitLevel;
}

/** Every bit code a protocol defines, with its level. */
export function faultCodes(plan: ProtocolPlan, accept: (code: string) => boolean = () => true): FaultCode[] {
  const codes: FaultCode[] = [];
  for (const field of plan.definition.fields) {
    for (const bit of Object.values(field.bits ?? {})) if (accept(bit.code)) codes.push({ code: bit.code, level: bit.level });
  }
  return codes;
}

/** One fault or warning at a time per device, raised at `ratePerDay`, 10 minutes to 2 hours long. */
export class FaultInjector {
  private readonly episodes: Episodes;
  private current: FaultCode | null = null;

  constructor(
    private readonly rng: Rng,
    private readonly codes: readonly FaultCode[],
    ratePerDay: number,
  ) {
    this.episodes = new Episodes(rng, codes.length > 0 ? ratePerDay : 0, 10 * MINUTE, 120 * MINUTE);
  }

  /** Codes to set in the device's bitfields now. */
  get active(): string[] {
    return this.current ? [this.current.code] : [];
  }

  /** A fault-level code is active: the device trips (stops converting). */
  get tripped(): boolean {
    return this.current?.level === 'fault';
  }

  get warning(): boolean {
    return this.current !== null && this.current.level !== 'fault';
  }

  step(t: number, dtMs: number): void {
    if (!this.episodes.step(t, dtMs)) return;
    if (!this.episodes.active) {
      this.current = null;
      return;
    }
    // Warnings are several times more common than trips in the field.
    const warnings = this.codes.filter((c) => c.level !== 'fault');
    const faults = this.codes.filter((c) => c.level === 'fault');
    const pool = warnings.length > 0 && (faults.length === 0 || this.rng.chance(0.7)) ? warnings : faults;
    this.current = this.rng.pick(pool);
  }

  /** Raise a given code now for `durationMs` (tests, demos). */
  raise(code: string, t: number, durationMs: number): void {
    const known = this.codes.find((c) => c.code === code);
    if (!known) throw new Error(`unknown fault code "${code}"`);
    this.current = known;
    this.episodes.start(t, durationMs);
  }
}
