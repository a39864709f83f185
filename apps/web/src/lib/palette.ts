/**
 * The one palette of the portal: colours by meaning (statuses, levels, chart series), taken from
 * Ant Design's default design tokens so they match antd's own tags, badges and alerts. The company
 * colour is the theme's colorPrimary (app/theme.tsx) and reaches every antd component and every
 * `theme.useToken()` reader; the colours here say what a value means and stay fixed.
 */
import type { plantsApi } from '@sunfleet/contracts';
import { theme } from 'antd';
import type { FlowDirection } from './chart.ts';
import type { Level } from './events.ts';

const token = theme.getDesignToken();
/** A colour of antd's default tokens, in lower case (antd writes some seeds in capitals). */
const tone = (name: keyof typeof token) => String(token[name]).toLowerCase();

/** Colours that carry a meaning: good, warning, bad, informative, idle. */
export const palette = {
  good: tone('colorSuccess'),
  goodStrong: tone('green-7'),
  warning: tone('colorWarning'),
  bad: tone('colorError'),
  info: tone('colorInfo'),
  idle: '#8c8c8c',
  /** A gateway that lost its connection (softer than a fault). */
  disconnected: tone('volcano-5'),
  /** A gateway bound to no plant. */
  unbound: tone('purple'),
} as const;

/**
 * The meaning colours as CSS custom properties for CSS modules, named in kebab case
 * (`goodStrong` is `--sf-good-strong`); the theme sets them on the document once.
 */
export const paletteCssVariables: Record<string, string> = Object.fromEntries(
  Object.entries(palette).map(([name, colour]) => [`--sf-${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`, colour]),
);

/** Chart series colours, distinct on light and dark backgrounds. */
export const seriesColors = {
  sun: '#f5a623',
  blue: tone('blue'),
  green: tone('green'),
  leaf: '#3fb950',
  lavender: tone('purple-5'),
  purple: tone('purple'),
  cyan: tone('cyan'),
  teal: tone('cyan-5'),
  magenta: tone('magenta'),
  volcano: tone('volcano'),
  orange: tone('orange'),
  geekblue: tone('geekblue'),
} as const;

type PresetStatus = 'success' | 'default' | 'warning' | 'error' | 'processing';

/**
 * Status colours: Ant Design statuses for badges and tags (their text colours come from the theme,
 * which keeps them readable), hex for map markers and cards.
 */
export const statusStyle: Record<plantsApi.PlantStatusName, { badge: PresetStatus; tag: PresetStatus; color: string }> = {
  normal: { badge: 'success', tag: 'success', color: palette.good },
  offline: { badge: 'default', tag: 'default', color: palette.idle },
  warning: { badge: 'warning', tag: 'warning', color: palette.warning },
  fault: { badge: 'error', tag: 'error', color: palette.bad },
  upgrading: { badge: 'processing', tag: 'processing', color: palette.info },
};

/** Gateway connection colours (the device statuses use `statusStyle`). */
export const gatewayStateStyle = {
  online: { badge: 'success', tag: 'success', color: palette.good },
  offline: { badge: 'default', tag: 'default', color: palette.idle },
} as const;

/** Tag colours (antd presets) and card accents per level. */
export const levelStyle: Record<Level, { tag: 'error' | 'warning' | 'processing'; color: string }> = {
  fault: { tag: 'error', color: palette.bad },
  warning: { tag: 'warning', color: palette.warning },
  info: { tag: 'processing', color: palette.info },
};

/** The overview's power curve and energy flow. */
export const powerPalette = {
  pv: seriesColors.sun,
  load: seriesColors.blue,
  grid: seriesColors.lavender,
  battery: seriesColors.green,
  soc: seriesColors.cyan,
  forecast: seriesColors.orange,
} as const;
/** The two directions of grid and battery power (curves) and energy (bars), the same on every chart. */
export const flowPalette: Record<FlowDirection, string> = {
  gridImport: powerPalette.grid,
  gridExport: seriesColors.teal,
  discharge: seriesColors.magenta,
  charge: powerPalette.battery,
};
/** Generation bars: energy and income. */
export const generationPalette = { energy: seriesColors.leaf, income: seriesColors.sun } as const;

/** Series in order when a chart draws several measurements of one kind (device charts). */
export const measurementSeries: readonly string[] = [
  seriesColors.sun,
  seriesColors.blue,
  seriesColors.green,
  seriesColors.lavender,
  seriesColors.cyan,
  seriesColors.magenta,
  seriesColors.volcano,
  seriesColors.geekblue,
];

/** Series in order on the operation-data chart. */
export const workdataSeries = [
  seriesColors.blue,
  seriesColors.sun,
  seriesColors.leaf,
  seriesColors.magenta,
  seriesColors.purple,
  seriesColors.cyan,
] as const;

/** A level of a 0–100 % gauge: red below 20, amber below 50 (when asked), green above. */
export function chargeColour(percent: number, withWarning = true): string {
  if (percent < 20) return palette.bad;
  if (withWarning && percent < 50) return palette.warning;
  return palette.good;
}

export type PowerSeriesKey = keyof typeof powerPalette;
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
