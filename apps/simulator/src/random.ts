// Seeded randomness. Two kinds: a sequential generator (fault episodes, fleet layout) and
// hashed noise, a pure function of (seed, integer index), so weather and load can be asked
// for any instant in any order and still agree with themselves.

/** 32-bit avalanche mix (MurmurHash3 finaliser). */
export function mix32(h: number): number {
  let x = h >>> 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x >>> 0;
}

/** A 32-bit hash of strings and numbers (FNV-1a, then mixed). */
export function hash32(...parts: readonly (string | number)[]): number {
  let h = 0x811c9dc5;
  for (const part of parts) {
    const text = typeof part === 'number' ? part.toString(36) : part;
    for (let i = 0; i < text.length; i++) {
      h ^= text.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
    h ^= 0x2f;
    h = Math.imul(h, 0x01000193);
  }
  return mix32(h);
}

/** Uniform in [0, 1) for an integer index under a seed: random access, no state. */
export function noise(seed: number, index: number, channel = 0): number {
  const lo = index | 0;
  const hi = Math.floor(index / 4294967296) | 0;
  const h = mix32(seed ^ Math.imul(lo, 0x9e3779b1) ^ Math.imul(hi + channel * 0x632be5ab, 0x85ebca77));
  return h / 4294967296;
}

/** Smooth value noise in [0, 1): cosine-interpolated `noise` at knots `spacing` apart. */
export function smoothNoise(seed: number, x: number, spacing: number, channel = 0): number {
  const u = x / spacing;
  const k = Math.floor(u);
  const f = u - k;
  const w = (1 - Math.cos(Math.PI * f)) / 2;
  return noise(seed, k, channel) * (1 - w) + noise(seed, k + 1, channel) * w;
}

/** Standard normal from two uniforms (Box–Muller). */
export function gaussian(u1: number, u2: number): number {
  return Math.sqrt(-2 * Math.log(Math.max(u1, 1e-12))) * Math.cos(2 * Math.PI * u2);
}

/** Sequential seeded generator (mulberry32). */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  range(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  int(min: number, max: number): number {
    return Math.floor(this.range(min, max + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  normal(): number {
    return gaussian(this.next(), this.next());
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }
}
