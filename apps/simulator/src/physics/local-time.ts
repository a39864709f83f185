// A plant's civil time: its day (energy counters reset at local midnight, as the server's
// day rollups do) and its hour of day (load profiles follow the clock on the wall).
// Intl is slow, so the UTC offset is looked up once per hour and kept.

const HOUR = 3_600_000;
const DAY = 86_400_000;

export class LocalTime {
  private readonly format: Intl.DateTimeFormat;
  private bucket = Number.NaN;
  private offset = 0;

  constructor(readonly timeZone: string) {
    this.format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
  }

  /** Local time minus UTC, in milliseconds, at instant `t`. */
  offsetMs(t: number): number {
    const bucket = Math.floor(t / HOUR);
    if (bucket !== this.bucket) {
      this.bucket = bucket;
      this.offset = this.computeOffset(bucket * HOUR);
    }
    return this.offset;
  }

  /** Days since the epoch in local time: changes at local midnight. */
  day(t: number): number {
    return Math.floor((t + this.offsetMs(t)) / DAY);
  }

  /** Hour of the local day, fractional (0 ≤ h < 24). */
  hour(t: number): number {
    const local = t + this.offsetMs(t);
    return (((local % DAY) + DAY) % DAY) / HOUR;
  }

  /** Day of the week, 0 = Sunday. */
  weekday(t: number): number {
    return (this.day(t) + 4) % 7; // 1970-01-01 was a Thursday
  }

  private computeOffset(t: number): number {
    const parts: Record<string, number> = {};
    for (const p of this.format.formatToParts(new Date(t))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
    const asUtc = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
    return asUtc - t;
  }
}

/** Days since the epoch in local solar time (solar midnight, from longitude). */
export function solarDay(t: number, lon: number): number {
  return Math.floor((t + (lon / 360) * DAY) / DAY);
}

/** Hour of the local solar day (12 ≈ solar noon). */
export function solarHour(t: number, lon: number): number {
  const local = t + (lon / 360) * DAY;
  return (((local % DAY) + DAY) % DAY) / HOUR;
}

/** Day of the year (0..365) of instant `t`, UTC. */
export function dayOfYear(t: number): number {
  const d = new Date(t);
  return Math.floor((t - Date.UTC(d.getUTCFullYear(), 0, 1)) / DAY);
}
