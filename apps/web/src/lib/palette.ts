/**
 * The one palette of the portal, derived from the company colour: the chart series (generation,
 * load, grid, battery and the further series charts draw) and the colours that carry a meaning
 * (statuses, event levels). `derivePalette` works it out for a company colour and the background
 * the charts are drawn on; the theme (app/theme.tsx) provides it to every chart and status colour
 * and seeds antd's status tokens with it. Colours are worked out in OKLCH (`colour.ts`), so hue
 * distances mean the same everywhere on the wheel; what each status means is in `statusColours.ts`.
 */
import { defaultThemeColor } from '@sunfleet/contracts';
import type { FlowDirection } from './chart.ts';
import { clamp, contrastRatio, flatten, hueDistance, type Lch, luminance, oklch, toHexInGamut } from './colour.ts';

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

export type PowerSeriesKey = keyof Palette['power'];
/** Names of the power curve's series: grid and battery by direction, never one signed curve. */
export type PowerLabels = Record<'pv' | 'load' | 'soc' | 'forecast' | FlowDirection, string>;
