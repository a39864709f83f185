// What a building draws, as a pure function of time: an hourly profile by local clock
// (household: night base load, a morning peak, a bigger evening peak; business: a weekday
// plateau), scaled so the year averages the given daily energy, with more in winter, a slow
// multiplicative wander, and appliance events (kettle, oven, washing machine, heat pump
// start) drawn per 10-minute slot from hashed noise, so every instant is reproducible.
import { noise, smoothNoise } from '../random.ts';
import { dayOfYear, type LocalTime } from './local-time.ts';

export type LoadKind = 'household' | 'business';

export interface LoadProfile {
  kind: LoadKind;
  /** Mean energy per day over a year, kWh. */
  dailyKwh: number;
}

// Relative power by local hour (0..23), shaped after typical European residential and
// small-business curves; each row is normalised below.
const shapes: Record<LoadKind, { weekday: number[]; weekend: number[] }> = {
  household: {
    weekday: [
      0.45, 0.4, 0.38, 0.37, 0.38, 0.45, 0.8, 1.25, 1.1, 0.8, 0.7, 0.7, 0.8, 0.9, 0.8, 0.7, 0.75, 0.95, 1.3, 1.7, 1.9, 1.75, 1.3,
      0.8,
    ],
    weekend: [
      0.5, 0.45, 0.4, 0.38, 0.38, 0.4, 0.5, 0.7, 1.0, 1.25, 1.2, 1.15, 1.25, 1.3, 1.1, 0.95, 0.95, 1.05, 1.3, 1.65, 1.8, 1.65,
      1.3, 0.85,
    ],
  },
  business: {
    weekday: [
      0.3, 0.28, 0.28, 0.28, 0.3, 0.35, 0.55, 1.1, 1.6, 1.75, 1.8, 1.8, 1.65, 1.7, 1.8, 1.75, 1.6, 1.3, 0.8, 0.5, 0.4, 0.35, 0.32,
      0.3,
    ],
    weekend: [
      0.3, 0.28, 0.28, 0.28, 0.28, 0.28, 0.3, 0.35, 0.4, 0.45, 0.45, 0.45, 0.45, 0.45, 0.45, 0.4, 0.38, 0.35, 0.32, 0.3, 0.3, 0.3,
      0.3, 0.3,
    ],
  },
};

const normalised = (row: readonly number[]) => {
  const mean = row.reduce((a, b) => a + b, 0) / row.length;
  return row.map((v) => v / mean);
};
const profiles = Object.fromEntries(
  Object.entries(shapes).map(([kind, s]) => [kind, { weekday: normalised(s.weekday), weekend: normalised(s.weekend) }]),
) as Record<LoadKind, { weekday: number[]; weekend: number[] }>;

const MINUTE = 60_000;
const SLOT = 10 * MINUTE;

export class LoadModel {
  constructor(
    private readonly seed: number,
    private readonly profile: LoadProfile,
    private readonly time: LocalTime,
    private readonly lat: number,
  ) {}

  /** Power drawn at instant `t`, W. */
  at(t: number): number {
    const meanW = (this.profile.dailyKwh * 1000) / 24;
    const hour = this.time.hour(t);
    const weekday = this.time.weekday(t);
    const shape = profiles[this.profile.kind][weekday === 0 || weekday === 6 ? 'weekend' : 'weekday'];
    const h = Math.floor(hour);
    const f = hour - h;
    const base = shape[h]! * (1 - f) + shape[(h + 1) % 24]! * f;
    // Winter draws more (lighting, heating): ±15 % around the year's mean.
    const season = 1 + 0.15 * Math.cos((2 * Math.PI * (dayOfYear(t) - 15)) / 365) * (this.lat >= 0 ? 1 : -1);
    const wander = 0.8 + 0.4 * smoothNoise(this.seed, t / MINUTE, 45, 11);
    // The profile carries 65 % of the energy and appliance events the rest (0.18 × 1.2 slots × 1.62).
    return 0.65 * meanW * base * season * wander + this.appliances(t, meanW, base);
  }

  /** Appliance events overlapping `t`: each slot may start one, lasting up to 30 minutes. */
  private appliances(t: number, meanW: number, activity: number): number {
    const slot = Math.floor(t / SLOT);
    let extra = 0;
    for (let s = slot - 2; s <= slot; s++) {
      // More likely when people are active (the profile is high).
      if (noise(this.seed, s, 12) > 0.18 * activity) continue;
      const start = s * SLOT + noise(this.seed, s, 13) * SLOT;
      const duration = (3 + 27 * noise(this.seed, s, 14) ** 2) * MINUTE;
      if (t >= start && t < start + duration) extra += 0.54 * meanW * (1 + 4 * noise(this.seed, s, 15));
    }
    return extra;
  }
}

/** A household's or business's daily energy from its PV size (the demo's plausible pairing). */
export function typicalDailyKwh(kind: LoadKind, pvKwp: number): number {
  return kind === 'household' ? Math.min(30, 6 + 1.6 * pvKwp) : 3.2 * pvKwp;
}
