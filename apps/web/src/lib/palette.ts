/**
 * The one palette of the portal, derived from the company colour: the chart series (generation,
 * load, grid, battery and the further series charts draw) and the colours that carry a meaning
 * (statuses, event levels). `derivePalette` works it out for a company colour and the background
 * the charts are drawn on; the theme (app/theme.tsx) provides it to every chart and status colour
 * and seeds antd's status tokens with it. Colours are worked out in OKLCH (perceptual lightness,
 * chroma and hue), so hue distances mean the same everywhere on the wheel.
 */
import { type DeviceStateName, defaultThemeColor, type plantsApi } from '@sunfleet/contracts';
import type { FlowDirection } from './chart.ts';
import type { Level } from './events.ts';

/** Minimum contrast of a series or a status mark against the chart background (WCAG 2 non-text). */
export const GRAPHIC_CONTRAST = 3;
/** Hues of the series ring: the company colour and seven more, this far apart (OKLCH degrees). */
export const SERIES_HUE_STEP = 45;
/** A series and a status (both chromatic) closer in hue than this are confusable. */
export const STATUS_HUE_GUARD = 15;
/** Below this OKLCH chroma a colour is grey: it has no hue to compare. */
export const ACHROMATIC = 0.04;
/** Two greys closer in OKLCH lightness than this are confusable. */
export const GREY_LIGHTNESS_GUARD = 0.12;

/**
 * The meaning colours for the default company colour (antd's status colours) and the OKLCH hue
 * range that keeps each one's meaning: good green, warning amber, bad red, info blue, a lost
 * connection red-orange (a softer fault), unbound purple; idle is grey.
 */
export const meaningBase = {
  good: { colour: '#52c41a', from: 128, to: 165 },
  goodStrong: { colour: '#389e0d', from: 128, to: 165 },
  warning: { colour: '#faad14', from: 58, to: 94 },
  bad: { colour: '#ff4d4f', from: 2, to: 40 },
  info: { colour: '#1677ff', from: 240, to: 275 },
  idle: { colour: '#8c8c8c', from: 0, to: 360 },
  disconnected: { colour: '#ff7a45', from: 28, to: 50 },
  unbound: { colour: '#722ed1', from: 280, to: 320 },
} as const;

/** The colours charts draw their series in (every part of the palette but the meaning colours). */
export type SeriesPalette = Omit<Palette, 'meaning'>;

export interface Palette {
  /** Colours that carry a meaning: good, warning, bad, informative, idle. */
  meaning: {
    good: string;
    goodStrong: string;
    warning: string;
    bad: string;
    info: string;
    idle: string;
    /** A gateway that lost its connection (a softer fault). */
    disconnected: string;
    /** A gateway bound to no plant. */
    unbound: string;
  };
  /** The overview's power curve and energy flow (grid and battery as their import and charge colours). */
  power: { pv: string; load: string; grid: string; battery: string; soc: string; forecast: string };
  /** The two directions of grid and battery power (curves) and energy (bars), the same on every chart. */
  flow: Record<FlowDirection, string>;
  /** Generation bars: energy and income. */
  generation: { energy: string; income: string };
  /** Series in order when a chart draws several measurements of one kind (device charts). */
  measurement: readonly string[];
  /** Series in order on the operation-data chart. */
  workdata: readonly string[];
}

/**
 * The palette of a company colour on a chart background.
 * - Series: the company colour is the generation series; the others sit on a ring of hues
 *   `SERIES_HUE_STEP`° apart starting from it, at the company's lightness and chroma (chroma kept
 *   between 0.11 and 0.2, lightness between 0.55 and 0.75), each shaded in lightness until it
 *   reaches `GRAPHIC_CONTRAST` on the background. A grey company colour keeps the default ring.
 * - Meaning colours (`meaningBase`): each keeps its hue range; its lightness moves by the company
 *   colour's lightness difference from the default #00cc00 and its chroma scales with the company
 *   colour's chroma, so the default company colour keeps antd's status colours. Its hue stays
 *   unless a series is within `STATUS_HUE_GUARD`° of it (the company colour's above all: a red
 *   generation series must not read as a fault), then it moves within its range until none is.
 *   Idle is a grey, at least `GREY_LIGHTNESS_GUARD` lighter or darker than a grey generation series.
 */
export function derivePalette(company: string, background: string): Palette {
  const c = oklch(company);
  // Meaning colours move with a company colour's difference from the default one.
  const standard = oklch(defaultThemeColor);
  const hue0 = c.c < ACHROMATIC ? standard.h : c.h;
  const seriesL = clamp(c.l, 0.55, 0.75);
  const seriesC = clamp(c.c, 0.11, 0.2);
  const ring = Array.from({ length: 360 / SERIES_HUE_STEP }, (_, i) =>
    i === 0
      ? contrastRatio(company, background) >= GRAPHIC_CONTRAST
        ? flatten(company, background)
        : onBackground(c, background)
      : onBackground({ l: seriesL, c: seriesC, h: hue0 + i * SERIES_HUE_STEP }, background),
  );
  const [pv, gridExport, soc, load, gridImport, discharge, forecast, charge] = ring as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  const seriesLch = ring.map(oklch);
  const taken = seriesLch.filter((s) => s.c >= ACHROMATIC).map((s) => s.h);
  // Lightness moves with the company colour's, chroma scales with its chroma (a grey company
  // colour gives muted but still coloured meanings).
  const shiftL = c.l - standard.l;
  const scaleC = Math.max(c.c, 0.1) / standard.c;
  const meaning = (name: Exclude<keyof typeof meaningBase, 'idle'>) => {
    const { colour, from, to } = meaningBase[name];
    const base = oklch(colour);
    // The default company colour keeps antd's own colour when nothing moves it.
    if (shiftL === 0 && scaleC === 1 && freeHue({ from, to, h: base.h }, taken) === base.h) return colour;
    return toHexInGamut({
      l: clamp(base.l + shiftL, 0.45, 0.8),
      c: clamp(base.c * scaleC, 0.1, 0.25),
      h: freeHue({ from, to, h: base.h }, taken),
    });
  };
  const generation = seriesLch[0]!;
  const idleL = clamp(oklch(meaningBase.idle.colour).l + shiftL, 0.45, 0.8);
  const greyGeneration = generation.c < ACHROMATIC && Math.abs(generation.l - idleL) < GREY_LIGHTNESS_GUARD;
  return {
    meaning: {
      good: meaning('good'),
      goodStrong: meaning('goodStrong'),
      warning: meaning('warning'),
      bad: meaning('bad'),
      info: meaning('info'),
      idle: toHexInGamut({
        l: greyGeneration ? idleL + (generation.l > 0.6 ? -2 : 2) * GREY_LIGHTNESS_GUARD : idleL,
        c: 0,
        h: 0,
      }),
      disconnected: meaning('disconnected'),
      unbound: meaning('unbound'),
    },
    power: { pv, load, grid: gridImport, battery: charge, soc, forecast },
    flow: { gridImport, gridExport, discharge, charge },
    generation: { energy: pv, income: forecast },
    measurement: [pv, load, charge, gridImport, soc, discharge, forecast, gridExport],
    workdata: [load, forecast, pv, discharge, gridImport, gridExport],
  };
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/**
 * Whether a series colour could be read as a meaning colour: two coloured ones closer in hue than
 * `STATUS_HUE_GUARD`°, or two greys closer in lightness than `GREY_LIGHTNESS_GUARD`. A grey and a
 * coloured one are never confused.
 */
export function confusable(a: string, b: string): boolean {
  const x = oklch(a);
  const y = oklch(b);
  const greyX = x.c < ACHROMATIC;
  const greyY = y.c < ACHROMATIC;
  if (greyX && greyY) return Math.abs(x.l - y.l) < GREY_LIGHTNESS_GUARD;
  if (greyX || greyY) return false;
  return hueDistance(x.h, y.h) < STATUS_HUE_GUARD;
}

/** Distance of two hues on the wheel (0–180°). */
export function hueDistance(a: number, b: number): number {
  const d = Math.abs(a - b) % 360;
  return d > 180 ? 360 - d : d;
}

/**
 * The hue of a meaning colour: its own when no series hue is within `STATUS_HUE_GUARD`° of it,
 * else the whole degree of its range nearest to it that is (with a degree to spare for rounding to
 * #rrggbb), or failing that the one farthest from every series hue.
 */
function freeHue(range: { from: number; to: number; h: number }, taken: readonly number[]): number {
  const nearest = (h: number) => Math.min(180, ...taken.map((t) => hueDistance(h, t)));
  if (nearest(range.h) >= STATUS_HUE_GUARD + 1) return range.h;
  let best = range.h;
  for (let h = range.from; h <= range.to; h++) {
    const clear = (x: number) => nearest(x) >= STATUS_HUE_GUARD + 1;
    const better = clear(h)
      ? !clear(best) || Math.abs(h - range.h) < Math.abs(best - range.h)
      : !clear(best) && nearest(h) > nearest(best);
    if (better) best = h;
  }
  return best;
}

/**
 * `colour` at a lightness that reaches `GRAPHIC_CONTRAST` on `background`: unchanged when it does,
 * else darkened (light backgrounds) or lightened (dark ones) in OKLCH lightness, keeping its hue.
 */
function onBackground(colour: Lch, background: string): string {
  const towards = luminance(background) > 0.18 ? -0.01 : 0.01;
  for (let l = colour.l; l >= 0 && l <= 1; l += towards) {
    const hex = toHexInGamut({ ...colour, l });
    if (contrastRatio(hex, background) >= GRAPHIC_CONTRAST) return hex;
  }
  return towards < 0 ? '#000000' : '#ffffff';
}

interface Lch {
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
function toHexInGamut(colour: Lch): string {
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

/** The CSS custom property of a meaning colour, in kebab case (`goodStrong` is `--sf-good-strong`). */
export const meaningVariable = (name: keyof Palette['meaning']) => `--sf-${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

/**
 * The meaning colours as CSS custom properties for CSS modules and markup drawn outside React
 * (map markers); the theme sets them on the document.
 */
export function paletteCssVariables(palette: Palette): Record<string, string> {
  return Object.fromEntries(
    Object.entries(palette.meaning).map(([name, colour]) => [meaningVariable(name as keyof Palette['meaning']), colour]),
  );
}

type PresetStatus = 'success' | 'default' | 'warning' | 'error' | 'processing';
type Meaning = keyof Palette['meaning'];

/**
 * Status colours: Ant Design statuses for badges and tags (antd's status tokens are seeded with the
 * palette, and their text colours are shaded readable by the theme), and the meaning colour for map
 * markers and cards (`meaningColour`).
 */
export const statusStyle: Record<plantsApi.PlantStatusName, { badge: PresetStatus; tag: PresetStatus; meaning: Meaning }> = {
  normal: { badge: 'success', tag: 'success', meaning: 'good' },
  offline: { badge: 'default', tag: 'default', meaning: 'idle' },
  warning: { badge: 'warning', tag: 'warning', meaning: 'warning' },
  fault: { badge: 'error', tag: 'error', meaning: 'bad' },
  upgrading: { badge: 'processing', tag: 'processing', meaning: 'info' },
};

/** A device state's colours: its status's, and powered off as idle. */
export const deviceStateStyle: Record<DeviceStateName, (typeof statusStyle)[plantsApi.PlantStatusName]> = {
  ...statusStyle,
  off: { badge: 'default', tag: 'default', meaning: 'idle' },
};

/** Gateway connection colours (the device states use `deviceStateStyle`). */
export const gatewayStateStyle = {
  online: { badge: 'success', tag: 'success', meaning: 'good' },
  offline: { badge: 'default', tag: 'default', meaning: 'idle' },
} as const;

/** Tag colours (antd presets) and card accents per level. */
export const levelStyle: Record<Level, { tag: 'error' | 'warning' | 'processing'; meaning: Meaning }> = {
  fault: { tag: 'error', meaning: 'bad' },
  warning: { tag: 'warning', meaning: 'warning' },
  info: { tag: 'processing', meaning: 'info' },
};

/** A level of a 0–100 % gauge: bad below 20, warning below 50 (when asked), good above. */
export function chargeColour(palette: Palette, percent: number, withWarning = true): string {
  if (percent < 20) return palette.meaning.bad;
  if (withWarning && percent < 50) return palette.meaning.warning;
  return palette.meaning.good;
}

export type PowerSeriesKey = keyof Palette['power'];
/** Names of the power curve's series: grid and battery by direction, never one signed curve. */
export type PowerLabels = Record<'pv' | 'load' | 'soc' | 'forecast' | FlowDirection, string>;

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
