/**
 * Figures as the portal shows them, on top of the contracts' formatters: capacity in kWp, power
 * and energy by the power rule (3–5 digits → k, 6 or more → M), money, CO₂, rates, measurements,
 * the unit of a chart axis, date-times as YYYY-MM-DD HH:mm:ss and "5 minutes ago"; -- for a
 * missing value.
 *
 * Every number is written in the interface language ("1,234.5" in en, "1.234,5" in es) and every
 * temperature in the user's unit (°C or °F): both are display settings of this page, set once
 * the language is chosen (app/i18n.ts) and the profile is read (the shell). Screens, charts and
 * the PDF format through here, never through the contracts' formatters directly.
 */
import {
  CELSIUS,
  formatNumber as formatNumberIn,
  formatPower as formatPowerIn,
  inTemperatureUnit,
  spanFromCelsius,
  type TemperatureUnit,
  temperatureSymbol,
} from '@sunfleet/contracts';

const settings: { locale: string; temperature: TemperatureUnit } = { locale: 'en', temperature: 'C' };

/** The language numbers are written in (the interface language). */
export function setNumberLocale(locale: string): void {
  settings.locale = locale;
}
export const numberLocale = () => settings.locale;

/** The unit temperatures are shown in (the user's profile). */
export function setTemperatureUnit(unit: TemperatureUnit): void {
  settings.temperature = unit;
}
export const temperatureUnit = () => settings.temperature;

/** A number in the interface language: grouped thousands, its decimal mark; -- when missing. */
export const formatNumber = (value: number | null | undefined, decimals?: number) =>
  formatNumberIn(value, decimals, settings.locale);

/** Power-like values by the power rule (3–5 digits → k, 6 or more → M), in the interface language. */
export const formatPower = (value: number | null | undefined, unit = 'W') => formatPowerIn(value, unit, settings.locale);

/**
 * A measured value and its unit as this user sees them: a °C value converted to their unit and
 * labelled with it, others as they are.
 */
export function displayed<V extends number | null | undefined>(value: V, unit: string | null | undefined) {
  return inTemperatureUnit(value, unit, settings.temperature);
}

/** The unit a value measured in `unit` is shown in (°C → the user's temperature unit). */
export const displayUnit = (unit: string | null | undefined) =>
  unit === CELSIUS ? temperatureSymbol(settings.temperature) : unit;

/** A difference (spread, span) measured in `unit`, in the shown unit: °C spans scale to °F without the offset. */
export const displayedSpan = (value: number, unit: string | null | undefined) =>
  unit === CELSIUS ? spanFromCelsius(value, settings.temperature) : value;

/** Installed capacity (kWp), at most two decimals, thousands separators. */
export function formatCapacity(kwp: number | null | undefined): string {
  if (kwp === null || kwp === undefined || Number.isNaN(kwp)) return '--';
  return `${formatNumber(Math.round(kwp * 100) / 100)} kWp`;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** YYYY-MM-DD HH:mm:ss in the browser's time zone; -- when missing or unreadable. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '--';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '--';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

const steps: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 30],
  ['month', 12],
  ['year', Number.POSITIVE_INFINITY],
];

/** "5 minutes ago" / "hace 5 minutos"; under 45 s "now"; -- when missing. */
export function relativeTime(iso: string | null | undefined, language: string, now = Date.now()): string {
  if (!iso) return '--';
  const t = new Date(iso).getTime();
  if (Number.isNaN(t)) return '--';
  const format = new Intl.RelativeTimeFormat(language, { numeric: 'auto' });
  let value = (t - now) / 1000;
  if (Math.abs(value) < 45) return format.format(0, 'second');
  for (const [unit, size] of steps) {
    if (Math.abs(value) < size) return format.format(Math.round(value), unit);
    value /= size;
  }
  return format.format(Math.round(value), 'year');
}

const missing = (v: number | null | undefined): v is null | undefined => v === null || v === undefined || !Number.isFinite(v);

/**
 * Power in W: 1–2 integer digits in W, 3–5 in kW, 6 or more in MW (rounded to whole watts first:
 * averages carry decimals).
 */
export const formatWatts = (w: number | null | undefined) => (missing(w) ? '--' : formatPower(Math.round(w)));

/**
 * Energy in Wh → "850 Wh", "12.3 kWh", "1,234.6 MWh": the one rule every energy figure of the
 * portal is written by. Rounded to whole watt-hours first (sums and counter differences carry
 * decimals and float noise: 9149.9999 is the 9150 Wh of a counter, "9.2 kWh"), then by the power
 * rule (1–2 integer digits in Wh, 3–5 in kWh, 6 or more in MWh, one decimal).
 */
export const formatEnergy = (wh: number | null | undefined) => (missing(wh) ? '--' : formatPower(Math.round(wh), 'Wh'));

/** Money with two decimals and the currency code; -- without a value. */
export function formatMoney(value: number | null | undefined, currency: string | null | undefined): string {
  if (missing(value)) return '--';
  const text = formatNumber(Math.round(value * 100) / 100, 2);
  return currency ? `${text} ${currency}` : text;
}

/** CO₂ mass: kg with one decimal below a tonne, tonnes with two above. */
export function formatCo2(kg: number | null | undefined): string {
  if (missing(kg)) return '--';
  if (Math.abs(kg) >= 1000) return `${formatNumber(kg / 1000, 2)} t`;
  return `${formatNumber(kg, 1)} kg`;
}

/** A 0–1 ratio as a percentage with one decimal. */
export const formatRate = (ratio: number | null | undefined) => (missing(ratio) ? '--' : `${formatNumber(ratio * 100, 1)} %`);

/** A measurement with a unit and fixed decimals (temperatures in the user's unit, wind, irradiance). */
export function formatMeasure(value: number | null | undefined, unit: string, decimals = 1): string {
  if (missing(value)) return '--';
  const shown = displayed(value, unit);
  return `${formatNumber(shown.value, decimals)} ${shown.unit}`;
}

export interface AxisUnit {
  /** Divide raw values (W or Wh) by this. */
  divisor: number;
  unit: string;
}

/** The unit of a chart axis from its largest magnitude, like power (3–5 digits k, 6+ M). */
export function axisUnit(maxAbs: number, base: 'W' | 'Wh'): AxisUnit {
  const digits = String(Math.trunc(Math.abs(Number.isFinite(maxAbs) ? maxAbs : 0))).length;
  if (digits >= 6) return { divisor: 1_000_000, unit: `M${base}` };
  if (digits >= 3) return { divisor: 1000, unit: `k${base}` };
  return { divisor: 1, unit: base };
}
