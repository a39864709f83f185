// Weather at a plant, a pure function of (seed, place, time) so any instant can be asked for
// in any order (live uploads, backfill, several devices of one plant) and always agrees.
//
// Clouds: each solar day has a regime (clear, mixed, overcast) from a Markov chain with
// day-to-day persistence; within the day, cloudiness follows an AR(1) process on a 5-minute
// grid around the regime's mean (φ = 0.88 per step: correlation time of about 40 minutes),
// drifting toward the next day's regime in the afternoon. Cloudiness maps to a clear-sky index
// (Kasten–Czeplak-like) and a diffuse fraction. Temperature: seasonal mean by latitude, a day
// anomaly, a daily cycle (minimum near sunrise, maximum mid-afternoon) damped by clouds.
import { gaussian, noise, smoothNoise } from '../random.ts';
import { dayOfYear, solarDay, solarHour } from './local-time.ts';

export interface Climate {
  /** Share of clear days, 0..1 (southern Spain ≈ 0.7, northern Europe ≈ 0.3). */
  sunny: number;
  /** Mean annual temperature, °C (default from latitude). */
  annualMeanC?: number;
  /** Half the summer–winter difference of daily means, °C (default from latitude). */
  seasonalSwingC?: number;
  /** Mean wind speed, m/s. */
  windMs?: number;
}

export interface Weather {
  /** Sky cover 0 (clear) .. 1 (overcast). */
  cloudiness: number;
  /** Global irradiance as a fraction of the clear-sky value. */
  clearSkyIndex: number;
  /** Diffuse share of global irradiance. */
  diffuseFraction: number;
  ambientC: number;
  windMs: number;
  windDirection: number;
  humidity: number;
}

const STEP_MINUTES = 5;
const STEPS_PER_DAY = (24 * 60) / STEP_MINUTES;
const PHI = 0.88;
const MINUTE = 60_000;

type Regime = 0 | 1 | 2;
const regimeMean = [0.06, 0.45, 0.85];
const regimeSpread = [0.07, 0.28, 0.12];

export class WeatherModel {
  private readonly regimes = new Map<number, Regime>();
  private readonly days = new Map<number, Float64Array>();
  private readonly annualMean: number;
  private readonly swing: number;
  private readonly wind: number;

  constructor(
    private readonly seed: number,
    private readonly lat: number,
    private readonly lon: number,
    private readonly climate: Climate = { sunny: 0.5 },
  ) {
    this.annualMean = climate.annualMeanC ?? 31 - 0.38 * Math.abs(lat);
    this.swing = climate.seasonalSwingC ?? 0.22 * Math.abs(lat);
    this.wind = climate.windMs ?? 3.5;
  }

  at(t: number): Weather {
    const day = solarDay(t, this.lon);
    const hour = solarHour(t, this.lon);
    const cloudiness = this.cloudiness(day, hour);
    const dayCloud = regimeMean[this.regime(day)]!;
    const ambientC = this.temperature(t, day, hour, dayCloud);
    const windMs = this.windSpeed(t, hour, dayCloud);
    const windDirection = (360 * smoothNoise(this.seed, t / MINUTE, 6 * 60, 7)) % 360;
    const humidity = clamp(
      45 +
        40 * cloudiness -
        2.2 * (ambientC - this.dayMean(t, day)) +
        10 * (noise(this.seed, Math.floor(t / (30 * MINUTE)), 8) - 0.5),
      8,
      100,
    );
    return {
      cloudiness,
      clearSkyIndex: 1 - 0.75 * cloudiness ** 2,
      diffuseFraction: 0.12 + 0.88 * cloudiness ** 1.5,
      ambientC,
      windMs,
      windDirection,
      humidity,
    };
  }

  /** The day's regime: 0 clear, 1 mixed, 2 overcast. */
  regime(day: number): Regime {
    const known = this.regimes.get(day);
    if (known !== undefined) return known;
    // Start the chain three weeks back from a stationary-ish draw: enough to forget the start.
    const s = this.climate.sunny;
    const u0 = noise(this.seed, day - 21, 1);
    let r: Regime = u0 < s ? 0 : u0 < s + 0.6 * (1 - s) ? 1 : 2;
    for (let d = day - 20; d <= day; d++) r = this.nextRegime(r, noise(this.seed, d, 1), s);
    if (this.regimes.size > 64) this.regimes.clear();
    this.regimes.set(day, r);
    return r;
  }

  private nextRegime(from: Regime, u: number, s: number): Regime {
    const rows: Record<Regime, [number, number]> = {
      // [P(clear), P(clear or mixed)]
      0: [0.5 + 0.4 * s, 0.5 + 0.4 * s + (0.5 - 0.4 * s) * 0.75],
      1: [0.15 + 0.45 * s, 0.15 + 0.45 * s + 0.45],
      2: [(0.4 + 0.3 * s) * 0.4, 0.4 + 0.3 * s],
    };
    const [clear, clearOrMixed] = rows[from];
    return u < clear ? 0 : u < clearOrMixed ? 1 : 2;
  }

  private cloudiness(day: number, hour: number): number {
    const path = this.dayPath(day);
    const x = hour * (60 / STEP_MINUTES);
    const k = Math.min(STEPS_PER_DAY - 1, Math.floor(x));
    const f = x - k;
    const latent = path[k]! * (1 - f) + path[k + 1]! * f;
    const today = this.regime(day);
    const tomorrow = this.regime(day + 1);
    const w = smoothstep(clamp((hour / 24 - 0.45) / 0.55, 0, 1));
    const mean = regimeMean[today]! * (1 - w) + regimeMean[tomorrow]! * w;
    const spread = regimeSpread[today]! * (1 - w) + regimeSpread[tomorrow]! * w;
    return clamp(mean + spread * latent, 0, 1);
  }

  /** The AR(1) latent cloud process of one solar day, on the 5-minute grid. */
  private dayPath(day: number): Float64Array {
    let path = this.days.get(day);
    if (path) return path;
    path = new Float64Array(STEPS_PER_DAY + 1);
    path[0] = gaussian(noise(this.seed, day, 2), noise(this.seed, day, 3));
    const innovation = Math.sqrt(1 - PHI * PHI);
    for (let k = 1; k <= STEPS_PER_DAY; k++) {
      const index = day * (STEPS_PER_DAY + 1) + k;
      path[k] = PHI * path[k - 1]! + innovation * gaussian(noise(this.seed, index, 4), noise(this.seed, index, 5));
    }
    if (this.days.size >= 8) this.days.delete(this.days.keys().next().value!);
    this.days.set(day, path);
    return path;
  }

  private dayMean(t: number, day: number): number {
    const season = Math.cos((2 * Math.PI * (dayOfYear(t) - 200)) / 365) * (this.lat >= 0 ? 1 : -1);
    const anomaly = (smoothNoise(this.seed, day, 3, 6) - 0.5) * 6;
    return this.annualMean + this.swing * season + anomaly;
  }

  private temperature(t: number, day: number, hour: number, dayCloud: number): number {
    const amplitude = 3 + 5 * (1 - dayCloud);
    return this.dayMean(t, day) + amplitude * Math.cos((2 * Math.PI * (hour - 15)) / 24);
  }

  private windSpeed(t: number, hour: number, dayCloud: number): number {
    const regime = 0.8 + 0.6 * dayCloud;
    const diurnal = hour > 9 && hour < 21 ? 1 + 0.3 * Math.sin((Math.PI * (hour - 9)) / 12) : 1;
    const gust = 0.4 + 1.2 * smoothNoise(this.seed, t / MINUTE, 20, 9);
    return this.wind * regime * diurnal * gust;
  }
}

function clamp(x: number, min: number, max: number): number {
  return x < min ? min : x > max ? max : x;
}

function smoothstep(x: number): number {
  return x * x * (3 - 2 * x);
}
