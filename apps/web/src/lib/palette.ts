/**
 * The one palette of the portal: colours by meaning (statuses, levels, chart series), taken from
 * Ant Design's default design tokens so they match antd's own tags, badges and alerts. The company
 * colour is the theme's colorPrimary (app/theme.tsx) and reaches every antd component and every
 * `theme.useToken()` reader; the colours here say what a value means and stay fixed.
 */
import type { plantsApi } from '@sunfleet/contracts';
import { theme } from 'antd';
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

/** Status colours: Ant Design badge statuses for the list, hex for map markers and cards. */
export const statusStyle: Record<
  plantsApi.PlantStatusName,
  { badge: 'success' | 'default' | 'warning' | 'error' | 'processing'; color: string }
> = {
  normal: { badge: 'success', color: palette.good },
  offline: { badge: 'default', color: palette.idle },
  warning: { badge: 'warning', color: palette.warning },
  fault: { badge: 'error', color: palette.bad },
  upgrading: { badge: 'processing', color: palette.info },
};

/** Gateway connection colours (the device statuses use `statusStyle`). */
export const gatewayStateStyle = {
  online: { badge: 'success', color: palette.good },
  offline: { badge: 'default', color: palette.idle },
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
export type PowerLabels = Record<PowerSeriesKey, string>;
