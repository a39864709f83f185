/**
 * Colour maths: OKLCH (perceptual lightness, chroma and hue, Björn Ottosson's OKLab in polar form)
 * and back into the sRGB gamut, alpha compositing, WCAG 2 luminance and contrast, readable text
 * shades. Pure functions of colour strings; the palette (`palette.ts`) is built on them.
 */

export const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** Distance of two hues on the wheel (0–180°). */
export function hueDistance(a: number, b: number): number {
  const d = Math.abs(a - b) % 360;
  return d > 180 ? 360 - d : d;
}

export interface Lch {
  /** OKLCH lightness, 0–1. */
  l: number;
  /** OKLCH chroma, 0 (grey) to about 0.37. */
  c: number;
  /** OKLCH hue in degrees. */
  h: number;
}

const srgbToLinear = (v: number) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
const linearToSrgb = (v: number) => (v <= 0.0031308 ? 12.92 * v : 1.055 * v ** (1 / 2.4) - 0.055);

/** OKLCH of an opaque colour (Björn Ottosson's OKLab, in polar form). */
export function oklch(colour: string): Lch {
  const [r, g, b] = rgba(colour)
    .slice(0, 3)
    .map((v) => srgbToLinear(v / 255)) as [number, number, number];
  const l = Math.cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b);
  const m = Math.cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b);
  const s = Math.cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b);
  const L = 0.2104542553 * l + 0.793617785 * m - 0.0040720468 * s;
  const A = 1.9779984951 * l - 2.428592205 * m + 0.4505937099 * s;
  const B = 0.0259040371 * l + 0.7827717662 * m - 0.808675766 * s;
  return { l: L, c: Math.hypot(A, B), h: ((Math.atan2(B, A) * 180) / Math.PI + 360) % 360 };
}

/** Linear sRGB of an OKLCH colour (may fall outside 0–1: out of gamut). */
function linearRgb({ l: L, c, h }: Lch): [number, number, number] {
  const A = c * Math.cos((h * Math.PI) / 180);
  const B = c * Math.sin((h * Math.PI) / 180);
  const l = (L + 0.3963377774 * A + 0.2158037573 * B) ** 3;
  const m = (L - 0.1055613458 * A - 0.0638541728 * B) ** 3;
  const s = (L - 0.0894841775 * A - 1.291485548 * B) ** 3;
  return [
    4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s,
    -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s,
    -0.0041960863 * l - 0.7034186147 * m + 1.707614701 * s,
  ];
}

/** An OKLCH colour as #rrggbb; outside the sRGB gamut its chroma is reduced until it fits (hue and lightness kept). */
export function toHexInGamut(colour: Lch): string {
  const l = clamp(colour.l, 0, 1);
  const fits = (c: number) => linearRgb({ l, c, h: colour.h }).every((v) => v >= -1e-6 && v <= 1 + 1e-6);
  let c = Math.max(0, colour.c);
  if (!fits(c)) {
    let lo = 0;
    let hi = c;
    for (let i = 0; i < 24; i++) {
      const mid = (lo + hi) / 2;
      if (fits(mid)) lo = mid;
      else hi = mid;
    }
    c = lo;
  }
  return toHex(linearRgb({ l, c, h: colour.h }).map((v) => clamp(linearToSrgb(clamp(v, 0, 1)), 0, 1) * 255));
}

/** Minimum contrast of text against its background (WCAG 2 AA, normal-size text). */
export const TEXT_CONTRAST = 4.5;

/** Red, green, blue (0–255) and alpha (0–1) of `#rgb`, `#rrggbb`, `#rrggbbaa`, `rgb()` or `rgba()`. */
function rgba(colour: string): [number, number, number, number] {
  const c = colour.trim().toLowerCase();
  const hex = c.match(/^#([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/)?.[1];
  if (hex) {
    const full = hex.length === 3 ? [...hex].map((d) => d + d).join('') : hex;
    const n = (i: number) => Number.parseInt(full.slice(i, i + 2), 16);
    return [n(0), n(2), n(4), full.length === 8 ? n(6) / 255 : 1];
  }
  const fn = c.match(/^rgba?\(([^)]+)\)$/)?.[1];
  if (fn) {
    const [r = 0, g = 0, b = 0, a = 1] = fn
      .split(/[,\s/]+/)
      .filter(Boolean)
      .map(Number);
    return [r, g, b, a];
  }
  throw new Error(`not a colour: ${colour}`);
}

const toHex = (rgb: number[]) => `#${rgb.map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;

/** `colour` as it shows over the opaque `background` (alpha composited), as #rrggbb. */
export function flatten(colour: string, background: string): string {
  const [r, g, b, a] = rgba(colour);
  const [br, bg, bb] = rgba(background);
  return toHex([r * a + br * (1 - a), g * a + bg * (1 - a), b * a + bb * (1 - a)]);
}

/** Relative luminance (WCAG 2) of an opaque colour. */
export function luminance(colour: string): number {
  const [r, g, b] = rgba(colour).map((v) => v / 255) as [number, number, number];
  const lin = (v: number) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** Contrast ratio (1–21) of `text` (may be translucent) over the opaque `background`. */
export function contrastRatio(text: string, background: string): number {
  const a = luminance(flatten(text, background));
  const b = luminance(background);
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}

/** White or black text, whichever reads better on `background` (one of them always reaches 4.5:1). */
export function textOn(background: string): '#ffffff' | '#000000' {
  return contrastRatio('#ffffff', background) >= contrastRatio('#000000', background) ? '#ffffff' : '#000000';
}

/**
 * `colour` as text on every one of `backgrounds` (all light or all dark): unchanged when it reaches
 * `min`:1 on each, else shaded towards black (light backgrounds) or white (dark ones) in small steps
 * until it does. A company colour gets the same treatment as the brand's.
 */
export function readableShade(colour: string, backgrounds: readonly string[], min = TEXT_CONTRAST): string {
  const base = backgrounds[0] ?? '#ffffff';
  const towards = luminance(base) > 0.18 ? 0 : 255;
  const start = rgba(flatten(colour, base)).slice(0, 3);
  for (let step = 0; step <= 100; step++) {
    const t = step / 100;
    const shade = toHex(start.map((v) => v + (towards - v) * t));
    if (backgrounds.every((bg) => contrastRatio(shade, bg) >= min)) return shade;
  }
  return towards === 0 ? '#000000' : '#ffffff';
}
